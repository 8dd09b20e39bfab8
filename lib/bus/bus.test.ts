import { Redis as IORedis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpRedisClient } from '@/lib/kv/clients';
import { describeWithRedis, describeWithUpstash, redisReachable, testRedisUrl } from '@/lib/kv/testing';
import { busContract } from './bus.contract';
import { closeBus, createBus, getBus } from './index';
import { RedisBus } from './redis';
import { UpstashBus } from './upstash';

const redisUp = await redisReachable();

describe('Bus contract: memory', () => {
  busContract(async () => {
    const bus = createBus({});
    return { bus, teardown: () => bus.close() };
  });
});

describeWithRedis(`Bus contract: redis pub/sub (${testRedisUrl})`, redisUp, () => {
  busContract(async () => {
    const bus = createBus({ REDIS_URL: testRedisUrl });
    expect(bus).toBeInstanceOf(RedisBus);
    const peer = new RedisBus(testRedisUrl);
    const admin = new IORedis(testRedisUrl);
    return {
      bus,
      peer,
      numsub: async (channel) => {
        const reply = (await admin.call('PUBSUB', 'NUMSUB', channel)) as [string, number];
        return Number(reply[1]);
      },
      teardown: async () => {
        await Promise.all([bus.close(), peer.close(), admin.quit()]);
      },
    };
  });
});

describeWithUpstash('Bus contract: Upstash REST + SSE', () => {
  busContract(async () => {
    const env = process.env as Record<string, string>;
    const client = () => createHttpRedisClient(env.UPSTASH_REDIS_REST_URL, env.UPSTASH_REDIS_REST_TOKEN).client;
    const bus = new UpstashBus(client());
    const peer = new UpstashBus(client());
    return { bus, peer, teardown: async () => void (await Promise.all([bus.close(), peer.close()])) };
  });
});

describe('getBus', () => {
  afterEach(() => closeBus());

  it('is one lazily created instance until closeBus()', async () => {
    const a = getBus();
    expect(getBus()).toBe(a);
    await closeBus();
    expect(getBus()).not.toBe(a);
  });
});
