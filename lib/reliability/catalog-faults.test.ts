// Catalog invalidation across instances while the bus is down: two service
// processes (scripts/serve.ts) on the machine's PostgreSQL and on a
// redis-server of the test's own, each through its own TCP proxy, so one
// instance can lose Redis while the other keeps it. Instance A edits the
// catalog; instance B must serve the edit once Redis is back for both
// (docs/operations/README.md, "Redis outages"). CATALOG_MAX_AGE_MS is set to 10
// minutes, so B's copy cannot simply expire during the test: only the
// handling can bring the edit to it. A's log tells its failed publishes in two
// lines (one when they start failing, with the cause; one when a publish works
// again, with the count), not one per retry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedStores, startInstance, type Instance } from '@/lib/testing/instance';
import { FaultProxy, REDIS_FAILURE_CAUSE, RedisProcess, spareRedisPort, waitUntil } from '@/lib/testing/faults';
import { createTestApp, issueToken, putCatalog, uniqueId, type TestApp } from '@/lib/testing/test-server';
import type { MissionInput } from '@/lib/contract/mission';

const mission = (title: string): MissionInput => ({ id: 'm', title, criteria: { eventName: 'play', count: 3 }, reward: { kind: 'currency', currency: 'gems', amount: 1 } });

function suite() {
  let redis: RedisProcess;
  let proxyA: FaultProxy;
  let proxyB: FaultProxy;
  let a: Instance;
  let b: Instance;
  let app: TestApp;
  let token: string;
  const figures: Record<string, number> = {};

  beforeAll(async () => {
    redis = new RedisProcess(await spareRedisPort());
    await redis.start();
    proxyA = await new FaultProxy({ host: '127.0.0.1', port: redis.port }).start();
    proxyB = await new FaultProxy({ host: '127.0.0.1', port: redis.port }).start();
    const common = { REDIS_COMMAND_TIMEOUT_MS: '1000', CATALOG_MAX_AGE_MS: '600000' };
    [a, b] = await Promise.all([
      startInstance('a', { ...common, REDIS_URL: `redis://127.0.0.1:${proxyA.port}` }),
      startInstance('b', { ...common, REDIS_URL: `redis://127.0.0.1:${proxyB.port}` }),
    ]);
    app = await createTestApp(a, { missions: [mission('v1')], campaigns: [] });
    token = await issueToken(b, app, uniqueId('reader'));
  });

  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await proxyA?.close();
    await proxyB?.close();
    await redis?.close();
    console.log(`[catalog-faults] ${JSON.stringify(figures)}`);
  });

  /** The mission's title as an instance serves it (from its in-memory catalog). */
  async function titleOn(instance: Instance): Promise<string> {
    const res = await fetch(`${instance.url}/v1/missions/m`, { headers: { Authorization: `Bearer ${token}` } });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`GET /v1/missions/m: ${res.status} ${text}`);
    return (JSON.parse(text) as { mission: { title: string } }).mission.title;
  }

  async function edit(title: string): Promise<void> {
    const res = await putCatalog(a, app.appId, { missions: [mission(title)], campaigns: [] });
    expect(res.status, await res.text()).toBe(200);
    expect(await titleOn(a)).toBe(title);
  }

  async function reaches(title: string, what: string): Promise<number> {
    const started = Date.now();
    await waitUntil(async () => (await titleOn(b)) === title, what, 60_000);
    return Date.now() - started;
  }

  /** A's failed bus publishes so far (its metrics: each retry of the invalidation is one). */
  async function failedPublishesOnA(): Promise<number> {
    const res = await fetch(`${a.url}/api/metrics`, { headers: { Authorization: `Bearer ${a.adminKey}` } });
    const head = 'questline_bus_errors_total{operation="publish"} ';
    const line = (await res.text()).split('\n').find((l) => l.startsWith(head));
    return line ? Number(line.slice(head.length)) : 0;
  }

  /** A's JSON log lines printed after `from` (an offset in its output) whose message starts with `start`. */
  function linesOnA(from: number, start: string): Array<Record<string, unknown>> {
    return a
      .output()
      .slice(from)
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => typeof l.message === 'string' && l.message.startsWith(start));
  }

  it('the editing instance lost Redis: its invalidation is published again once Redis answers; two log lines for the outage', async () => {
    const before = await titleOn(b); // B holds a copy
    const logFrom = a.output().length;
    const failedBefore = await failedPublishesOnA();
    proxyA.mode = 'refuse';
    proxyA.cut();
    await edit('v2');
    // Nothing reached B: it still serves its copy.
    expect(await titleOn(b)).toBe(before);
    // The publish and at least two retries (one a second) fail before Redis is back.
    await waitUntil(async () => (await failedPublishesOnA()) - failedBefore >= 3, 'A to retry the publish twice', 60_000);
    proxyA.mode = 'pass';
    figures.republishedMs = await reaches('v2', 'B to serve the edit made while A could not publish');

    const failed = (await failedPublishesOnA()) - failedBefore;
    figures.failedPublishes = failed;
    const began = linesOnA(logFrom, 'catalog invalidation publish failing');
    expect(began, 'one line when the publishes start failing').toHaveLength(1);
    expect(began[0]).toMatchObject({ level: 'error', appId: app.appId });
    expect(String(began[0].cause)).toMatch(REDIS_FAILURE_CAUSE);
    const ended = linesOnA(logFrom, 'catalog invalidation publish works again');
    expect(ended, 'one line when a publish works again').toHaveLength(1);
    expect(ended[0]).toMatchObject({ level: 'warn', failures: failed });
  }, 300_000);

  it('the other instance lost its subscription: it drops its copies once subscribed again', async () => {
    const before = await titleOn(b);
    proxyB.mode = 'refuse';
    proxyB.cut();
    // A publishes fine; B's subscriber connection is down, so the message is lost for B.
    await edit('v3');
    expect(await titleOn(b)).toBe(before);
    proxyB.mode = 'pass';
    figures.resubscribedMs = await reaches('v3', 'B to serve the edit published while it was not subscribed');
  }, 300_000);

  it('Redis killed, edited meanwhile, back empty: the other instance serves the edit', async () => {
    const before = await titleOn(b);
    await redis.stop();
    await edit('v4');
    expect(await titleOn(b)).toBe(before);
    await redis.start();
    figures.redisBackMs = await reaches('v4', 'B to serve the edit made while Redis was down');
  }, 300_000);
}

if (sharedStores) {
  describe('Catalog invalidation with the bus down (two instances, own redis-server behind TCP proxies, real PostgreSQL)', suite);
} else {
  describe.skip('Catalog faults — skipped: set DATABASE_URL and REDIS_URL (two instances need shared stores)', suite);
}
