// Test helpers shared by the KV, rate-limit and bus suites (not a test file).
import { randomUUID } from 'node:crypto';
import { Redis as IORedis } from 'ioredis';
import { describe, it } from 'vitest';

export const testRedisUrl = process.env.REDIS_URL?.trim() || 'redis://127.0.0.1:6379';

/** A prefix unique to this test run so parallel runs never share keys. */
export const runPrefix = (area: string): string => `test:${area}:${randomUUID().slice(0, 8)}:`;

/** One quick connection attempt, no retries: is Redis there at all? */
export async function redisReachable(url = testRedisUrl): Promise<boolean> {
  const probe = new IORedis(url, {
    lazyConnect: true,
    connectTimeout: 1_000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  probe.on('error', () => {});
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/**
 * describe() for suites that need Redis. Skipped (with the reason in the
 * title) when Redis is down locally; in CI a missing Redis fails instead,
 * so CI can never pass without really exercising Redis.
 */
export function describeWithRedis(title: string, reachable: boolean, body: () => void): void {
  if (reachable) {
    describe(title, body);
  } else if (process.env.CI) {
    describe(title, () => {
      it('needs Redis (CI is set, so this fails rather than skips)', () => {
        throw new Error(`Redis is not reachable at ${testRedisUrl}; start it or set REDIS_URL`);
      });
    });
  } else {
    describe.skip(`${title} — skipped: no Redis at ${testRedisUrl} (set REDIS_URL; fails when CI is set)`, body);
  }
}

/** Upstash REST suites run only against a real database. */
export function describeWithUpstash(title: string, body: () => void): void {
  const configured = Boolean(process.env.UPSTASH_REDIS_REST_URL && process.env.UPSTASH_REDIS_REST_TOKEN);
  if (configured) describe(title, body);
  else describe.skip(`${title} — skipped: set UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN to run`, body);
}

/** Deletes every key under a prefix (SCAN, never KEYS, to stay polite). */
export async function deleteKeysWithPrefix(redis: IORedis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` holds; throws with `what` after the timeout. */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}
