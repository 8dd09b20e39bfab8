import type { KV, SetOptions } from './types';
import { assertTtl } from './ttl';

interface Entry {
  value: string;
  /** Unix ms; null means no expiry. */
  expiresAt: number | null;
}

export interface MemoryKvOptions {
  /** How often expired keys are purged even if nobody reads them. */
  sweepIntervalMs?: number;
}

/** Single-process KV. Only correct when the service runs as one instance. */
export class MemoryKv implements KV {
  readonly kind = 'memory' as const;
  private readonly entries = new Map<string, Entry>();
  private readonly sweeper: ReturnType<typeof setInterval>;

  constructor(opts: MemoryKvOptions = {}) {
    // Lazy expiry alone would keep never-read keys forever; the sweep bounds
    // memory. unref() so an idle sweeper never keeps the process alive.
    this.sweeper = setInterval(() => this.sweep(), opts.sweepIntervalMs ?? 30_000);
    this.sweeper.unref();
  }

  /** Number of stored keys, including expired ones not yet swept. */
  get size(): number {
    return this.entries.size;
  }

  async get(key: string): Promise<string | null> {
    return this.live(key)?.value ?? null;
  }

  async mget(keys: string[]): Promise<(string | null)[]> {
    return keys.map((key) => this.live(key)?.value ?? null);
  }

  async set(key: string, value: string, opts: SetOptions = {}): Promise<boolean> {
    if (opts.ttlMs !== undefined) assertTtl(opts.ttlMs);
    if (opts.nx && this.live(key)) return false;
    // Like Redis SET without KEEPTTL: a plain overwrite drops any old expiry.
    const expiresAt = opts.ttlMs === undefined ? null : Date.now() + opts.ttlMs;
    this.entries.set(key, { value, expiresAt });
    return true;
  }

  async del(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async pttl(key: string): Promise<number | null> {
    const entry = this.live(key);
    if (!entry || entry.expiresAt === null) return null;
    return entry.expiresAt - Date.now();
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.entries.clear();
  }

  /** The entry if present and not expired; drops it when expired. */
  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt !== null && entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt !== null && entry.expiresAt <= now) this.entries.delete(key);
    }
  }
}
