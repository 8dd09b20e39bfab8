import { randomUUID } from 'node:crypto';
import { Redis as IORedis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { closeKv } from '@/lib/kv';
import { createHttpRedisClient, createTcpRedisClient, type RedisClientHandle } from '@/lib/kv/clients';
import {
  deleteKeysWithPrefix,
  describeWithRedis,
  describeWithUpstash,
  redisReachable,
  runPrefix,
  testRedisUrl,
} from '@/lib/kv/testing';
import { createLimiter } from './index';
import { limiterContract } from './limiter.contract';
import { MemoryLimiter } from './memory';
import { UpstashLimiter } from './upstash';

const redisUp = await redisReachable();

describe('Limiter contract: memory', () => {
  limiterContract(async () => ({
    make: (limit, windowMs) => new MemoryLimiter({ limit, windowMs }),
    teardown: async () => {},
  }));
});

/** Limiters on one @upstash/redis client, each under its own prefix. */
function upstashHarness(handle: RedisClientHandle, prefix: string, cleanup: () => Promise<void>) {
  let n = 0;
  return {
    make: (limit: number, windowMs: number) =>
      new UpstashLimiter({ redis: handle.client, limit, windowMs, prefix: `${prefix}${n++}` }),
    teardown: async () => {
      await cleanup();
      await handle.close();
    },
  };
}

describeWithRedis(`Limiter contract: @upstash/ratelimit over TCP Redis (${testRedisUrl})`, redisUp, () => {
  limiterContract(async () => {
    const prefix = runPrefix('rl');
    return upstashHarness(createTcpRedisClient(testRedisUrl), prefix, async () => {
      const admin = new IORedis(testRedisUrl);
      await deleteKeysWithPrefix(admin, prefix);
      await admin.quit();
    });
  });
});

describeWithUpstash('Limiter contract: @upstash/ratelimit over Upstash HTTP', () => {
  limiterContract(async () => {
    const env = process.env as Record<string, string>;
    // Keys expire on their own (PEXPIRE of 2 windows + 1 s).
    return upstashHarness(createHttpRedisClient(env.UPSTASH_REDIS_REST_URL, env.UPSTASH_REDIS_REST_TOKEN), runPrefix('rl'), async () => {});
  });
});

/** Runs `body` with the KV env set as given, restoring the process env after. */
async function withEnv(env: Record<string, string | undefined>, body: () => Promise<void>): Promise<void> {
  const names = ['REDIS_URL', 'UPSTASH_REDIS_REST_URL', 'UPSTASH_REDIS_REST_TOKEN'];
  const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
  for (const n of names) {
    if (env[n] === undefined) delete process.env[n];
    else process.env[n] = env[n];
  }
  await closeKv();
  try {
    await body();
  } finally {
    await closeKv();
    for (const n of names) {
      if (saved[n] === undefined) delete process.env[n];
      else process.env[n] = saved[n];
    }
  }
}

describe('createLimiter', () => {
  const name = () => `test-${randomUUID().slice(0, 8)}`;

  it('shares one set of counts per name, in memory when no store is configured', async () => {
    await withEnv({}, async () => {
      const n = name();
      await createLimiter({ name: n, limit: 2, windowMs: 60_000 }).consume('u');
      await createLimiter({ name: n, limit: 2, windowMs: 60_000 }).consume('u');
      expect((await createLimiter({ name: n, limit: 2, windowMs: 60_000 }).consume('u')).success).toBe(false);
      expect((await createLimiter({ name: name(), limit: 2, windowMs: 60_000 }).consume('u')).success).toBe(true);
    });
  });

  it('refuses the same name with different limits, and bad arguments', async () => {
    await withEnv({}, async () => {
      const n = name();
      await createLimiter({ name: n, limit: 2, windowMs: 60_000 }).peek('u');
      await expect(createLimiter({ name: n, limit: 3, windowMs: 60_000 }).peek('u')).rejects.toThrow(/different limits/);
      expect(() => createLimiter({ name: 'x', limit: 0, windowMs: 1_000 })).toThrow(RangeError);
      expect(() => createLimiter({ name: 'a b', limit: 1, windowMs: 1_000 })).toThrow(/name/);
    });
  });

  describeWithRedis('with REDIS_URL', redisUp, () => {
    const admin = new IORedis(testRedisUrl, { lazyConnect: true });
    afterAll(() => admin.quit());

    it('counts in Redis under rl:<name>', async () => {
      const n = name();
      await withEnv({ REDIS_URL: testRedisUrl }, async () => {
        const r = await createLimiter({ name: n, limit: 3, windowMs: 60_000 }).consume('user-1');
        expect(r).toMatchObject({ success: true, remaining: 2, limit: 3 });
        const keys = await admin.keys(`rl:${n}:*`);
        expect(keys).toHaveLength(1);
        expect(keys[0]).toMatch(new RegExp(`^rl:${n}:user-1:\\d+$`));
      });
      await deleteKeysWithPrefix(admin, `rl:${n}:`);
    });
  });
});
