// Redis pub/sub over TCP. Per process: one publishing connection and one
// subscriber connection shared by every channel (a connection in subscribe
// mode can run nothing else, hence two).
import type { Redis as IORedis } from 'ioredis';
import { throughBreaker } from '@/lib/kv/breaker';
import { connectIORedis } from '@/lib/kv/clients';
import { Fanout } from './fanout';
import { ResubscribeGate } from './resubscribe-gate';
import type { Bus, Unsubscribe } from './types';

/** How often UNSUBSCRIBEs that failed are sent again. */
const UNSUBSCRIBE_RETRY_MS = 1_000;

/**
 * Delivery is at most once: a message published while the subscriber
 * connection is down is lost. ioredis reconnects by itself and, with
 * autoResubscribe (its default), subscribes again to every open channel.
 *
 * "Open" is what ioredis believes: a channel stays in its set until Redis
 * confirms the UNSUBSCRIBE. An UNSUBSCRIBE that timed out on a live
 * connection is applied when Redis answers (its reply still clears the set),
 * but one that ioredis gave up on while reconnecting (Redis down: its
 * retries per request ran out) was never sent, and the reconnect subscribes
 * the channel again: a subscription nobody here listens to, held for the
 * life of the process. So every channel whose UNSUBSCRIBE failed is
 * unsubscribed again every second until Redis confirms it, unless a listener
 * here took it up again meanwhile (its own unsubscribe then releases it).
 */
export class RedisBus implements Bus {
  readonly kind = 'redis' as const;
  private pub?: IORedis;
  private sub?: IORedis;
  private closed = false;
  /** Channels whose UNSUBSCRIBE failed, each with the number of its latest failure. */
  private readonly unconfirmed = new Map<string, number>();
  private failures = 0;
  private retryTimer: ReturnType<typeof setInterval> | null = null;
  private readonly fanout = new Fanout({
    // ioredis resolves SUBSCRIBE / UNSUBSCRIBE once Redis has replied.
    open: async (channel) => {
      const sub = this.subscriber();
      await handshakeDone(sub);
      await throughBreaker(() => sub.subscribe(channel));
    },
    shut: async (channel) => {
      try {
        await this.subscriber().unsubscribe(channel);
      } catch (err) {
        this.unsubscribeLater(channel);
        throw err;
      }
    },
  });

  /**
   * From a drop of the subscriber connection until the listeners of
   * onResubscribed have been told, the messages that arrive meanwhile (the
   * channels are subscribed again before the listeners hear of the gap) are
   * held, then dispatched right after telling them (see subscriber()).
   */
  private readonly gate = new ResubscribeGate(this.fanout);

  constructor(private readonly url: string) {}

  async publish(channel: string, message: string): Promise<void> {
    this.assertOpen();
    // Auto-pipelined: the publishes of one event-loop turn (every event's staff
    // announcement, lib/updates/staff.ts) leave in one socket write, not one each.
    const pub = (this.pub ??= connectIORedis(this.url, 'bus-pub', { autoPipelining: true }));
    await throughBreaker(() => pub.publish(channel, message));
  }

  subscribe(channel: string, onMessage: (message: string) => void): Promise<Unsubscribe> {
    this.assertOpen();
    return this.fanout.subscribe(channel, onMessage);
  }

  onResubscribed(listener: () => void): () => void {
    return this.gate.onResubscribed(listener);
  }

  /** Channels whose UNSUBSCRIBE failed and is still to be confirmed by Redis (tests). */
  get pendingUnsubscribes(): number {
    return this.unconfirmed.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.gate.clear();
    this.fanout.clear();
    if (this.retryTimer) clearInterval(this.retryTimer);
    this.retryTimer = null;
    this.unconfirmed.clear();
    const connections = [this.pub, this.sub].filter((c): c is IORedis => c !== undefined);
    this.pub = this.sub = undefined;
    await Promise.all(connections.map((c) => c.quit().catch(() => c.disconnect())));
  }

  private subscriber(): IORedis {
    if (!this.sub) {
      // Created on first subscribe: publishing-only processes never open it.
      const sub = connectIORedis(this.url, 'bus-sub');
      sub.on('message', (channel: string, message: string) => this.gate.heard(channel, message));
      // A later 'ready' is a reconnect: ioredis (autoResubscribe) has just sent
      // SUBSCRIBE for every open channel. A PING (allowed in subscriber mode)
      // is answered after those, so the listeners hear of the gap once the
      // subscriptions are live again: nothing published afterwards is missed.
      // Messages published between the SUBSCRIBE and the PING's answer arrive
      // before the listeners are told, so they are held from the drop until
      // then: a listener that reads what it missed (a stream reads the update
      // log) must see them after the gap, or it would take a later message as
      // its place and never read an earlier one it missed.
      let connectedBefore = false;
      let drops = 0;
      sub.on('close', () => {
        drops++;
        if (connectedBefore && this.sub === sub && !this.closed) this.gate.hold();
      });
      sub.on('ready', () => {
        if (!connectedBefore) {
          connectedBefore = true;
          return;
        }
        const dropsAtReady = drops;
        const notify = () => {
          // Dropped again before the PING's answer: the next 'ready' tells them.
          if (this.sub !== sub || drops !== dropsAtReady) return;
          this.gate.release();
        };
        // A PING that timed out (Redis slow) says nothing of the SUBSCRIBEs before it: asked again while
        // the connection holds; a drop ends it (the next 'ready' starts over).
        const ask = (): void => {
          sub.ping().then(notify, () => {
            if (this.sub === sub && drops === dropsAtReady && !this.closed) ask();
          });
        };
        ask();
      });
      this.sub = sub;
    }
    return this.sub;
  }

  private unsubscribeLater(channel: string): void {
    if (this.closed) return;
    this.unconfirmed.set(channel, ++this.failures);
    if (this.retryTimer) return;
    let running = false;
    this.retryTimer = setInterval(() => {
      if (running) return;
      running = true;
      void this.retryUnsubscribes().finally(() => (running = false));
    }, UNSUBSCRIBE_RETRY_MS);
    // Never holds a process that is shutting down.
    this.retryTimer.unref?.();
  }

  /** One UNSUBSCRIBE for every channel still unconfirmed that no listener here took up again. */
  private async retryUnsubscribes(): Promise<void> {
    const sent = new Map<string, number>();
    for (const [channel, failure] of this.unconfirmed) {
      // Listened to again: the new listeners' subscription, released by their own unsubscribe.
      if (this.fanout.listening(channel)) this.unconfirmed.delete(channel);
      else sent.set(channel, failure);
    }
    if (sent.size > 0 && this.sub) {
      try {
        // A SUBSCRIBE of a listener arriving meanwhile follows it on the connection, so it wins.
        await this.sub.unsubscribe(...sent.keys());
      } catch {
        return; // Redis still away: the next round sends it again.
      }
      // Unless the channel failed again meanwhile (a later UNSUBSCRIBE, after a new listener's SUBSCRIBE).
      for (const [channel, failure] of sent) if (this.unconfirmed.get(channel) === failure) this.unconfirmed.delete(channel);
    }
    if (this.unconfirmed.size === 0 && this.retryTimer) {
      clearInterval(this.retryTimer);
      this.retryTimer = null;
    }
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
