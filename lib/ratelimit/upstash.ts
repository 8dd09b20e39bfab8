// Sliding window in Redis through @upstash/ratelimit; the client may be
// Upstash over HTTP or plain Redis over TCP (see lib/kv/clients.ts).
import { Ratelimit } from '@upstash/ratelimit';
import type { Redis } from '@upstash/redis';
import { slotTag } from '@/lib/kv/keys';
import { assertLimits, assertUnits } from './memory';
import type { Limiter, LimitResult } from './types';

export interface UpstashLimiterOptions {
  redis: Redis;
  limit: number;
  windowMs: number;
  /** Key prefix, e.g. `rl:<name>`; keys become `<prefix>:<identifier>:<window>`. */
  prefix: string;
  /**
   * A Redis Cluster: the identifier is a hash tag (`rl:<name>:{<identifier>}:<window>`) so
   * the two windows a script reads share a slot. Off, the keys are the single Redis's as before.
   */
  cluster?: boolean;
}

/**
 * Several units at once, on the keys and arithmetic of the library's sliding
 * window (so its peek and single-unit counts see them). The library would add
 * units it then refuses (its check is `used >= limit` before adding), so a
 * refused delivery would still eat the window; here nothing is added unless
 * every unit fits.
 */
const CONSUME_UNITS = `
local used_now = tonumber(redis.call('GET', KEYS[1]) or '0')
local used_before = tonumber(redis.call('GET', KEYS[2]) or '0')
local limit = tonumber(ARGV[1])
local now = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local units = tonumber(ARGV[4])
local used = math.floor((1 - (now % window) / window) * used_before) + used_now
if used + units > limit then
  return {0, limit - used}
end
local value = redis.call('INCRBY', KEYS[1], units)
if value == units then
  redis.call('PEXPIRE', KEYS[1], window * 2 + 1000)
end
return {1, limit - used - units}
`;

export class UpstashLimiter implements Limiter {
  readonly limit: number;
  readonly windowMs: number;
  private readonly ratelimit: Ratelimit;
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly cluster: boolean;

  constructor(opts: UpstashLimiterOptions) {
    assertLimits(opts.limit, opts.windowMs);
    this.limit = opts.limit;
    this.windowMs = opts.windowMs;
    this.redis = opts.redis;
    this.prefix = opts.prefix;
    this.cluster = opts.cluster ?? false;
    this.ratelimit = new Ratelimit({
      redis: opts.redis,
      limiter: Ratelimit.slidingWindow(opts.limit, `${opts.windowMs} ms`),
      prefix: opts.prefix,
      // The ephemeral cache remembers "blocked until the end of this fixed
      // window" per instance. A sliding window frees capacity earlier, as the
      // previous window's weight decays, so the cache would refuse requests
      // Redis (and the memory limiter) allow, and each instance would answer
      // differently. One Redis round trip per refused request is the price.
      ephemeralCache: false,
      analytics: false,
    });
  }

  async consume(identifier: string, units = 1): Promise<LimitResult> {
    assertUnits(units);
    if (units > 1) return this.consumeUnits(slotTag(identifier, this.cluster), units);
    const r = await this.ratelimit.limit(slotTag(identifier, this.cluster));
    if (r.reason === 'timeout') {
      // The library fails open after its 5 s timeout and answers limit 0 /
      // reset 0; keep failing open but with numbers a client can use.
      return { success: true, limit: this.limit, remaining: 0, reset: Date.now() + this.windowMs };
    }
    return { success: r.success, limit: r.limit, remaining: r.remaining, reset: r.reset };
  }

  private async consumeUnits(identifier: string, units: number): Promise<LimitResult> {
    const now = Date.now();
    const window = Math.floor(now / this.windowMs);
    // The library's key layout: `<prefix>:<identifier>:<window index>`.
    const key = (w: number) => `${this.prefix}:${identifier}:${w}`;
    const [ok, remaining] = (await this.redis.eval(CONSUME_UNITS, [key(window), key(window - 1)], [this.limit, now, this.windowMs, units])) as [
      number,
      number,
    ];
    return { success: ok === 1, limit: this.limit, remaining: Math.max(0, Number(remaining)), reset: (window + 1) * this.windowMs };
  }

  async peek(identifier: string): Promise<LimitResult> {
    // getRemaining (2.2.0) runs a read-only script: { remaining, reset, limit }.
    const r = await this.ratelimit.getRemaining(slotTag(identifier, this.cluster));
    return { success: r.remaining > 0, limit: r.limit, remaining: r.remaining, reset: r.reset };
  }
}
