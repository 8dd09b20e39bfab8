// Regression: many SUBSCRIBEs on a fresh RedisBus, while its subscriber
// connection is still in its handshake, must all succeed (see handshakeDone
// in lib/bus/redis.ts), and share one wait for the handshake instead of
// adding a listener pair each (Node warns past 10: MaxListenersExceededWarning).
import { expect, it } from 'vitest';
import { RedisBus } from './redis';
import { describeWithRedis, redisReachable, runPrefix, testRedisUrl } from '@/lib/kv/testing';

const reachable = await redisReachable();

/** Three rounds of 50 first subscriptions on a fresh bus, 49 of them sent during the connection's handshake. */
async function burst(): Promise<void> {
  for (let round = 0; round < 3; round++) {
    const bus = new RedisBus(testRedisUrl);
    const prefix = runPrefix('handshake');
    try {
      // The first subscribe opens the connection; the burst goes out while it is in its handshake.
      const first = bus.subscribe(`${prefix}0`, () => {});
      const sub = () => (bus as unknown as { sub?: { status: string; listenerCount(event: string): number } }).sub;
      for (let spins = 0; sub()?.status !== 'connect' && spins < 10_000; spins++) await new Promise((r) => setImmediate(r));
      expect(sub()?.status).toBe('connect');
      const rest = Array.from({ length: 49 }, (_, i) => bus.subscribe(`${prefix}${i + 1}`, () => {}));
      expect(sub()!.listenerCount('ready')).toBeLessThan(5);
      const results = await Promise.allSettled([first, ...rest]);
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    } finally {
      await bus.close();
    }
  }
}

describeWithRedis('RedisBus subscribing during the connection handshake', reachable, () => {
  it('50 concurrent first subscriptions all resolve, sharing one wait for the handshake (no MaxListenersExceededWarning)', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      await burst();
      // Warnings are emitted on the next tick.
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).toEqual([]);
  });
});
