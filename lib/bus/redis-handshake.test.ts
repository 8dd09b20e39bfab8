// Regression: many SUBSCRIBEs on a fresh RedisBus, while its subscriber
// connection is still in its handshake, must all succeed (see handshakeDone
// in lib/bus/redis.ts).
import { expect, it } from 'vitest';
import { RedisBus } from './redis';
import { describeWithRedis, redisReachable, runPrefix, testRedisUrl } from '@/lib/kv/testing';

const reachable = await redisReachable();
describeWithRedis('RedisBus subscribing during the connection handshake', reachable, () => {
  it('50 concurrent first subscriptions all resolve', async () => {
    for (let round = 0; round < 3; round++) {
      const bus = new RedisBus(testRedisUrl);
      const prefix = runPrefix('handshake');
      try {
        // The first subscribe opens the connection; the burst goes out while it is in its handshake.
        const first = bus.subscribe(`${prefix}0`, () => {});
        const sub = () => (bus as unknown as { sub?: { status: string } }).sub;
        for (let spins = 0; sub()?.status !== 'connect' && spins < 10_000; spins++) await new Promise((r) => setImmediate(r));
        expect(sub()?.status).toBe('connect');
        const rest = Array.from({ length: 49 }, (_, i) => bus.subscribe(`${prefix}${i + 1}`, () => {}));
        const results = await Promise.allSettled([first, ...rest]);
        expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      } finally {
        await bus.close();
      }
    }
  });
});
