// The key-value port: a handful of string operations that the memory, Redis
// (TCP) and Upstash (HTTP) adapters all implement with one behaviour.
export interface SetOptions {
  /** Time to live in milliseconds. */
  ttlMs?: number;
  /** Only set when the key does not exist (SET NX). */
  nx?: boolean;
}

export interface KV {
  readonly kind: 'memory' | 'redis' | 'upstash';
  get(key: string): Promise<string | null>;
  /** Several keys in one round trip (MGET), in order; null for each missing key. */
  mget(keys: string[]): Promise<(string | null)[]>;
  /** Returns false only when `nx` was asked and the key already existed. */
  set(key: string, value: string, opts?: SetOptions): Promise<boolean>;
  del(key: string): Promise<void>;
  /** Remaining time to live in ms; null when the key is missing or has no expiry. */
  pttl(key: string): Promise<number | null>;
  /** Liveness probe; throws when the store is unreachable. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
