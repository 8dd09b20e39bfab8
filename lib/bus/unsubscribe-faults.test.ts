// An UNSUBSCRIBE that fails must not leave the channel subscribed at Redis
// (lib/bus/redis.ts): a stream that closed while Redis was slow or away
// would otherwise keep its user's channel on the instance's subscriber
// connection for the life of the process. A redis-server of the test's own
// behind a TCP proxy; what Redis holds is read past the proxy (PUBSUB NUMSUB).
import { Redis as IORedis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedStores } from '@/lib/testing/instance';
import { REDIS_FAILURE_CAUSE, redisBehindProxy, waitUntil, type FaultProxy, type RedisProcess } from '@/lib/testing/faults';
import { RedisBus } from './redis';

/** The stalled UNSUBSCRIBE fails after it; as in the other fault suites, room for a loaded machine's stalls. */
const COMMAND_TIMEOUT_MS = 3_000;

function suite() {
  let redis: RedisProcess;
  let proxy: FaultProxy;
  /** Straight to the redis-server, past the proxy. */
  let direct: IORedis;
  let bus: RedisBus;
  const figures: Record<string, number> = {};

  beforeAll(async () => {
    ({ redis, proxy } = await redisBehindProxy({ commandTimeoutMs: COMMAND_TIMEOUT_MS }));
  });
  afterAll(async () => {
    await bus?.close();
    direct?.disconnect();
    await proxy?.close();
    await redis?.close();
    console.log(`[unsubscribe-faults] ${JSON.stringify(figures)}`);
  });

  async function subscribers(channel: string): Promise<number> {
    direct ??= new IORedis(redis.url, { maxRetriesPerRequest: 1 });
    const [, count] = (await direct.pubsub('NUMSUB', channel)) as [string, number | string];
    return Number(count);
  }

  /** The channel's listener here, and the messages it received. */
  async function listen(channel: string): Promise<{ got: string[]; unsubscribe: () => Promise<void> }> {
    const got: string[] = [];
    const unsubscribe = await bus.subscribe(channel, (m) => got.push(m));
    return { got, unsubscribe };
  }

  async function failedUnsubscribe(unsubscribe: () => Promise<void>): Promise<unknown> {
    const err = await unsubscribe().then(
      () => null,
      (e: unknown) => e,
    );
    expect(String(err)).toMatch(REDIS_FAILURE_CAUSE);
    return err;
  }

  it('Redis stalled: the UNSUBSCRIBE times out, is applied once Redis answers, and nothing stays subscribed', async () => {
    bus = new RedisBus(process.env.REDIS_URL!);
    const kept = await listen('stall:kept');
    const left = await listen('stall:left');
    expect(await subscribers('stall:left')).toBe(1);

    proxy.mode = 'stall';
    const started = Date.now();
    await failedUnsubscribe(left.unsubscribe);
    figures.stalledUnsubscribeMs = Date.now() - started;
    expect(bus.pendingUnsubscribes).toBe(1);
    proxy.mode = 'pass';

    await waitUntil(async () => (await subscribers('stall:left')) === 0 && bus.pendingUnsubscribes === 0, 'the channel to be unsubscribed', 30_000);
    expect(await subscribers('stall:kept')).toBe(1);
    await bus.publish('stall:kept', 'still here');
    await waitUntil(() => kept.got.includes('still here'), 'the kept channel to deliver');
    await bus.close();
  }, 120_000);

  it('Redis killed: ioredis gives up on the UNSUBSCRIBE and resubscribes the channel on reconnect; the bus unsubscribes it again, and leaves a channel taken up again alone', async () => {
    bus = new RedisBus(process.env.REDIS_URL!);
    const kept = await listen('killed:kept');
    const left = await listen('killed:left');
    const again = await listen('killed:again');

    await redis.stop();
    await failedUnsubscribe(left.unsubscribe);
    await failedUnsubscribe(again.unsubscribe);
    expect(bus.pendingUnsubscribes).toBe(2);
    const back = Date.now();
    await redis.start();
    // A listener for one of them arrives (before or after the retry: either way it must end subscribed).
    const returned = await waitUntil(() => listen('killed:again').catch(() => false as const), 'a new listener to subscribe', 30_000);

    // The kept channel is subscribed again (Redis came back empty), the left one is not.
    await waitUntil(
      async () => (await subscribers('killed:kept')) === 1 && (await subscribers('killed:left')) === 0 && bus.pendingUnsubscribes === 0,
      'the resubscribed left channel to be unsubscribed again',
      30_000,
    );
    figures.killedUnsubscribedAgainMs = Date.now() - back;
    expect(await subscribers('killed:again')).toBe(1);
    await bus.publish('killed:again', 'for the new listener');
    await bus.publish('killed:kept', 'for the kept one');
    await waitUntil(() => returned.got.includes('for the new listener') && kept.got.includes('for the kept one'), 'both channels to deliver');
    expect(again.got).toEqual([]);
    await bus.close();
  }, 120_000);
}

if (sharedStores) {
  describe('Bus unsubscribe with Redis stalled and killed (own redis-server behind a TCP proxy)', suite);
} else {
  describe.skip('Bus unsubscribe faults — skipped: set DATABASE_URL and REDIS_URL (the PostgreSQL + Redis pass starts its own redis-server)', suite);
}
