import { Redis as IORedis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { backendFromEnv, closeKv, createKv, getKv, redisClientOf } from './index';
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

describeWithRedis('redis over TCP: plain commands on ioredis directly', redisUp, () => {
  it('answers get/mget/set/del/pttl/ping without an @upstash/redis request; the shared client still works', async () => {
    const kv = createKv({ REDIS_URL: testRedisUrl });
    const prefix = runPrefix('kv-direct');
    const client = redisClientOf(kv)!;
    // The requester under the @upstash/redis client (protected on the class): every command of that client passes here.
    const requester = (client as unknown as { client: { request: (...args: unknown[]) => unknown } }).client;
    const request = vi.spyOn(requester, 'request');
    try {
      expect(await kv.set(`${prefix}a`, '{"a":1}', { ttlMs: 60_000 })).toBe(true);
      expect(await kv.set(`${prefix}a`, 'other', { nx: true })).toBe(false);
      expect(await kv.mget([`${prefix}a`, `${prefix}b`])).toEqual(['{"a":1}', null]);
      expect(await kv.get(`${prefix}a`)).toBe('{"a":1}');
      expect(await kv.pttl(`${prefix}a`)).toBeGreaterThan(0);
      await kv.ping();
      await kv.del(`${prefix}a`);
      expect(request).not.toHaveBeenCalled();
      // The limiter and update log share the connection through that client.
      expect(await client.set(`${prefix}c`, 'v')).toBe('OK');
      expect(await kv.get(`${prefix}c`)).toBe('v');
      expect(request).toHaveBeenCalledTimes(1);
    } finally {
      request.mockRestore();
      await kv.del(`${prefix}c`);
      await kv.close();
    }
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
    expect(backendFromEnv({ REDIS_URL: 'redis://h:6379' })).toEqual({ kind: 'redis', url: 'redis://h:6379', cluster: false });
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
