// After the subscriber connection drops and comes back, the listeners of
// onResubscribed hear of it before any message that came through the new
// connection is dispatched (lib/bus/redis.ts). A stream reads the update log
// on that news; a later message delivered first would become its place (ids
// only go up), and the messages it missed would never be sent. The window is
// the time between the SUBSCRIBE that ioredis sends again on reconnecting and
// the answer to the bus's PING that follows it: the test publishes a message
// exactly there (its own redis-server, restarted).
import { Redis as IORedis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedStores } from '@/lib/testing/instance';
import { redisBehindProxy, waitUntil, type FaultProxy, type RedisProcess } from '@/lib/testing/faults';
import { RedisBus } from './redis';

function suite() {
  let redis: RedisProcess;
  let proxy: FaultProxy;
  let direct: IORedis | undefined;
  let bus: RedisBus | undefined;

  beforeAll(async () => {
    ({ redis, proxy } = await redisBehindProxy({ commandTimeoutMs: 3_000 }));
  });
  afterAll(async () => {
    await bus?.close();
    direct?.disconnect();
    await proxy?.close();
    await redis?.close();
  });

  it('a message that arrives between the resubscribe and the news waits until the listeners have heard of it', async () => {
    bus = new RedisBus(process.env.REDIS_URL!);
    const heard: string[] = [];
    bus.onResubscribed(() => heard.push('resubscribed'));
    await bus.subscribe('gap:channel', (m) => heard.push(m));
    // Straight to the redis-server, past the proxy.
    direct = new IORedis(redis.url, { maxRetriesPerRequest: 1 });
    direct.on('error', () => undefined); // refused while the server restarts; commands are retried below
    await direct.publish('gap:channel', 'before the drop');
    await waitUntil(() => heard.includes('before the drop'), 'the message before the drop', 30_000);

    // The bus's PING after a reconnect (its subscriber connection's, a private detail) is held until the
    // channel is subscribed again on the restarted Redis and a message was published to it: that message
    // reaches the connection before the PING's answer.
    const sub = (bus as unknown as { sub: IORedis }).sub;
    const ping = sub.ping.bind(sub);
    let published = false;
    sub.ping = (async () => {
      // Once: a second drop (not expected) is not this test's window.
      if (published) return ping();
      await waitUntil(async () => Number(((await direct!.pubsub('NUMSUB', 'gap:channel')) as [string, number])[1]) === 1, 'the channel subscribed again', 30_000);
      await direct!.publish('gap:channel', 'after the resubscribe');
      published = true;
      return ping();
    }) as typeof sub.ping;

    await redis.stop();
    await redis.start();
    await waitUntil(() => heard.includes('resubscribed') && heard.includes('after the resubscribe'), 'the news and the message', 60_000);
    expect(published).toBe(true);
    expect(heard).toEqual(['before the drop', 'resubscribed', 'after the resubscribe']);
  }, 120_000);
}

if (sharedStores) {
  describe('Bus resubscribe after a drop (own redis-server behind a TCP proxy)', suite);
} else {
  describe.skip('Bus resubscribe faults — skipped: set DATABASE_URL and REDIS_URL (the PostgreSQL + Redis pass starts its own redis-server)', suite);
}
