import { Redis as IORedis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { backendFromEnv, closeKv, createKv, getKv } from './index';
import { kvContract } from './kv.contract';
import { MemoryKv } from './memory';
import {
  deleteKeysWithPrefix,
  describeWithRedis,
  describeWithUpstash,
  redisReachable,
  runPrefix,
  waitFor,
  testRedisUrl,
} from './testing';

const redisUp = await redisReachable();

describe('KV contract: memory', () => {
  kvContract(async () => {
    const kv = createKv({});
    return { kv, prefix: runPrefix('kv'), teardown: () => kv.close() };
  });
});

describeWithRedis(`KV contract: redis over TCP (${testRedisUrl})`, redisUp, () => {
  kvContract(async () => {
    const kv = createKv({ REDIS_URL: testRedisUrl });
    expect(kv.kind).toBe('redis');
    const prefix = runPrefix('kv');
    return {
      kv,
      prefix,
      teardown: async () => {
        const admin = new IORedis(testRedisUrl);
        await deleteKeysWithPrefix(admin, prefix);
        await admin.quit();
        await kv.close();
      },
    };
  });
});

describeWithUpstash('KV contract: Upstash over HTTP', () => {
  kvContract(async () => {
    const kv = createKv(process.env);
    expect(kv.kind).toBe('upstash');
    const prefix = runPrefix('kv');
    return { kv, prefix, teardown: () => kv.close() };
  });
});

describe('MemoryKv housekeeping', () => {
  it('sweeps expired keys nobody reads', async () => {
    const kv = new MemoryKv({ sweepIntervalMs: 20 });
    for (let i = 0; i < 50; i++) await kv.set(`k${i}`, 'v', { ttlMs: 10 });
    await kv.set('keep', 'v');
    expect(kv.size).toBe(51);
    // No read touches them: only the 20 ms sweep can drop them (however late a loaded machine runs it).
    await waitFor(() => kv.size === 1, 'the sweep to drop the 50 expired keys');
    await kv.close();
  });
});

describe('backend selection', () => {
  it('picks memory, redis or upstash from the environment', () => {
    expect(backendFromEnv({})).toEqual({ kind: 'memory' });
    expect(backendFromEnv({ REDIS_URL: 'redis://h:6379' })).toEqual({ kind: 'redis', url: 'redis://h:6379' });
    expect(backendFromEnv({ UPSTASH_REDIS_REST_URL: 'https://x.upstash.io', UPSTASH_REDIS_REST_TOKEN: 't' })).toEqual({
      kind: 'upstash',
      url: 'https://x.upstash.io',
      token: 't',
    });
  });

  it('builds an Upstash HTTP KV without touching the network', async () => {
    const kv = createKv({ UPSTASH_REDIS_REST_URL: 'https://example.upstash.io', UPSTASH_REDIS_REST_TOKEN: 't' });
    expect(kv.kind).toBe('upstash');
    await kv.close();
  });

  it('prefers REDIS_URL when both are set', () => {
    const env = { REDIS_URL: 'rediss://h:6380', UPSTASH_REDIS_REST_URL: 'https://x', UPSTASH_REDIS_REST_TOKEN: 't' };
    expect(backendFromEnv(env).kind).toBe('redis');
  });

  it('refuses a malformed or half-set configuration instead of falling back to memory', () => {
    expect(() => backendFromEnv({ REDIS_URL: 'http://h' })).toThrow(/REDIS_URL/);
    expect(() => backendFromEnv({ UPSTASH_REDIS_REST_URL: 'https://x' })).toThrow(/UPSTASH_REDIS_REST_TOKEN/);
    expect(() => backendFromEnv({ UPSTASH_REDIS_REST_TOKEN: 't' })).toThrow(/UPSTASH_REDIS_REST_URL/);
  });
});

describe('getKv', () => {
  afterEach(() => closeKv());

  it('is one lazily created instance until closeKv()', async () => {
    const saved = { r: process.env.REDIS_URL, u: process.env.UPSTASH_REDIS_REST_URL, t: process.env.UPSTASH_REDIS_REST_TOKEN };
    delete process.env.REDIS_URL;
    delete process.env.UPSTASH_REDIS_REST_URL;
    delete process.env.UPSTASH_REDIS_REST_TOKEN;
    try {
      const a = getKv();
      expect(getKv()).toBe(a);
      expect(a.kind).toBe('memory');
      await a.set('k', 'v');
      await closeKv();
      const b = getKv();
      expect(b).not.toBe(a);
      expect(await b.get('k')).toBeNull();
    } finally {
      if (saved.r !== undefined) process.env.REDIS_URL = saved.r;
      if (saved.u !== undefined) process.env.UPSTASH_REDIS_REST_URL = saved.u;
      if (saved.t !== undefined) process.env.UPSTASH_REDIS_REST_TOKEN = saved.t;
    }
  });
});
