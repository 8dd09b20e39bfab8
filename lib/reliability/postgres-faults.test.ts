// PostgreSQL faults with real processes: the service (in this process, real
// HTTP) reaches the machine's PostgreSQL through a TCP proxy that refuses,
// cuts, stalls or slows connections; Redis is the environment's. Requests
// must answer 200 or 503 `unavailable` within a bound, nothing accepted may be
// lost or doubled (checked on the rows through a direct connection), and the
// service recovers without a restart (docs/engineering/reliability.md has the figures).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type pg from 'pg';
import { sharedStores } from '@/lib/testing/instance';
import { bounded, FaultProxy, waitUntil, type Answer } from '@/lib/testing/faults';
import { authHeaders as headers, keyedEvents, signedToken } from '@/lib/testing/fault-client';
import { checkInvariants, truthClient } from '@/lib/testing/invariants';
import { openSse } from '@/lib/testing/sse-client';
import type { TestApp, TestServer } from '@/lib/testing/test-server';

// The service's bound on a query while PostgreSQL is slow or stalled. It must stay well above a healthy
// query's time on a loaded 2-core machine (the slow phase adds 100 ms a round trip, and a starved event
// loop adds more): at 1.5 s a healthy query under load 20-30 could time out and turn an expected 200 into
// a 503. A stalled request answers 503 after it, so it is also what the stall phase costs.
const QUERY_TIMEOUT_MS = 4_000;

