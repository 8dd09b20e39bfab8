import { getKv, redisClientOf, type KV } from '@/lib/kv';
import { assertLimits, MemoryLimiter } from './memory';
import type { Limiter } from './types';
import { UpstashLimiter } from './upstash';

export type { Limiter, LimitResult } from './types';
export { MemoryLimiter } from './memory';
export { UpstashLimiter } from './upstash';

export interface LimiterOptions {
  /** Distinct per policy; also the key prefix `rl:<name>`. */
  name: string;
  limit: number;
  windowMs: number;
}

interface Built {
  opts: LimiterOptions;
  limiter: Limiter;
}

// Per KV instance, so closeKv() in tests (or a reconnect to a new store)
// never leaves a limiter on a closed client. Kept on globalThis so Next.js
// dev reloads keep the in-memory counts.
const SLOT = Symbol.for('questline.ratelimit');
type Slot = { [SLOT]?: WeakMap<KV, Map<string, Built>> };
const slot = globalThis as typeof globalThis & Slot;

/**
 * The limiter for `name`, backed by the store the KV uses: Redis when KV is
 * Redis or Upstash, else memory. Chosen by the KV's configured kind, never by
 * its class: under Next.js the KV may have been built by another chunk's copy
 * of lib/kv (the instrumentation hook), whose class this copy does not know.
 */
function resolve(opts: LimiterOptions): Limiter {
  const kv = getKv();
  slot[SLOT] ??= new WeakMap();
  let byName = slot[SLOT].get(kv);
  if (!byName) slot[SLOT].set(kv, (byName = new Map()));
  const built = byName.get(opts.name);
  if (built) {
    if (built.opts.limit !== opts.limit || built.opts.windowMs !== opts.windowMs) {
      throw new Error(`rate limiter "${opts.name}" already exists with different limits`);
    }
    return built.limiter;
  }
  const redis = redisClientOf(kv);
  const limiter = redis
    ? new UpstashLimiter({ redis, limit: opts.limit, windowMs: opts.windowMs, prefix: `rl:${opts.name}` })
    : new MemoryLimiter({ limit: opts.limit, windowMs: opts.windowMs });
  byName.set(opts.name, { opts: { ...opts }, limiter });
  return limiter;
}

/**
 * A named sliding-window limiter. Cheap and safe to call anywhere (even at
 * module load or per request): the backend is picked on first use and each
 * name is built once per process, so all callers share one set of counts.
 */
export function createLimiter(opts: LimiterOptions): Limiter {
  assertLimits(opts.limit, opts.windowMs);
  if (!/^[\w.-]+$/.test(opts.name)) throw new Error(`rate limiter name must match [\\w.-]+, got "${opts.name}"`);
  return {
    limit: opts.limit,
    windowMs: opts.windowMs,
    // async so a configuration error surfaces as a rejection, like a store error.
    consume: async (identifier, units) => resolve(opts).consume(identifier, units),
    peek: async (identifier) => resolve(opts).peek(identifier),
  };
}
