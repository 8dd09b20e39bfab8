import type { Redis } from '@upstash/redis';
import { throughBreaker } from './breaker';
import type { RedisConnection } from './connection';
import type { KV, SetOptions } from './types';
import { assertTtl } from './ttl';

/**
 * KV on plain Redis over TCP, straight on ioredis: each operation is one
 * ioredis command through the process-wide breaker (lib/kv/breaker.ts), with
 * the connection's command timeout, so a request's GET/MGET/SET no longer
 * builds an @upstash/redis command object and a REST-shaped request for
 * TcpRequester to translate back. `client` is the @upstash/redis client on
 * the same connection (through TcpRequester), kept for the rate limiter's
 * scripts and the update log.
 */
export class IORedisKv implements KV {
  readonly kind = 'redis' as const;

  constructor(
    private readonly redis: RedisConnection,
    /** Exposed so the rate limiter and the update log can share the connection. */
    readonly client: Redis,
    private readonly onClose: () => Promise<void> = async () => {},
    /** A Redis Cluster: keys of one MGET may live on different nodes. */
    readonly cluster = false,
  ) {}

  get(key: string): Promise<string | null> {
    return throughBreaker(() => this.redis.get(key));
  }

  async mget(keys: string[]): Promise<(string | null)[]> {
    if (keys.length === 0) return [];
    // On a cluster one MGET must stay in one hash slot (CROSSSLOT otherwise): a GET
    // per key instead, sent together (the cluster client does not auto-pipeline, lib/kv/clients.ts).
    if (this.cluster) return throughBreaker(() => Promise.all(keys.map((key) => this.redis.get(key))));
    return throughBreaker(() => this.redis.mget(keys));
  }

  async set(key: string, value: string, opts: SetOptions = {}): Promise<boolean> {
    const { ttlMs, nx } = opts;
    if (ttlMs !== undefined) assertTtl(ttlMs);
    const r = this.redis;
    const reply = await throughBreaker(() =>
      ttlMs !== undefined ? (nx ? r.set(key, value, 'PX', ttlMs, 'NX') : r.set(key, value, 'PX', ttlMs)) : nx ? r.set(key, value, 'NX') : r.set(key, value),
    );
    // SET answers null only when NX prevented the write.
    return reply !== null;
  }

  async del(key: string): Promise<void> {
    await throughBreaker(() => this.redis.del(key));
  }

  async pttl(key: string): Promise<number | null> {
    // -2: no such key, -1: no expiry.
    const ms = await throughBreaker(() => this.redis.pttl(key));
    return ms < 0 ? null : ms;
  }

  async ping(): Promise<void> {
    await throughBreaker(() => this.redis.ping());
  }

  async close(): Promise<void> {
    await this.onClose();
  }
}
