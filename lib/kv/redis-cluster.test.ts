// Questline on a Redis Cluster (REDIS_CLUSTER=true) of the test's own: three
// masters with a replica each on local ports (lib/testing/redis-cluster.ts).
// First the adapters' own contracts run on it in this process (the KV, its
// MGET across slots included; the sliding-window limiter; sharded Pub/Sub).
// Then two server processes (scripts/serve.ts) on one PostgreSQL and the
// cluster run a player's events and claims with replays across instances,
// a shared rate limit and a resumed stream; then the master serving the
// player's slot is stopped, its replica promoted, the player goes on (a
// request that met the failover is retried with its Idempotency-Key), and
// the database holds each event and each grant exactly once (rows counted),
// every replay answers the original, and the streams carry the player's
// updates in order without a repeated id.
//
// Needs PostgreSQL (two processes share it): the PostgreSQL + Redis pass
// runs it, the embedded pass skips it.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { busContract } from '@/lib/bus/bus.contract';
import { RedisClusterBus } from '@/lib/bus/redis-cluster';
import { createBus } from '@/lib/bus';
import { limiterContract } from '@/lib/ratelimit/limiter.contract';
import { UpstashLimiter } from '@/lib/ratelimit/upstash';
import { sharedStores, startInstance, type Instance } from '@/lib/testing/instance';
import { awayFromWindowEdge } from '@/lib/testing/rate-window';
import { redisClusterAvailable, startRedisCluster, type RedisClusterProcess } from '@/lib/testing/redis-cluster';
import { openSse, type SseStream } from '@/lib/testing/sse-client';
import { compareLogIds } from '@/lib/updates/log-ids';
import { eventKey } from '@/lib/events/recording';
import { idempotencyCacheKey } from '@/lib/idempotency/run-idempotent';
import { claimKey } from '@/lib/services/claims/claim-reward';
import { createTestApp, issueToken, userClient, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { createTcpRedisClient } from './clients';
import { createKv } from './index';
import { kvContract } from './kv.contract';

let cluster: RedisClusterProcess;
const clusterEnv = () => ({ REDIS_URL: cluster.url, REDIS_CLUSTER: 'true' });

function suite(): void {
  beforeAll(async () => {
    cluster = await startRedisCluster();
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
  });

  describe('KV contract', () => {
    kvContract(async () => {
      const kv = createKv(clusterEnv());
      expect(kv.kind).toBe('redis');
      return { kv, prefix: `test:kv:${randomUUID().slice(0, 8)}:`, teardown: () => kv.close() };
    });
  });

  describe('limiter contract (the identifier a hash tag: both windows in one slot)', () => {
    limiterContract(async () => {
      const handle = createTcpRedisClient(cluster.url, true);
      let n = 0;
      const prefix = `test:rl:${randomUUID().slice(0, 8)}:`;
      return {
        make: (limit, windowMs) => new UpstashLimiter({ redis: handle.client, limit, windowMs, prefix: `${prefix}${n++}`, cluster: true }),
        teardown: () => handle.close(),
      };
    });
  });

  describe('bus contract (sharded Pub/Sub)', () => {
    busContract(async () => {
      const bus = createBus(clusterEnv());
      expect(bus).toBeInstanceOf(RedisClusterBus);
      const peer = new RedisClusterBus(cluster.url);
      return { bus, peer, numsub: (channel) => cluster.shardNumsub(channel), teardown: async () => void (await Promise.all([bus.close(), peer.close()])) };
    });
  });

  describe('two instances, then a failover', () => {
    let a: Instance;
    let b: Instance;
    let app: TestApp;
    const streams: SseStream[] = [];

    beforeAll(async () => {
      [a, b] = await Promise.all([startInstance('cluster-A', clusterEnv()), startInstance('cluster-B', clusterEnv())]);
      app = await createTestApp(a, {
        campaigns: [],
        missions: [
          { id: 'hunt', title: 'Hunt', criteria: { eventName: 'boss_killed', count: 3 }, reward: { kind: 'currency', currency: 'gems', amount: 10 } },
          { id: 'veteran', title: 'Veteran', criteria: { eventName: 'boss_killed', count: 8 }, reward: { kind: 'currency', currency: 'gems', amount: 100 } },
        ],
      });
    }, 240_000);

    afterAll(async () => {
      await Promise.all(streams.map((s) => s.close()));
      await Promise.all([a?.close(), b?.close()]);
    });

    const open = async (server: TestServer, token: string, lastEventId?: string) => {
      const s = await openSse(`${server.url}/v1/sse/updates`, { Authorization: `Bearer ${token}`, ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}) });
      streams.push(s);
      expect(s.response.status).toBe(200);
      await s.waitFor((x) => x.raw.startsWith(': connected'), 'connected');
      return s;
    };

    /** Sends until answered 200: a request that met the failover (503, or a dropped connection) is sent again, the same key. */
    const until200 = async (send: () => Promise<Response>, what: string, onRetry = () => {}): Promise<Response> => {
      const deadline = Date.now() + 60_000;
      for (let attempt = 1; ; attempt++) {
        const res = await send().catch(() => null);
        if (res?.status === 200) return res;
        const text = res ? `${res.status} ${await res.text()}` : 'no answer';
        if (res && res.status !== 503) throw new Error(`${what}: ${text}`);
        if (Date.now() > deadline) throw new Error(`${what}: still ${text} after ${attempt} attempts`);
        onRetry();
        await new Promise((r) => setTimeout(r, 100));
      }
    };

    const idsIncrease = (s: SseStream) => {
      const ids = s.messages.map((m) => m.id);
      for (let i = 1; i < ids.length; i++) expect(compareLogIds(ids[i], ids[i - 1]), `${ids[i - 1]} before ${ids[i]}`).toBeGreaterThan(0);
    };

    const counts = async (appId: string) => {
      const db = await getDb();
      const one = async (table: string) => {
        const r = (await db.execute(sql`select count(*)::int as n from ${sql.identifier(table)} where app_id = ${appId}`)) as unknown as { rows: { n: number }[] };
        return Number(r.rows[0].n);
      };
      return { events: await one('events'), ledger: await one('ledger'), idempotencyKeys: await one('idempotency_keys') };
    };

    // Once skipped as a known defect: right after the failover a request answered 500. The KV's cluster client
    // auto-pipelined, and ioredis retries a batch's MOVED only when the whole batch failed alike; the MOVED of a
    // mixed batch reached the service as a reply error (lib/kv/clients.ts). Now every command follows MOVED on its
    // own, and what a failover still throws after the client's retries is answered 503 with Retry-After (lib/errors.ts).
    it("a player's events, claims with replays, a shared rate limit and a resumed stream; a master fails over: nothing lost or doubled", async () => {
      const userId = `p-${randomUUID().slice(0, 8)}`;
      const token = await issueToken(a, app, userId);
      const on = (s: TestServer) => userClient(s, token);
      const event = (s: TestServer, key: string, timestamp: number) => on(s).post('/v1/events', { userId, name: 'boss_killed', payload: {}, timestamp }, { 'Idempotency-Key': key });
      const sent: Array<{ key: string; timestamp: number; body: unknown }> = [];
      const claims: Array<{ key: string; mission: string; body: unknown }> = [];

      // The live stream on B; events alternate between A and B, each replayed on the other instance.
      const live = await open(b, token);
      for (let i = 0; i < 3; i++) {
        const key = `before-${i}`;
        const timestamp = Date.now();
        const res = await event(i % 2 ? b : a, key, timestamp);
        expect(res.status).toBe(200);
        const body = await res.json();
        const replay = await event(i % 2 ? a : b, key, timestamp);
        expect(replay.headers.get('x-idempotent-replay')).toBe('hit');
        expect(await replay.json()).toEqual(body);
        sent.push({ key, timestamp, body });
      }
      const claim = await on(a).post('/v1/missions/hunt/claim', undefined, { 'Idempotency-Key': 'claim-hunt' });
      expect(claim.status).toBe(200);
      const claimBody = await claim.json();
      const claimReplay = await on(b).post('/v1/missions/hunt/claim', undefined, { 'Idempotency-Key': 'claim-hunt' });
      expect(claimReplay.headers.get('x-idempotent-replay')).toBe('hit');
      expect(await claimReplay.json()).toEqual(claimBody);
      claims.push({ key: 'claim-hunt', mission: 'hunt', body: claimBody });
      await live.waitFor((s) => s.updates.some((u) => u.type === 'balance.changed'), 'the claim on the live stream');
      const progressOf = (s: SseStream, mission: string) =>
        s.updates.filter((u) => u.type === 'mission.progress' && u.data.missionId === mission).map((u) => [u.data.currentCount, u.data.status]);
      expect(progressOf(live, 'veteran')).toEqual([
        [1, 'active'],
        [2, 'active'],
        [3, 'active'],
      ]);

      // Resumed on A from the first message: the rest, in order, none twice.
      const rest = live.messages.slice(1).map((m) => m.id);
      const resumed = await open(a, token, live.messages[0].id);
      await resumed.waitForMessages(rest.length);
      expect(resumed.messages.slice(0, rest.length).map((m) => m.id)).toEqual(rest);

      // The event limit (100 a minute per token) is one count across both instances.
      const limitedToken = await issueToken(b, app, `${userId}-limited`);
      await awayFromWindowEdge(30_000);
      for (let i = 0; i < 100; i++) {
        const res = await userClient(i % 2 ? a : b, limitedToken).post('/v1/events', { userId: `${userId}-limited`, name: 'noise', payload: {}, timestamp: Date.now() });
        expect(res.status, `event ${i + 1}`).toBe(200);
        expect(res.headers.get('ratelimit-remaining')).toBe(String(99 - i));
      }
      const limited = await userClient(a, limitedToken).post('/v1/events', { userId: `${userId}-limited`, name: 'noise', payload: {}, timestamp: Date.now() });
      expect(limited.status).toBe(429);

      // The failover: the master of the player's slot (their log, order state and channel) stops.
      const appTag = `${encodeURIComponent(app.appId)}:${encodeURIComponent(userId)}`;
      const master = await cluster.masterOf(`updlog:{${appTag}}`);
      expect(await cluster.masterOf(`updates:{${appTag}}`)).toBe(master);
      const lastBefore = live.messages.at(-1)!.id;
      const stoppedAt = Date.now();
      let retries = 0;
      const stopped = cluster.stopNode(master);
      // The player goes on meanwhile: each event retried (same key) until answered.
      for (let i = 0; i < 5; i++) {
        const key = `during-${i}`;
        const timestamp = Date.now();
        const res = await until200(() => event(i % 2 ? a : b, key, timestamp), key, () => retries++);
        sent.push({ key, timestamp, body: await res.json() });
      }
      await stopped;
      await cluster.waitForFailover(master);
      const failoverMs = Date.now() - stoppedAt;
      expect(await cluster.masterOf(`updlog:{${appTag}}`)).not.toBe(master);
      const veteran = await until200(() => on(b).post('/v1/missions/veteran/claim', undefined, { 'Idempotency-Key': 'claim-veteran' }), 'claim-veteran');
      claims.push({ key: 'claim-veteran', mission: 'veteran', body: await veteran.json() });

      // The database before any replay: 8 events of the player and 100 of the limited one (no keys), two grants,
      // one key row per event and claim sent, whatever the failover did to the requests that met it.
      const expected = { events: 108, ledger: 2, idempotencyKeys: sent.length + claims.length };
      expect(sent.length + claims.length).toBe(10);
      expect(await counts(app.appId)).toEqual(expected);

      // Replication to a replica is asynchronous: a cached answer written to the old master just before it
      // stopped may be missing on the promoted replica. Such a loss, made certain here (every cached answer of
      // the player removed), leaves the database to answer: the first replay is a db-hit with the original
      // answer, the second (the other instance) a hit or a db-hit, and neither applies anything.
      // Seeded with a live node: the stopped master may be the one cluster.url names.
      const seed = cluster.nodes.find((n) => n.port !== master && n.child.exitCode === null && n.child.signalCode === null)!;
      const kv = createKv({ ...clusterEnv(), REDIS_URL: `redis://127.0.0.1:${seed.port}` });
      try {
        for (const e of sent) await kv.del(idempotencyCacheKey(app.appId, userId, eventKey(e.key)));
        for (const c of claims) await kv.del(idempotencyCacheKey(app.appId, userId, claimKey(c.key)));
      } finally {
        await kv.close();
      }
      for (const [s, replayed] of [
        [a, /^db-hit$/],
        [b, /^(hit|db-hit)$/],
      ] as const) {
        for (const e of sent) {
          const replay = await until200(() => event(s, e.key, e.timestamp), `replay ${e.key}`);
          expect(replay.headers.get('x-idempotent-replay'), `replay ${e.key}`).toMatch(replayed);
          expect(await replay.json()).toEqual(e.body);
        }
        for (const c of claims) {
          const replay = await until200(() => on(s).post(`/v1/missions/${c.mission}/claim`, undefined, { 'Idempotency-Key': c.key }), `replay ${c.key}`);
          expect(replay.headers.get('x-idempotent-replay'), `replay ${c.key}`).toMatch(replayed);
          expect(await replay.json()).toEqual(c.body);
        }
      }

      // Nothing lost, nothing doubled: the same rows after 20 replays.
      expect(await counts(app.appId)).toEqual(expected);
      // A read right after the failover may meet a 503 while the cluster settles, as the replays above may.
      const balance = await until200(() => on(a).get('/v1/balance?currency=gems'), 'balance after the failover');
      expect(((await balance.json()) as { balance: { amount: number } }).balance.amount).toBe(110);

      // The streams: the live one (open across the failover) and one resumed after it reach the veteran's
      // grant, in order, no id twice, each grant once. (Messages the failover lost were repaired from the
      // database: the states as they are now, so an intermediate count may be missing and a state sent again.)
      const grants = (s: SseStream, mission: string) => s.updates.filter((u) => u.type === 'reward.granted' && u.data.missionId === mission).length;
      await live.waitFor((s) => grants(s, 'veteran') > 0, 'the veteran grant on the stream open across the failover', 30_000);
      const after = await open(a, token, lastBefore);
      await after.waitFor((s) => grants(s, 'veteran') > 0, 'the veteran grant on a stream resumed after the failover', 30_000);
      for (const s of [live, resumed, after]) idsIncrease(s);
      expect([grants(live, 'hunt'), grants(live, 'veteran'), grants(after, 'hunt'), grants(after, 'veteran')]).toEqual([1, 1, 0, 1]);
      // What the resumed stream replays is what the live one got after the same id.
      const liveAfter = live.messages.filter((m) => compareLogIds(m.id, lastBefore) > 0).map((m) => m.id);
      await after.waitFor((s) => s.messages.length >= liveAfter.length, `${liveAfter.length} messages on the resumed stream`);
      expect(after.messages.map((m) => m.id).slice(0, liveAfter.length)).toEqual(liveAfter);
      // The veteran's last state on it is the completed count, whether its mission.completed went out before the
      // failover or the repair re-sent the state (see above): the stream ends where the database is.
      const veteranStates = after.updates.filter((u) => (u.type === 'mission.completed' || u.type === 'mission.progress') && u.data.missionId === 'veteran');
      expect(veteranStates.at(-1)?.data).toMatchObject({ currentCount: 8 });
      // What docs/operations/README.md ("Redis Cluster") quotes: how long the failover took, how many sends met it.
      console.log(`[redis-cluster] ${JSON.stringify({ failoverMs, retriedRequests: retries })}`);
    }, 240_000);
  });
}

if (!sharedStores) {
  describe.skip('Redis Cluster — skipped: needs DATABASE_URL and REDIS_URL (the PostgreSQL + Redis pass): two server processes share the database, and the embedded one belongs to one process', suite);
} else if (!redisClusterAvailable()) {
  if (process.env.CI) {
    describe('Redis Cluster', () => {
      it('needs redis-server and redis-cli 7 (CI is set, so this fails rather than skips)', () => {
        throw new Error('redis-server / redis-cli >= 7 not found on the PATH');
      });
    });
  } else {
    describe.skip('Redis Cluster — skipped: redis-server / redis-cli >= 7 not on the PATH', suite);
  }
} else {
  describe('Redis Cluster (3 masters, 3 replicas)', suite);
}
