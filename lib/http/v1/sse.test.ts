// GET /v1/sse/updates over real HTTP (the plain Node server, in this process):
// wire format, auth, fan-out, replays, resume and clean-up. Runs on the
// embedded default, or on PostgreSQL + Redis when DATABASE_URL/REDIS_URL are set.
import { once } from 'node:events';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { SignJWT } from 'jose';
import { Redis as IORedis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FALLBACK_REASON } from '@/lib/recommendations/recommend';
import {
  createTestApp,
  issueToken,
  startTestServer,
  uniqueId,
  userClient,
  type TestApp,
  type TestServer,
} from '@/lib/testing/test-server';
import { openSse, type SseStream } from '@/lib/testing/sse-client';
import type { CatalogInput } from '@/lib/testing/types';
import { getUpdateLog, userLogKey, type UpdateLog } from '@/lib/updates/log';
import { userChannel } from '@/lib/updates/publish';
import { openStreamCount, sseLimits } from './sse';

const KEEPALIVE_MS = 150;
const catalog: CatalogInput = {
  missions: [
    { id: 'win-two', title: 'Win two', criteria: { eventName: 'match_won', count: 2 }, reward: { kind: 'currency', currency: 'gems', amount: 25 } },
    { id: 'play-many', title: 'Play many', criteria: { eventName: 'match_played', count: 1000 }, reward: { kind: 'currency', currency: 'gems', amount: 1 } },
  ],
};

let server: TestServer;
let app: TestApp;
let redis: IORedis | null = null;
const streams: SseStream[] = [];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  process.env.SSE_KEEPALIVE_MS = String(KEEPALIVE_MS);
  process.env.OPENAI_API_KEY = '';
  server = await startTestServer();
  app = await createTestApp(server, catalog);
  if (process.env.REDIS_URL) redis = new IORedis(process.env.REDIS_URL);
});

afterAll(async () => {
  await Promise.all(streams.map((s) => s.close()));
  redis?.disconnect();
  await server?.close();
});

async function newUser(prefix = 'u') {
  const userId = uniqueId(prefix);
  const token = await issueToken(server, app, userId);
  return { userId, token, api: userClient(server, token) };
}

async function open(token: string | null, opts: { query?: boolean; lastEventId?: string; lastEventIdQuery?: string } = {}): Promise<SseStream> {
  const params = new URLSearchParams();
  if (token && opts.query) params.set('access_token', token);
  if (opts.lastEventIdQuery !== undefined) params.set('lastEventId', opts.lastEventIdQuery);
  const headers: Record<string, string> = {};
  if (token && !opts.query) headers.Authorization = `Bearer ${token}`;
  if (opts.lastEventId !== undefined) headers['Last-Event-ID'] = opts.lastEventId;
  const qs = params.toString();
  const s = await openSse(`${server.url}/v1/sse/updates${qs ? `?${qs}` : ''}`, headers);
  streams.push(s);
  if (s.response.status === 200) await s.waitFor((x) => x.raw.startsWith(': connected\n\n'), 'the connected comment');
  return s;
}

async function postEvent(
  user: { userId: string; api: ReturnType<typeof userClient> },
  name = 'match_won',
  headers: Record<string, string> = {},
  timestamp = Date.now(),
) {
  const res = await user.api.post('/v1/events', { userId: user.userId, name, payload: {}, timestamp }, headers);
  expect(res.status).toBe(200);
  return res;
}

/** Every message frame must be exactly `id: <id>\ndata: <json>` (no event: line). */
function expectWellFormed(s: SseStream) {
  for (const m of s.messages) expect(m.raw).toMatch(/^id: \d+-\d+\ndata: \{[^\n]*\}$/);
  for (const f of s.frames) if (f.data === undefined) expect(f.raw).toMatch(/^: (connected|keep-alive)$/);
  expect(s.raw).not.toMatch(/^event:/m);
}

