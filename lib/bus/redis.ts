// Redis pub/sub over TCP. Per process: one publishing connection and one
// subscriber connection shared by every channel (a connection in subscribe
// mode can run nothing else, hence two).
import type { Redis as IORedis } from 'ioredis';
import { throughBreaker } from '@/lib/kv/breaker';
import { connectIORedis } from '@/lib/kv/clients';
import { Fanout } from './fanout';
import type { Bus, Unsubscribe } from './types';

/**
 * Delivery is at most once: a message published while the subscriber
 * connection is down is lost. ioredis reconnects by itself and, with
 * autoResubscribe (its default), subscribes again to every open channel.
 */
export class RedisBus implements Bus {
  readonly kind = 'redis' as const;
  private pub?: IORedis;
  private sub?: IORedis;
  private closed = false;
  private readonly resubscribed = new Set<() => void>();
  private readonly fanout = new Fanout({
    // ioredis resolves SUBSCRIBE / UNSUBSCRIBE once Redis has replied.
    open: async (channel) => {
      const sub = this.subscriber();
      await handshakeDone(sub);
      await throughBreaker(() => sub.subscribe(channel));
    },
    shut: async (channel) => {
      await this.subscriber().unsubscribe(channel);
    },
  });

  constructor(private readonly url: string) {}

  async publish(channel: string, message: string): Promise<void> {
    this.assertOpen();
    const pub = (this.pub ??= connectIORedis(this.url, 'bus-pub'));
    await throughBreaker(() => pub.publish(channel, message));
  }

  subscribe(channel: string, onMessage: (message: string) => void): Promise<Unsubscribe> {
    this.assertOpen();
    return this.fanout.subscribe(channel, onMessage);
  }

  onResubscribed(listener: () => void): () => void {
    this.resubscribed.add(listener);
    return () => void this.resubscribed.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.resubscribed.clear();
    this.fanout.clear();
    const connections = [this.pub, this.sub].filter((c): c is IORedis => c !== undefined);
    this.pub = this.sub = undefined;
    await Promise.all(connections.map((c) => c.quit().catch(() => c.disconnect())));
  }

  private subscriber(): IORedis {
    if (!this.sub) {
      // Created on first subscribe: publishing-only processes never open it.
      const sub = connectIORedis(this.url, 'bus-sub');
      sub.on('message', (channel: string, message: string) => this.fanout.dispatch(channel, message));
      // A later 'ready' is a reconnect: ioredis (autoResubscribe) has just sent
      // SUBSCRIBE for every open channel. A PING (allowed in subscriber mode)
      // is answered after those, so the listeners hear of the gap once the
      // subscriptions are live again: nothing published afterwards is missed.
      let connectedBefore = false;
      sub.on('ready', () => {
        if (!connectedBefore) {
          connectedBefore = true;
          return;
        }
        const notify = () => {
          if (this.sub !== sub) return;
          for (const listener of [...this.resubscribed]) listener();
        };
        sub.ping().then(notify, notify);
      });
      this.sub = sub;
    }
    return this.sub;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('bus is closed');
  }
}

/**
 * ioredis writes SUBSCRIBE straight away while the connection is in its
 * handshake ('connect': CLIENT SETNAME/SETINFO, then INFO for the ready
 * check), because SUBSCRIBE is allowed while Redis is loading. Its reply puts
 * the connection in subscriber mode, the ready check's INFO is then refused
 * ("Connection in subscriber mode...") and every queued SUBSCRIBE fails with
 * it: seen with many streams opening at once on a fresh process. Waiting for
 * the end of the handshake (ready, or closed: then the command is queued and
 * sent on the next ready) avoids it.
 */
function handshakeDone(redis: IORedis): Promise<void> {
  if (redis.status !== 'connect') return Promise.resolve();
  // One wait (one 'ready' and one 'close' listener) shared by every SUBSCRIBE
  // queued meanwhile: a listener pair each would pass Node's limit of 10.
  let pending = handshakes.get(redis);
  if (!pending) {
    pending = new Promise<void>((resolve) => {
      const done = () => {
        redis.off('ready', done);
        redis.off('close', done);
        handshakes.delete(redis);
        resolve();
      };
      redis.once('ready', done);
      redis.once('close', done);
    });
    handshakes.set(redis, pending);
  }
  return pending;
}

const handshakes = new WeakMap<IORedis, Promise<void>>();
