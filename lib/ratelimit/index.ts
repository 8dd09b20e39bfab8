import { isUnavailableError } from '@/lib/errors';
import { getKv, redisClientOf, type KV } from '@/lib/kv';
import { redisClusterKeys } from '@/lib/kv/keys';
import { logError } from '@/lib/log';
import { processWide } from '@/lib/process-wide';
import { assertLimits, MemoryLimiter } from './memory';
import type { Limiter, LimitResult } from './types';
import { UpstashLimiter } from './upstash';

export type { Limiter } from './types';
export { UpstashLimiter } from './upstash';

export interface LimiterOptions {
  /** Distinct per policy; also the key prefix `rl:<name>`. */
  name: string;
  limit: number;
  windowMs: number;
  /**
   * What a request gets when the store cannot be reached (docs/operations/README.md,
   * "Redis outages"): `open` lets it through (a throughput limit; the database
   * still guards correctness), `closed` (the default) answers 503
   * `unavailable` (a brute-force guard must not open during an outage).
   */
  whenUnavailable?: 'open' | 'closed';
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
    ? new UpstashLimiter({ redis, limit: opts.limit, windowMs: opts.windowMs, prefix: `rl:${opts.name}`, cluster: kv.kind === 'redis' && redisClusterKeys() })
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
  const failOpen = opts.whenUnavailable === 'open';
  const guarded = async (call: () => Promise<LimitResult>): Promise<LimitResult> => {
    try {
      return await call();
    } catch (err) {
      if (!failOpen || !isUnavailableError(err)) throw err;
      countFailOpen(opts.name);
      return { success: true, limit: opts.limit, remaining: opts.limit, reset: Date.now() + opts.windowMs };
    }
  };
  return {
    limit: opts.limit,
    windowMs: opts.windowMs,
    // async so a configuration error surfaces as a rejection, like a store error.
    consume: (identifier, units) => guarded(async () => resolve(opts).consume(identifier, units)),
    peek: (identifier) => guarded(async () => resolve(opts).peek(identifier)),
  };
}

// Requests let through by a fail-open limiter, per limiter name (process-wide;
// logged once per outage rather than once per request).
const failOpen = processWide('ratelimit.failOpen', () => ({ counts: new Map<string, number>(), loggedAt: 0 }));

function countFailOpen(name: string): void {
  failOpen.counts.set(name, (failOpen.counts.get(name) ?? 0) + 1);
  const now = Date.now();
  if (now - failOpen.loggedAt > 10_000) {
    failOpen.loggedAt = now;
    logError('rate limit: store unavailable, failing open', null, { limiter: name, counts: Object.fromEntries(failOpen.counts) });
  }
}

/** Requests let through unlimited because the store was unreachable, by limiter name (tests and metrics). */
export function failOpenCounts(): Record<string, number> {
  return Object.fromEntries(failOpen.counts);
}
