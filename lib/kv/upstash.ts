import type { Redis } from '@upstash/redis';
import type { KV, SetOptions } from './types';
import { assertTtl } from './ttl';

/**
 * KV on an @upstash/redis client: Upstash over HTTP in production. Plain
 * Redis over TCP uses IORedisKv (ioredis directly) instead; this class also
 * runs on a TcpRequester-built client in tests. The client must have
 * automatic deserialisation off.
 */
export class UpstashKv implements KV {
  constructor(
    /** Exposed so the rate limiter can share the connection. */
    readonly client: Redis,
    readonly kind: 'redis' | 'upstash',
    private readonly onClose: () => Promise<void> = async () => {},
  ) {}

  async get(key: string): Promise<string | null> {
    const value = await this.client.get<string>(key);
    return value === null || value === undefined ? null : String(value);
  }

  async mget(keys: string[]): Promise<(string | null)[]> {
    if (keys.length === 0) return [];
    const values = await this.client.mget<(string | null)[]>(...keys);
    return values.map((v) => (v === null || v === undefined ? null : String(v)));
  }

  async set(key: string, value: string, opts: SetOptions = {}): Promise<boolean> {
    const { ttlMs, nx } = opts;
    if (ttlMs !== undefined) assertTtl(ttlMs);
    // SetCommandOptions is a union that does not accept optional fields, so
    // each combination is spelled out.
    const reply =
      ttlMs !== undefined
        ? nx
          ? await this.client.set(key, value, { px: ttlMs, nx: true })
          : await this.client.set(key, value, { px: ttlMs })
        : nx
          ? await this.client.set(key, value, { nx: true })
          : await this.client.set(key, value);
    // SET answers null only when NX (or XX) prevented the write.
    return reply !== null;
  }

  async del(key: string): Promise<void> {
    await this.client.del(key);
  }

  async pttl(key: string): Promise<number | null> {
    // -2: no such key, -1: no expiry.
    const ms = await this.client.pttl(key);
    return ms < 0 ? null : ms;
  }

  async ping(): Promise<void> {
    await this.client.ping();
  }

  async close(): Promise<void> {
    await this.onClose();
  }
}
