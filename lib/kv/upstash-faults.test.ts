// The Upstash REST adapter under faults, over real HTTP: an Upstash-compatible
// shim (lib/testing/upstash-shim.ts) backed by a redis-server of the test's
// own, behind a TCP proxy that stalls or refuses. Like the TCP adapter, every
// command must fail within REDIS_COMMAND_TIMEOUT_MS as an unavailability
// (answered 503 by handlers, fail-open where docs/operations/README.md says so), the
// breaker must then fail further commands at once without touching the
// network for REDIS_BREAKER_MS, and the adapter must serve again once the
// endpoint is back, without a new client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUnavailableError } from '@/lib/errors';
import { FaultProxy, RedisProcess, spareRedisPort, waitUntil } from '@/lib/testing/faults';
import { advanceClockInProcess } from '@/lib/testing/rate-window';
import { startUpstashShim, type UpstashShim } from '@/lib/testing/upstash-shim';
import { breakerOpenings, isCircuitOpen } from './breaker';
import { createKv, type KV } from './index';

const redisServerAvailable = await import('node:child_process').then(
  ({ spawnSync }) => spawnSync('redis-server', ['--version']).status === 0,
);

const BREAKER_MS = '15000';

function suite() {
  let redis: RedisProcess;
  let shim: UpstashShim;
  let proxy: FaultProxy;
  let kv: KV;
  const saved = { timeout: process.env.REDIS_COMMAND_TIMEOUT_MS, breaker: process.env.REDIS_BREAKER_MS };

  beforeAll(async () => {
    redis = new RedisProcess(await spareRedisPort());
    await redis.start();
    shim = await startUpstashShim(redis.url);
    proxy = await new FaultProxy({ host: '127.0.0.1', port: shim.port }).start();
    // Room for a loaded machine on the passing requests; a stalled one still fails after it.
    process.env.REDIS_COMMAND_TIMEOUT_MS = '2000';
    // Long enough that the commands right after the failure surely fall inside it on a loaded machine
    // (5 s until 2026-11-24: a pause of the test process that long at load 20-30 would have let one
    // through). Recovery does not wait it out in real time: once the breaker is seen open, the test
    // moves this process's clock (which the breaker reads) past it (closeBreaker).
    process.env.REDIS_BREAKER_MS = BREAKER_MS;
    kv = createKv({ UPSTASH_REDIS_REST_URL: `http://127.0.0.1:${proxy.port}`, UPSTASH_REDIS_REST_TOKEN: shim.token });
    expect(kv.kind).toBe('upstash');
  }, 60_000);

  afterAll(async () => {
    process.env.REDIS_COMMAND_TIMEOUT_MS = saved.timeout;
    process.env.REDIS_BREAKER_MS = saved.breaker;
    if (saved.timeout === undefined) delete process.env.REDIS_COMMAND_TIMEOUT_MS;
    if (saved.breaker === undefined) delete process.env.REDIS_BREAKER_MS;
    await kv?.close();
    await proxy?.close();
    await shim?.close();
    await redis?.close();
  });

  async function failure(call: () => Promise<unknown>): Promise<unknown> {
    try {
      await call();
    } catch (err) {
      return err;
    }
    throw new Error('the command succeeded while the endpoint was down');
  }

  async function expectBreakerOpen(): Promise<void> {
    const before = shim.commands;
    const accepted = proxy.accepted;
    for (let i = 0; i < 5; i++) {
      const err = await failure(() => kv.get('k'));
      // The breaker's own failure: nothing went over the network.
      expect(isCircuitOpen(err)).toBe(true);
      expect(isUnavailableError(err)).toBe(true);
    }
    expect(shim.commands).toBe(before);
    expect(proxy.accepted).toBe(accepted);
  }

  /** The breaker's pause passed, on this process's clock: 15 s of real waiting per fault before. */
  function closeBreaker(): void {
    advanceClockInProcess(Number(BREAKER_MS));
  }

  async function recovered(): Promise<void> {
    await waitUntil(async () => (await kv.get('k').catch(() => false)) === 'v', 'the adapter serving again', 60_000);
  }

  it('serves through the shim', async () => {
    // The first requests also open the connections (the shim's to Redis too): retried until served.
    await waitUntil(async () => (await kv.set('k', 'v'), true), 'the first write through the shim', 60_000);
    await recovered();
    expect(shim.commands).toBeGreaterThanOrEqual(2);
  });

  it('a stalled endpoint: the command fails as unavailable (timeout), the breaker spares the next ones, and it recovers', async () => {
    const openings = breakerOpenings();
    proxy.mode = 'stall';
    const err = await failure(() => kv.get('k'));
    expect(isUnavailableError(err)).toBe(true);
    expect(isCircuitOpen(err)).toBe(false);
    expect(breakerOpenings()).toBe(openings + 1);
    await expectBreakerOpen();
    proxy.mode = 'pass';
    proxy.cut();
    closeBreaker();
    await recovered();
  }, 120_000);

  it('a refusing endpoint: unavailable, the breaker opens, and it recovers', async () => {
    const openings = breakerOpenings();
    proxy.mode = 'refuse';
    proxy.cut();
    const err = await failure(() => kv.set('x', '1'));
    expect(isUnavailableError(err)).toBe(true);
    expect(breakerOpenings()).toBe(openings + 1);
    await expectBreakerOpen();
    proxy.mode = 'pass';
    closeBreaker();
    await recovered();
  }, 120_000);
}

if (redisServerAvailable) {
  describe('Upstash REST adapter under faults (shim on a real redis-server, TCP proxy)', suite);
} else {
  describe.skip('Upstash REST adapter under faults — skipped: no redis-server binary', suite);
}