async function subscriberCount(channel: string): Promise<number> {
  if (redis) {
    const [, n] = (await redis.pubsub('NUMSUB', channel)) as [string, number];
    return Number(n);
  }
  const { getBus } = await import('@/lib/bus');
  const bus = getBus() as unknown as { channels?: Map<string, Set<unknown>> };
  return bus.channels?.get(channel)?.size ?? 0;
}

async function waitUntil(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

const keepAlives = (s: SseStream) => s.frames.filter((f) => f.comment === 'keep-alive').length;

// "Nothing more arrived" is proven by evidence, not by a pause: a marker sent
// after everything awaited, whose message comes after everything the server
// sent the stream before it (a user's stream is ordered by its log's ids, and
// a later change of the user is published after the earlier ones). Waiting
// for the marker therefore waits for any duplicate or stray message too,
// however slow the machine.

/** The marker's message: the user's first `match_won` is win-two's progress (the tests that use it post no other `match_won`). */
const isMarker = (u: { data: Record<string, unknown> }) => u.data.missionId === 'win-two';

/** Posts the marker event (a `match_won`) for the user. */
async function postMarker(user: { userId: string; api: ReturnType<typeof userClient> }) {
  await postEvent(user, 'match_won');
}

/** Waits for the marker's message; answers what came before it, and checks that nothing came after it. */
async function beforeMarker(s: SseStream) {
  await s.waitFor((x) => x.updates.some(isMarker), 'the marker message');
  const at = s.updates.findIndex(isMarker);
  expect(s.messages, 'nothing after the marker').toHaveLength(at + 1);
  return { messages: s.messages.slice(0, at), updates: s.updates.slice(0, at), marker: s.messages[at] };
}

/** Appends a marker message straight to the user's log and channel (the keep-alive tests' messages are appended so too); answers its id and data. */
async function appendMarker(userId: string): Promise<{ id: string; data: string }> {
  const data = JSON.stringify({ type: 'balance.changed', data: { userId, currency: 'marker', amount: 0, updatedAt: Date.now() } });
  const [id] = await getUpdateLog().appendAndPublish(userLogKey(app.appId, userId), userChannel(app.appId, userId), [data]);
  return { id, data };
}

/**
 * Counts the shared update log's reads of one key (a stream's replay, and each
 * keep-alive tick's catch-up read) as they settle, until restored. The stream
 * sends what a read found in the same event-loop turn as the read settles, so
 * once a test sees a read settled, whatever it made the server send is written
 * to the stream ahead of anything published afterwards (such as a marker).
 */
function watchReads(key: string) {
  const log = getUpdateLog();
  const original = log.readAfter;
  let started = 0;
  const settled: number[] = [];
  log.readAfter = function (this: UpdateLog, k, after) {
    const read = original.call(this, k, after);
    if (k === key) {
      const n = ++started;
      void read.then(
        () => settled.push(n),
        () => settled.push(n),
      );
    }
    return read;
  };
  return {
    /** Reads started so far: a mark for settledSince. */
    started: () => started,
    /** Reads started after `mark` that have settled. */
    settledSince: (mark: number) => settled.filter((n) => n > mark).length,
    restore: () => {
      log.readAfter = original;
    },
  };
}

/** Makes the shared update log's reads of one key slow or never settle, until restored; counts the reads so held. */
function stallReads(key: string, delayMs: number | 'forever'): { restore: () => void; stalled: () => number } {
  const log = getUpdateLog();
  const original = log.readAfter;
  let stalled = 0;
  log.readAfter = function (this: UpdateLog, k, after) {
    if (k !== key) return original.call(this, k, after);
    stalled++;
    if (delayMs === 'forever') return new Promise(() => undefined);
    return sleep(delayMs).then(() => original.call(this, k, after));
  };
  return {
    restore: () => {
      log.readAfter = original;
    },
    stalled: () => stalled,
  };
}

describe('GET /v1/sse/updates', () => {
  it('answers the SSE headers and a connected comment', async () => {
    const u = await newUser();
    const s = await open(u.token);
    expect(s.response.status).toBe(200);
    expect(s.response.headers.get('content-type')).toBe('text/event-stream');
    expect(s.response.headers.get('cache-control')).toMatch(/^no-cache(, no-transform)?$/);
    expect(s.response.headers.get('connection')).toBe('keep-alive');
    expect(s.response.headers.get('x-accel-buffering')).toBe('no');
    expect(s.response.headers.get('x-request-id')).toBeTruthy();
    expect(s.response.headers.get('access-control-allow-origin')).toBe('*');
    await s.close();
  });

  it('puts each message type produced today on the wire as exactly `id: <id>\\ndata: <json>\\n\\n`', async () => {
    const u = await newUser();
    const s = await open(u.token);

    await postEvent(u); // 1 of 2: mission.progress
    await s.waitForMessages(1);
    await postEvent(u); // 2 of 2: mission.completed
    await s.waitForMessages(2);
    const claim = await u.api.post('/v1/missions/win-two/claim');
    expect(claim.status).toBe(200);
    // The claim's reward and balance, then the recommendations it refreshed in the background.
    await s.waitForMessages(5);

    const [p, c, , b] = s.updates;
    const progress = { type: 'mission.progress', data: { userId: u.userId, missionId: 'win-two', status: 'active', progress: 0.5, currentCount: 1, targetCount: 2, updatedAt: p.data.updatedAt } };
    const completed = { type: 'mission.completed', data: { userId: u.userId, missionId: 'win-two', status: 'completed', progress: 1, currentCount: 2, targetCount: 2, updatedAt: c.data.updatedAt } };
    const reward = { type: 'reward.granted', data: { userId: u.userId, missionId: 'win-two', reward: { kind: 'currency', currency: 'gems', amount: 25 } } };
    const balance = { type: 'balance.changed', data: { userId: u.userId, currency: 'gems', amount: 25, updatedAt: b.data.updatedAt } };
    // No model in this process (OPENAI_API_KEY unset): the fallback; "win-two" is claimed, so only "play-many" is left.
    const recommendation = { type: 'recommendation', data: { userId: u.userId, missionIds: ['play-many'], reason: FALLBACK_REASON } };
    expect(typeof p.data.updatedAt).toBe('number');
    expect(typeof b.data.updatedAt).toBe('number');
    // Parsed content: the spec's {type, data} (key order inside data is not part of the contract).
    expect(s.messages.map((m) => JSON.parse(m.data))).toEqual([progress, completed, reward, balance, recommendation]);
    // The exact bytes: `id: <id>\ndata: <one-line JSON>\n\n` per message, in order, nothing but comments in between.
    for (const m of s.messages) expect(m.data).toMatch(/^\{"type":"[a-z.]+","data":\{[^\n]*\}\}$/);
    const withoutComments = s.raw.replace(/^: [a-z-]+\n\n/gm, '');
    expect(withoutComments).toBe(s.messages.map((m) => `id: ${m.id}\ndata: ${m.data}\n\n`).join(''));
    expectWellFormed(s);
    const ids = s.messages.map((m) => m.id);
    expect(new Set(ids).size).toBe(5);
    await s.close();
  });

  it('sends `: keep-alive` comment frames on the configured interval', async () => {
    const u = await newUser();
    const s = await open(u.token);
    await s.waitFor((x) => x.frames.filter((f) => f.comment === 'keep-alive').length >= 2, 'two keep-alive frames');
    expect(s.raw).toContain(': keep-alive\n\n');
    expectWellFormed(s);
    await s.close();
  });

  it('accepts the token in the access_token query parameter as well as the Authorization header', async () => {
    const u = await newUser();
    const viaHeader = await open(u.token);
    const viaQuery = await open(u.token, { query: true });
    expect(viaQuery.response.status).toBe(200);
    await postEvent(u);
    await Promise.all([viaHeader.waitForMessages(1), viaQuery.waitForMessages(1)]);
    expect(viaQuery.messages[0].raw).toBe(viaHeader.messages[0].raw);
    await Promise.all([viaHeader.close(), viaQuery.close()]);
  });

  describe('401 in the error shape', () => {
    async function expect401(s: SseStream) {
      expect(s.response.status).toBe(401);
      expect(s.response.headers.get('content-type')).toMatch(/application\/json/);
      const body = (await s.response.json()) as { error: string; message?: string };
      expect(body.error).toBe('unauthorized');
      expect(Object.keys(body).every((k) => k === 'error' || k === 'message')).toBe(true);
    }

    it('without a token', async () => {
      await expect401(await open(null));
    });

    it('with a malformed or wrongly signed token (header or query)', async () => {
      await expect401(await open('not-a-jwt'));
      await expect401(await open('not-a-jwt', { query: true }));
      const forged = await new SignJWT({ app: app.appId })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('someone')
        .setJti('x')
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode('another-secret-that-is-long-enough-0123456789'));
      await expect401(await open(forged));
    });

    it('with an expired token', async () => {
      const expired = await new SignJWT({ app: app.appId, iat_ms: Date.now() - 7_200_000 })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject('someone')
        .setJti(crypto.randomUUID())
        .setIssuedAt(Math.floor(Date.now() / 1000) - 7_200)
        .setExpirationTime(Math.floor(Date.now() / 1000) - 3_600)
        .sign(new TextEncoder().encode(process.env.JWT_SECRET!));
      await expect401(await open(expired));
      await expect401(await open(expired, { query: true }));
    });

    it('with a revoked token', async () => {
      const u = await newUser();
      const revoke = await u.api.post('/v1/auth/revoke');
      expect(revoke.status).toBe(200);
      await expect401(await open(u.token));
      await expect401(await open(u.token, { query: true }));
    });
  });

  it("delivers an update exactly once to each of a user's streams, and never to another user's", async () => {
    const a = await newUser('a');
    const b = await newUser('b');
    const a1 = await open(a.token);
    const a2 = await open(a.token, { query: true });
    const other = await open(b.token);
    await postEvent(a, 'match_played');
    await Promise.all([a1.waitForMessages(1), a2.waitForMessages(1)]);
    // Markers for both users: a duplicate on a's streams, or a's message on b's, would have come before them.
    await postMarker(a);
    await postMarker(b);
    const [seen1, seen2, seenOther] = await Promise.all([beforeMarker(a1), beforeMarker(a2), beforeMarker(other)]);
    expect(seen1.messages).toHaveLength(1);
    expect(seen2.messages).toHaveLength(1);
    expect(a1.messages[0].raw).toBe(a2.messages[0].raw);
    expect(a1.updates[0]).toMatchObject({ type: 'mission.progress', data: { userId: a.userId, missionId: 'play-many', currentCount: 1 } });
    expect(seenOther.messages).toHaveLength(0);
    await Promise.all([a1.close(), a2.close(), other.close()]);
  });

  it('publishes nothing for a replayed event (same Idempotency-Key)', async () => {
    const u = await newUser();
    const s = await open(u.token);
    const key = uniqueId('key');
    const sentAt = Date.now();
    const first = await postEvent(u, 'match_played', { 'Idempotency-Key': key }, sentAt);
    expect(first.headers.get('x-idempotent-replay')).toBeNull();
    await s.waitForMessages(1);
    const replay = await postEvent(u, 'match_played', { 'Idempotency-Key': key }, sentAt);
    expect(replay.headers.get('x-idempotent-replay')).toBe('hit');
    expect(await replay.json()).toEqual(await first.json());
    // A later, different event (the marker) arrives; the replay produced nothing before it.
    await postMarker(u);
    const { updates } = await beforeMarker(s);
    expect(updates.map((m) => [m.data.missionId, m.data.currentCount])).toEqual([['play-many', 1]]);
    await s.close();
  });

  describe('resume', () => {
    async function userWithHistory(n: number) {
      const u = await newUser();
      const s = await open(u.token);
      for (let i = 0; i < n; i++) await postEvent(u, 'match_played');
      await s.waitForMessages(n);
      await s.close();
      return { u, seen: s.messages };
    }

    it('with the Last-Event-ID header: exactly the missed messages, in order, then live', async () => {
      const { u, seen } = await userWithHistory(5);
      const s = await open(u.token, { lastEventId: seen[1].id });
      await s.waitForMessages(3);
      expect(s.messages.map((m) => m.raw)).toEqual(seen.slice(2).map((m) => m.raw));
      await postEvent(u, 'match_played');
      await s.waitForMessages(4);
      await postMarker(u);
      const { updates } = await beforeMarker(s);
      expect(updates.map((m) => m.data.currentCount)).toEqual([3, 4, 5, 6]);
      expectWellFormed(s);
      await s.close();
    });

    it('with the lastEventId query parameter (and the token in the query, as EventSource would)', async () => {
      const { u, seen } = await userWithHistory(3);
      const s = await open(u.token, { query: true, lastEventIdQuery: seen[0].id });
      await s.waitForMessages(2);
      await postMarker(u);
      const { messages } = await beforeMarker(s);
      expect(messages.map((m) => m.raw)).toEqual(seen.slice(1).map((m) => m.raw));
      await s.close();
    });

    it('from the newest id: nothing replayed, live messages follow', async () => {
      const { u, seen } = await userWithHistory(2);
      const s = await open(u.token, { lastEventId: seen[1].id });
      // The live message comes after anything replayed: nothing may come before it.
      await postEvent(u, 'match_played');
      await s.waitFor((x) => x.updates.some((m) => m.data.currentCount === 3), 'the live message');
      expect(s.messages).toHaveLength(1);
      expect(s.updates[0].data.currentCount).toBe(3);
      await s.close();
    });

    it('an unknown id (malformed, or from the future) replays everything the log still holds', async () => {
      const { u, seen } = await userWithHistory(3);
      const resumed: SseStream[] = [];
      for (const id of ['garbage', `${Date.now() + 3_600_000}-0`, '0-0']) {
        const s = await open(u.token, { lastEventId: id });
        await s.waitForMessages(3);
        resumed.push(s);
      }
      await postMarker(u);
      for (const s of resumed) {
        const { messages } = await beforeMarker(s);
        expect(messages.map((m) => m.raw)).toEqual(seen.map((m) => m.raw));
      }
      await Promise.all(resumed.map((s) => s.close()));
    });

    it('without Last-Event-ID nothing is replayed', async () => {
      const { u } = await userWithHistory(2);
      const s = await open(u.token);
      await postMarker(u);
      const { messages } = await beforeMarker(s);
      expect(messages).toHaveLength(0);
      await s.close();
    });

    it('an empty Last-Event-ID header counts as absent: nothing replayed, or the lastEventId query parameter applies', async () => {
      const { u, seen } = await userWithHistory(3);
      const empty = await open(u.token, { lastEventId: '' });
      const emptyWithQuery = await open(u.token, { lastEventId: '', lastEventIdQuery: seen[0].id });
      await emptyWithQuery.waitForMessages(2);
      await postMarker(u);
      const [withQuery, none] = await Promise.all([beforeMarker(emptyWithQuery), beforeMarker(empty)]);
      expect(withQuery.messages.map((m) => m.raw)).toEqual(seen.slice(1).map((m) => m.raw));
      expect(none.messages).toHaveLength(0);
      await Promise.all([empty.close(), emptyWithQuery.close()]);
    });

    it('no duplicate and no gap across the replay/live boundary while events keep coming', async () => {
      const u = await newUser();
      const witness = await open(u.token);
      const total = 40;
      let posted = 0;
      const poster = (async () => {
        // Three requests in flight at a time.
        const lanes = Array.from({ length: 3 }, async () => {
          while (posted < total) {
            posted += 1;
            await postEvent(u, 'match_played');
          }
        });
        await Promise.all(lanes);
      })();
      await witness.waitForMessages(5);
      const resumeAfter = witness.messages[4].id;
      const resumed: SseStream[] = [];
      // Reconnect several times while events are being written.
      for (let i = 0; i < 4; i++) resumed.push(await open(u.token, { lastEventId: resumeAfter }));
      await poster;
      await witness.waitForMessages(total);
      await postMarker(u);
      const seen = await beforeMarker(witness);
      const expected = seen.messages.slice(5).map((m) => m.raw);
      for (const s of resumed) {
        const { messages } = await beforeMarker(s);
        expect(messages.map((m) => m.raw)).toEqual(expected);
      }
      // Ids increase strictly and counts run 1..total without a hole.
      expect(seen.updates.map((m) => m.data.currentCount)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
      await Promise.all([witness.close(), ...resumed.map((s) => s.close())]);
    });
  });

  it('releases the bus subscription and the stream when the client disconnects', async () => {
    const { openStreamCount } = await import('./sse');
    const u = await newUser();
    const channel = userChannel(app.appId, u.userId);
    const before = openStreamCount();
    const s1 = await open(u.token);
    const s2 = await open(u.token, { query: true });
    expect(await subscriberCount(channel)).toBe(redis ? 1 : 2); // Redis: one broker subscription shared by both; memory: two listeners
    expect(openStreamCount()).toBe(before + 2);
    await s1.close();
    await s2.close();
    const deadline = Date.now() + 30_000;
    while ((await subscriberCount(channel)) > 0 || openStreamCount() > before) {
      if (Date.now() > deadline) break;
      await sleep(10);
    }
    expect(await subscriberCount(channel)).toBe(0);
    expect(openStreamCount()).toBe(before);
  });
});

describe('GET /v1/sse/updates: keep-alive tick', () => {
  it('delivers a message the pub/sub lost, from the log, within one keep-alive interval, and only once', async () => {
    const user = await newUser();
    const s = await open(user.token);
    await postEvent(user, 'match_played');
    await s.waitForMessages(1);
    const key = userLogKey(app.appId, user.userId);
    const reads = watchReads(key);
    try {
      // Appended to the user's log but published where no stream listens: a lost pub/sub message.
      const lost = JSON.stringify({ type: 'balance.changed', data: { userId: user.userId, currency: 'gems', amount: 7, updatedAt: Date.now() } });
      const [id] = await getUpdateLog().appendAndPublish(key, 'updates:nobody-listens', [lost]);
      await s.waitForMessages(2);
      expect(s.messages[1]).toMatchObject({ id, data: lost });
      // Two more keep-alive ticks' catch-up reads have seen it in the log; then a marker, which any resend precedes.
      const mark = reads.started();
      await waitUntil(() => reads.settledSince(mark) >= 2, 'two more catch-up reads');
      const marker = await appendMarker(user.userId);
      await s.waitFor((x) => x.messages.some((m) => m.id === marker.id), 'the marker');
      expect(s.messages.map((m) => m.id)).toEqual([s.messages[0].id, id, marker.id]);
    } finally {
      reads.restore();
    }
  });

  it('closes an open stream once its token is revoked', async () => {
    const user = await newUser();
    const s = await open(user.token);
    expect((await user.api.post('/v1/auth/revoke')).status).toBe(200);
    await s.waitFor((x) => x.ended, 'the stream to end');
  });

  it('catches up a stream that has sent nothing yet (no Last-Event-ID), without replaying older history', async () => {
    const user = await newUser();
    const first = await open(user.token);
    await postEvent(user, 'match_played');
    await first.waitForMessages(1);
    await first.close();
    const key = userLogKey(app.appId, user.userId);
    const reads = watchReads(key);
    try {
      const s = await open(user.token);
      // Two keep-alive ticks' catch-up reads, neither of which may replay the older message (it would come before `lost` below).
      let mark = reads.started();
      await waitUntil(() => reads.settledSince(mark) >= 2, 'two catch-up reads');
      expect(s.messages).toHaveLength(0);
      const lost = JSON.stringify({ type: 'balance.changed', data: { userId: user.userId, currency: 'gems', amount: 3, updatedAt: Date.now() } });
      const [id] = await getUpdateLog().appendAndPublish(key, 'updates:nobody', [lost]);
      // Delivered by a keep-alive tick's catch-up read (no timed bound: the machine may be loaded).
      await s.waitForMessages(1);
      // Two more catch-up reads, then a marker: a resend of `lost` would come before it.
      mark = reads.started();
      await waitUntil(() => reads.settledSince(mark) >= 2, 'two more catch-up reads');
      const marker = await appendMarker(user.userId);
      await s.waitFor((x) => x.messages.some((m) => m.id === marker.id), 'the marker');
      expect(s.messages.map((m) => ({ id: m.id, data: m.data }))).toEqual([{ id, data: lost }, marker]);
      await s.close();
    } finally {
      reads.restore();
    }
  });

  it('keeps sending keep-alives while a catch-up log read hangs', async () => {
    const user = await newUser();
    const s = await open(user.token);
    await postEvent(user, 'match_played');
    await s.waitForMessages(1);
    const { restore } = stallReads(userLogKey(app.appId, user.userId), 'forever');
    try {
      const seen = keepAlives(s);
      // The next tick's catch-up read hangs (until its 5 s timeout); keep-alives must go on meanwhile.
      await s.waitFor((x) => keepAlives(x) >= seen + 3, 'keep-alives while a log read hangs');
      await s.close();
    } finally {
      restore();
    }
  });

  it('a resume whose replay read fails holds live messages until a read works: the logged ones come first, none skipped', async () => {
    const user = await newUser();
    const first = await open(user.token);
    for (let i = 0; i < 3; i++) await postEvent(user, 'match_played');
    await first.waitForMessages(3);
    const logged = first.messages.map((m) => m.id);
    await first.close();
    const savedTimeout = sseLimits.logReadTimeoutMs;
    sseLimits.logReadTimeoutMs = 300;
    const { restore } = stallReads(userLogKey(app.appId, user.userId), 'forever');
    let s: SseStream;
    try {
      // Resumes after the first message: the replay's read times out, the stream opens all the same.
      s = await open(user.token, { lastEventId: logged[0] });
      // A live message while the log cannot be read (its pub/sub delivery is done within two keep-alives).
      await postEvent(user, 'match_played');
      const seen = keepAlives(s);
      await s.waitFor((x) => keepAlives(x) >= seen + 2, 'keep-alives while reads fail');
      // Sent now, it would have become the stream's place, and the two logged messages after logged[0] lost.
      expect(s.messages).toHaveLength(0);
    } finally {
      restore();
      sseLimits.logReadTimeoutMs = savedTimeout;
    }
    await s.waitForMessages(3);
    expect(s.messages.slice(0, 2).map((m) => m.id)).toEqual(logged.slice(1));
    expect(s.updates.map((u) => u.data.currentCount)).toEqual([2, 3, 4]);
    await s.close();
  });

  it('a log read that never settles times out: held-back live messages are released, keep-alives continue', async () => {
    const user = await newUser();
    const s = await open(user.token);
    await postEvent(user, 'match_played');
    await s.waitForMessages(1);
    const savedTimeout = sseLimits.logReadTimeoutMs;
    sseLimits.logReadTimeoutMs = 300;
    const { restore, stalled } = stallReads(userLogKey(app.appId, user.userId), 'forever');
    try {
      // A keep-alive tick's catch-up read is now hanging: live messages are held back.
      await waitUntil(() => stalled() >= 1, 'a catch-up read to hang');
      const seenKeepAlives = keepAlives(s);
      await postEvent(user, 'match_played');
      await s.waitForMessages(2);
      expect(s.updates[1].data.currentCount).toBe(2);
      await s.waitFor((x) => keepAlives(x) >= seenKeepAlives + 2, 'keep-alives while reads hang');
      await s.close();
    } finally {
      restore();
      sseLimits.logReadTimeoutMs = savedTimeout;
    }
  });
});

describe('GET /v1/sse/updates: connections', () => {
  /** A raw HTTP/1.1 client on its own socket (fetch hides what the connection does). */
  async function rawConnect(port: number): Promise<Socket> {
    const sock = connect(port, '127.0.0.1');
    await once(sock, 'connect');
    return sock;
  }

  it('HEAD answers the SSE headers and ends at once, leaving no subscription and a usable connection', async () => {
    const u = await newUser();
    const before = openStreamCount();
    const res = await fetch(`${server.url}/v1/sse/updates`, { method: 'HEAD', headers: { Authorization: `Bearer ${u.token}` }, signal: AbortSignal.timeout(30_000) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('cache-control')).toMatch(/^no-cache/);
    expect(await res.text()).toBe('');
    await waitUntil(async () => (await subscriberCount(userChannel(app.appId, u.userId))) === 0 && openStreamCount() === before, 'the stream to be released');

    // The same connection answers the next request (it was left waiting for a body that never ended).
    const port = Number(new URL(server.url).port);
    const sock = await rawConnect(port);
    let received = '';
    sock.on('data', (d: Buffer) => (received += d.toString('latin1')));
    const host = `127.0.0.1:${port}`;
    sock.write(`HEAD /v1/sse/updates HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${u.token}\r\n\r\n`);
    sock.write(`GET /v1/no-such-route HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    try {
      await waitUntil(() => (received.match(/^HTTP\/1\.1 \d{3}/gm) ?? []).length >= 2, 'two responses on one connection');
      expect(received).toMatch(/^HTTP\/1\.1 200/);
      expect(received).toMatch(/\r\nHTTP\/1\.1 404/);
    } finally {
      sock.destroy();
    }
    await waitUntil(() => openStreamCount() === before, 'no stream left open');
  });

  it('errors the stream of a client that stops reading and frees its socket', async () => {
    const { createNodeServer } = await import('@/lib/http/node-server');
    const srv = createNodeServer();
    await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
    const { port } = srv.address() as AddressInfo;
    const connections = () => new Promise<number>((resolve, reject) => srv.getConnections((err, n) => (err ? reject(err) : resolve(n))));
    const savedMax = sseLimits.maxQueuedChunks;
    sseLimits.maxQueuedChunks = 4;
    const user = await newUser();
    const key = userLogKey(app.appId, user.userId);
    const channel = userChannel(app.appId, user.userId);
    const before = openStreamCount();
    const sock = await rawConnect(port);
    try {
      // Never read: no 'data' listener, so the socket stops reading once its buffer is full.
      sock.pause();
      sock.write(`GET /v1/sse/updates HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${user.token}\r\n\r\n`);
      await waitUntil(() => openStreamCount() === before + 1, 'the stream to open');
      expect(await connections()).toBe(1);
      // Large messages until the kernel buffers are full and chunks queue up behind them.
      const big = JSON.stringify({ type: 'balance.changed', data: { userId: user.userId, currency: 'gems', amount: 1, updatedAt: Date.now(), pad: 'x'.repeat(256 * 1024) } });
      for (let i = 0; i < 40 && (await connections()) > 0; i++) {
        await getUpdateLog().appendAndPublish(key, channel, [big, big, big, big]);
        await sleep(30); // paces the loop (not an assertion): the next batch once the last had time to fill buffers
      }
      await waitUntil(async () => (await connections()) === 0, 'the server to drop the connection');
      expect(openStreamCount()).toBe(before);
      await waitUntil(async () => (await subscriberCount(channel)) === 0, 'the subscription to be released');
    } finally {
      sseLimits.maxQueuedChunks = savedMax;
      sock.destroy();
      srv.closeAllConnections();
      await new Promise<void>((resolve) => srv.close(() => resolve()));
      await redis?.del(key);
    }
  });
});
