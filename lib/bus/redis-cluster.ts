// Sharded Pub/Sub on a Redis Cluster (REDIS_CLUSTER=true, Redis >= 7):
// SPUBLISH goes to the master of the channel's slot and reaches only that
// shard's subscribers, instead of PUBLISH broadcasting every message to every
// node of the cluster. The subscriber side is ioredis's Cluster with
// `shardedSubscribers`: one subscriber connection per master, SSUBSCRIBE on
// the master of each channel's slot, and after a change of the slot map (a
// failover) the channels subscribed again on their new master.
//
// A user's channel is in the slot of the user's update log (lib/kv/keys.ts
// slotKey), which lets the append script SPUBLISH it (lib/updates/log-redis.ts).
import type { Cluster, Redis as IORedis } from 'ioredis';
import { throughBreaker } from '@/lib/kv/breaker';
import { connectIORedisCluster } from '@/lib/kv/clients';
import { Fanout } from './fanout';
import { ResubscribeGate } from './resubscribe-gate';
import type { Bus, Unsubscribe } from './types';

/** What ioredis 5.9's Cluster keeps of its sharded subscribers (not public API; the version is pinned in package.json). */
interface ShardedGroup {
  shardedSubscribers: Map<string, { getInstance(): IORedis | null; isStarted(): boolean }>;
}

/** Messages held at most while a shard's subscriber is away; past it they are dispatched (the streams' catch-up reads the log anyway). */
const MAX_HELD = 10_000;
/** How soon a shard still without a live subscriber is looked at again. */
const SETTLE_RETRY_MS = 500;

/**
 * Delivery is at most once, as on a single Redis. When a shard's subscriber
 * connection drops (its master failed), messages of its channels published
 * meanwhile are lost: once ioredis has subscribed them again on the promoted
 * replica (its 'subscribersReady', then a PING answered on every subscriber
 * connection, which comes after their SSUBSCRIBEs), the listeners of
 * onResubscribed are told, and a stream reads what it missed from the update
 * log. From the drop until then, every message heard is held back and
 * dispatched right after telling them (see RedisBus for why), so a stream
 * never takes a later message for its place and skips an earlier one.
 */
export class RedisClusterBus implements Bus {
  readonly kind = 'redis' as const;
  private pub?: Cluster;
  private sub?: Cluster;
  private closed = false;
  /** Subscriber connections of the shards (ioredis makes a new one per master and per failover). */
  private readonly subscribers = new WeakSet<object>();
  private readies = 0;
  private readonly fanout = new Fanout({
    open: async (channel) => {
      const sub = this.subscriber();
      await throughBreaker(() => sub.ssubscribe(channel));
    },
    // ioredis forgets the channel at once (no resubscription after a failover); a
    // SUNSUBSCRIBE that failed leaves a subscription the fanout ignores until that shard's next failover.
    shut: async (channel) => {
      await this.subscriber().sunsubscribe(channel);
    },
  });

  /** From a subscriber's drop until its channels are live again and the listeners told: messages heard are held. */
  private readonly gate = new ResubscribeGate(this.fanout, MAX_HELD);

  constructor(private readonly url: string) {}

  async publish(channel: string, message: string): Promise<void> {
    this.assertOpen();
    const pub = (this.pub ??= connectIORedisCluster(this.url, 'bus-pub'));
    await throughBreaker(() => pub.spublish(channel, message));
  }

  subscribe(channel: string, onMessage: (message: string) => void): Promise<Unsubscribe> {
    this.assertOpen();
    return this.fanout.subscribe(channel, onMessage);
  }

  onResubscribed(listener: () => void): () => void {
    return this.gate.onResubscribed(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.gate.clear();
    this.fanout.clear();
    const connections = [this.pub, this.sub].filter((c): c is Cluster => c !== undefined);
    this.pub = this.sub = undefined;
    await Promise.all(connections.map((c) => c.quit().catch(() => c.disconnect())));
  }

  private group(sub: Cluster): ShardedGroup['shardedSubscribers'] {
    return (sub as unknown as { shardedSubscribers: ShardedGroup }).shardedSubscribers.shardedSubscribers;
  }

  private subscriber(): Cluster {
    if (this.sub) return this.sub;
    // Created on first subscribe: publishing-only processes never open it.
    const sub = connectIORedisCluster(this.url, 'bus-sub', { shardedSubscribers: true });
    sub.on('smessage', (channel: string, message: string) => this.gate.heard(channel, message));
    // A shard's subscriber connection is made for each master (and again after a failover).
    sub.on('+subscriber', () => {
      for (const s of this.group(sub).values()) {
        const instance = s.getInstance();
        if (instance) this.subscribers.add(instance);
      }
    });
    // The Cluster re-emits its own nodes' removals as '-node' too: only a subscriber's is a gap.
    sub.on('-node', (redis: object) => {
      if (this.subscribers.has(redis) && this.sub === sub && !this.closed) this.gate.hold();
    });
    sub.on('subscribersReady', () => {
      if (this.gate.holding && this.sub === sub) this.settle(sub, ++this.readies);
    });
    this.sub = sub;
    return sub;
  }

  /**
   * Once every shard's subscriber answers a PING (sent after the SSUBSCRIBEs
   * ioredis just made on it), tells the listeners and dispatches what was
   * held. A shard still away (the failover going on): the listeners are told
   * all the same (they read what they missed), messages stay held, and it is
   * asked again shortly, unless a later 'subscribersReady' took over.
   */
  private settle(sub: Cluster, ready: number): void {
    const instances = [...this.group(sub).values()].map((s) => s.getInstance());
    void Promise.all(instances.map((i) => (i && i.status === 'ready' ? i.ping().then(() => true, () => false) : Promise.resolve(false)))).then((live) => {
      if (ready !== this.readies || this.sub !== sub || this.closed) return;
      const allLive = live.length > 0 && live.every(Boolean);
      this.gate.release(!allLive);
      if (allLive) return;
      const again = setTimeout(() => {
        if (ready === this.readies && this.gate.holding) this.settle(sub, ++this.readies);
      }, SETTLE_RETRY_MS);
      again.unref?.();
    });
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('bus is closed');
  }
}