function suite() {
  let proxy: FaultProxy;
  let http: Server;
  let server: TestServer;
  let db: pg.Client;
  let app: TestApp;
  let testServer: typeof import('@/lib/testing/test-server');
  const { accepted, sendEvent, sendUntilAccepted } = keyedEvents(() => server.url);
  const figures: Record<string, unknown> = {};
  const tokenFor = (userId: string) => signedToken(app.appId, userId);

  async function expectInvariants(): Promise<void> {
    const report = await checkInvariants(db, app.appId, accepted);
    expect(report.violations).toEqual([]);
  }

  beforeAll(async () => {
    const direct = new URL(process.env.DATABASE_URL!);
    db = await truthClient(direct.toString());
    proxy = await new FaultProxy({ host: direct.hostname, port: Number(direct.port || 5432) }).start();
    const proxied = new URL(direct.toString());
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    process.env.DATABASE_URL = proxied.toString();
    process.env.DATABASE_QUERY_TIMEOUT_MS = String(QUERY_TIMEOUT_MS);
    process.env.DATABASE_CONNECT_TIMEOUT_MS = String(QUERY_TIMEOUT_MS);
    // A small pool: a connection leaked by a fault (never released) would soon leave none, and every request would 503.
    process.env.DATABASE_POOL_MAX = '4';
    process.env.SSE_KEEPALIVE_MS = '500';
    testServer = await import('@/lib/testing/test-server');
    testServer.prepareTestEnv();
    // Not startTestServer(): that boots first, and this server must start while PostgreSQL is down.
    const { createNodeServer } = await import('@/lib/http/node-server');
    http = createNodeServer();
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    server = { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, adminKey: process.env.ADMIN_API_KEY!, close: async () => undefined };
  });

  afterAll(async () => {
    const step = async (what: string, fn: () => Promise<unknown>) => {
      const t = Date.now();
      await fn();
      console.log(`[postgres-faults] afterAll ${what} ${Date.now() - t} ms`);
    };
    http?.closeAllConnections();
    await step('http', () => new Promise<void>((resolve) => (http ? http.close(() => resolve()) : resolve())));
    const [{ closeDb }, { closeKv }, bus] = await Promise.all([import('@/db/client'), import('@/lib/kv'), import('@/lib/bus')]);
    await step('bus', () => bus.closeBus());
    await step('kv', () => closeKv());
    await step('db', () => closeDb().catch(() => undefined));
    await step('proxy', () => proxy?.close());
    await step('truth', () => db?.end());
    console.log(`[postgres-faults] ${JSON.stringify(figures)}`);
  });

  it('PostgreSQL down at start: requests answer 503 unavailable, and the service starts by itself once it is back', async () => {
    proxy.mode = 'refuse';
    const down = await bounded(`${server.url}/v1/openapi.json`, {}, [503]);
    expect(down.body.error).toBe('unavailable');
    const admin = await bounded(`${server.url}/api/admin/apps`, { headers: { Authorization: `Bearer ${server.adminKey}` } }, [503]);
    expect(admin.body.error).toBe('unavailable');
    figures.downAtStartAnswerMs = Math.max(down.ms, admin.ms);
    const backAt = Date.now();
    proxy.mode = 'pass';
    await waitUntil(async () => (await bounded(`${server.url}/v1/openapi.json`)).status === 200, 'the service up');
    figures.startRecoveryMs = Date.now() - backAt;
    app = await testServer.createTestApp(server, {
      missions: [
        { id: 'five', title: 'Five plays', criteria: { eventName: 'play', count: 5 }, reward: { kind: 'currency', currency: 'gems', amount: 10 } },
        { id: 'many', title: 'Many plays', criteria: { eventName: 'play', count: 1000 }, reward: { kind: 'currency', currency: 'gems', amount: 1 } },
      ],
      campaigns: [],
    });
  }, 180_000);

  it('connections cut mid-run and refused for a while: every event accepted once, one grant per claim, the stream resumes', async () => {
    const users = await Promise.all(
      [0, 1, 2].map(async (i) => {
        const userId = testServer.uniqueId(`cut-${i}`);
        return { userId, token: await tokenFor(userId) };
      }),
    );
    const streamUrl = `${server.url}/v1/sse/updates?access_token=${encodeURIComponent(users[0].token)}`;
    const stream = await openSse(streamUrl);
    expect(stream.response.status).toBe(200);

    const perUser = 20;
    const answers: number[] = [];
    let cutAt = 0;
    let cut = 0;
    const fault = (async () => {
      // Cut once traffic is flowing, refuse new connections for a while, then let them through.
      await waitUntil(() => answers.length >= 10, 'traffic flowing');
      proxy.mode = 'refuse';
      cut = proxy.cut();
      cutAt = Date.now();
      await waitUntil(() => answers.length >= 25 || Date.now() - cutAt > 3_000, 'requests during the outage');
      proxy.mode = 'pass';
    })();
    await Promise.all(
      users.map(async ({ userId, token }) => {
        for (let i = 0; i < perUser; i++) answers.push((await sendEvent(token, userId, `${userId}-e${i}`)).status);
      }),
    );
    await fault;
    const claimAnswers = await Promise.all(
      users.map(({ token }) => bounded(`${server.url}/v1/missions/five/claim`, { method: 'POST', headers: headers(token, 'claim-five') }, [200, 409, 503])),
    );
    figures.cut = { connectionsCut: cut, sent: answers.length, acceptedFirstTry: answers.filter((s) => s === 200).length, unavailable: answers.filter((s) => s === 503).length };

    // Clients retry with the same keys until accepted.
    const backAt = Date.now();
    for (const { userId, token } of users) for (let i = 0; i < perUser; i++) await sendUntilAccepted(token, userId, `${userId}-e${i}`);
    figures.cutRecoveryMs = Date.now() - backAt;
    for (const [i, { token }] of users.entries()) {
      await waitUntil(async () => {
        const again = await bounded(`${server.url}/v1/missions/five/claim`, { method: 'POST', headers: headers(token, 'claim-five') }, [200, 503]);
        return again.status === 200;
      }, `claim of user ${i}`);
    }
    figures.claimsDuringFault = claimAnswers.map((a) => a.status);

    for (const { userId } of users) {
      const stored = await db.query<{ n: string }>('select count(*)::text as n from events where app_id = $1 and user_id = $2', [app.appId, userId]);
      expect(Number(stored.rows[0].n)).toBe(perUser);
      const grants = await db.query<{ n: string }>(`select count(*)::text as n from ledger where app_id = $1 and user_id = $2 and mission_id = 'five'`, [app.appId, userId]);
      expect(Number(grants.rows[0].n)).toBe(1);
    }
    await expectInvariants();

    // The open stream kept going (it needs no database between messages); its last message for
    // 'many' matches the stored row, and a resume from its last id adds nothing out of order.
    const [row] = (
      await db.query<{ current_count: number }>(`select current_count from progress where app_id = $1 and user_id = $2 and mission_id = 'many'`, [
        app.appId,
        users[0].userId,
      ])
    ).rows;
    expect(row.current_count).toBe(perUser);
    await stream.waitFor(
      (s) => s.updates.filter((u) => u.data.missionId === 'many').at(-1)?.data.currentCount === perUser,
      `the stream's last 'many' message at ${perUser}`,
      30_000,
    );
    const lastId = stream.messages.at(-1)!.id;
    await stream.close();
    const resumed = await openSse(streamUrl, { 'Last-Event-ID': lastId });
    expect(resumed.response.status).toBe(200);
    await sendUntilAccepted(users[0].token, users[0].userId, 'after-resume');
    await resumed.waitFor((s) => s.updates.some((u) => u.data.missionId === 'many' && u.data.currentCount === perUser + 1), 'the message after resume', 30_000);
    const ids = [...stream.messages.map((m) => m.id), ...resumed.messages.map((m) => m.id)];
    expect(new Set(ids).size).toBe(ids.length);
    await resumed.close();
  }, 300_000);

  // A restart as PostgreSQL does it, without restarting the shared server: a
  // fast shutdown ends every backend with FATAL 57P01 ("terminating connection
  // due to administrator command", sent to the client, unlike a cut), then
  // nothing is accepted until it is up again. Here: pg_terminate_backend on
  // exactly the backends behind this test's proxy (the same message), with
  // the proxy refusing new connections meanwhile.
  it('PostgreSQL restarting (every backend of the service ended with FATAL 57P01, new connections refused): 503 not 500, every key stored once', async () => {
    const userId = testServer.uniqueId('restart');
    const token = await tokenFor(userId);
    await sendUntilAccepted(token, userId, 'restart-before');
    // Slow queries, so the shutdown lands on queries in flight as well as on idle connections.
    proxy.delayMs = 200;
    // The events table locked against writes (reads go on): the events' write statements wait in PostgreSQL,
    // so the 57P01 is certain to end a query in flight, not only idle pool connections.
    await db.query('begin');
    let ended: pg.QueryResult;
    const answers: Answer[] = [];
    let inFlight: Promise<unknown> = Promise.resolve();
    try {
      await db.query('lock table events in exclusive mode');
      inFlight = Promise.all([0, 1, 2, 3, 4, 5].map(async (i) => answers.push(await sendEvent(token, userId, `restart-${i}`))));
      await waitUntil(async () => {
        // Inside a transaction pg_stat_activity is a snapshot taken at its first read: a fresh one each time.
        await db.query('select pg_stat_clear_snapshot()');
        const r = await db.query<{ n: string }>(
          `select count(*)::text as n from pg_stat_activity where datname = current_database() and client_port = any($1::int[]) and state = 'active' and wait_event_type = 'Lock'`,
          [proxy.upstreamPorts()],
        );
        return Number(r.rows[0].n) > 0;
      }, 'a query of the service in flight (waiting on the lock)');
      proxy.mode = 'refuse';
      await db.query('select pg_stat_clear_snapshot()'); // every backend now, also those opened since the last look
      ended = await db.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and client_port = any($1::int[])`, [
        proxy.upstreamPorts(),
      ]);
    } finally {
      await db.query('rollback');
    }
    // A connection that was still starting when the backends were ended (authenticated only after the look
    // at pg_stat_activity, its bytes held back by the proxy's delay) survived it, and once served the next
    // request (soak: 200 instead of 503). A restart ends it too: end each such backend as it shows up, until
    // the proxy holds no connection to PostgreSQL (new ones are refused).
    await waitUntil(async () => {
      if (proxy.openConnections === 0) return true;
      await db.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and client_port = any($1::int[])`, [proxy.upstreamPorts()]);
      return false;
    }, 'every connection of the service to PostgreSQL ended', 30_000);
    await inFlight;
    // Still restarting: refused.
    const during = await sendEvent(token, userId, 'restart-during');
    expect(during.status).toBe(503);
    proxy.delayMs = 0;
    proxy.mode = 'pass';
    const backAt = Date.now();
    for (let i = 0; i < 6; i++) await sendUntilAccepted(token, userId, `restart-${i}`);
    await sendUntilAccepted(token, userId, 'restart-during');
    figures.restart = {
      backendsEnded: ended.rowCount,
      answers: answers.map((a) => a.status),
      recoveryMs: Date.now() - backAt,
    };
    expect(ended.rowCount).toBeGreaterThan(0);
    const stored = await db.query<{ n: string }>('select count(*)::text as n from events where app_id = $1 and user_id = $2', [app.appId, userId]);
    expect(Number(stored.rows[0].n)).toBe(8);
    await expectInvariants();
  }, 300_000);

  it('PostgreSQL stalled (no answer) then slow: 503 within the bound while stalled, served when slow, recovered after', async () => {
    const userId = testServer.uniqueId('stall');
    const token = await tokenFor(userId);
    await sendUntilAccepted(token, userId, 'before');
    proxy.mode = 'stall';
    const stalled: Answer[] = [];
    for (let i = 0; i < 3; i++) stalled.push(await sendEvent(token, userId, `stall-${i}`));
    const balance = await bounded(`${server.url}/v1/balance`, { headers: headers(token) });
    stalled.push(balance);
    expect(stalled.map((a) => a.status)).toEqual([503, 503, 503, 503]);
    figures.stalledAnswerMs = Math.max(...stalled.map((a) => a.ms));

    proxy.mode = 'pass';
    proxy.delayMs = 50;
    const backAt = Date.now();
    await sendUntilAccepted(token, userId, 'slow-0');
    figures.stallRecoveryMs = Date.now() - backAt;
    const slow: Answer[] = [];
    for (let i = 1; i < 4; i++) slow.push(await sendEvent(token, userId, `slow-${i}`));
    expect(slow.map((a) => a.status)).toEqual([200, 200, 200]);
    figures.slowEventMs = Math.max(...slow.map((a) => a.ms));
    proxy.delayMs = 0;
    for (let i = 0; i < 3; i++) await sendUntilAccepted(token, userId, `stall-${i}`);
    const stored = await db.query<{ n: string }>('select count(*)::text as n from events where app_id = $1 and user_id = $2', [app.appId, userId]);
    expect(Number(stored.rows[0].n)).toBe(8);
    await expectInvariants();
  }, 300_000);
}

if (sharedStores) {
  describe('PostgreSQL faults (the machine’s PostgreSQL behind a TCP proxy)', suite);
} else {
  describe.skip('PostgreSQL faults — skipped: set DATABASE_URL and REDIS_URL (the embedded database has no connection to cut)', suite);
}
