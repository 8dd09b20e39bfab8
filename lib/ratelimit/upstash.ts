// Sliding window in Redis through @upstash/ratelimit; the client may be
// Upstash over HTTP or plain Redis over TCP (see lib/kv/clients.ts).
import { Ratelimit } from '@upstash/ratelimit';
import type { Redis } from '@upstash/redis';
import { assertLimits } from './memory';
import type { Limiter, LimitResult } from './types';

export interface UpstashLimiterOptions {
  redis: Redis;
  limit: number;
  windowMs: number;
  /** Key prefix, e.g. `rl:<name>`; keys become `<prefix>:<identifier>:<window>`. */
  prefix: string;
}

export class UpstashLimiter implements Limiter {
  readonly limit: number;
  readonly windowMs: number;
  private readonly ratelimit: Ratelimit;

  constructor(opts: UpstashLimiterOptions) {
    assertLimits(opts.limit, opts.windowMs);
    this.limit = opts.limit;
    this.windowMs = opts.windowMs;
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

  async consume(identifier: string): Promise<LimitResult> {
    const r = await this.ratelimit.limit(identifier);
    if (r.reason === 'timeout') {
      // The library fails open after its 5 s timeout and answers limit 0 /
      // reset 0; keep failing open but with numbers a client can use.
      return { success: true, limit: this.limit, remaining: 0, reset: Date.now() + this.windowMs };
    }
    return { success: r.success, limit: r.limit, remaining: r.remaining, reset: r.reset };
  }

  async peek(identifier: string): Promise<LimitResult> {
    // getRemaining (2.2.0) runs a read-only script: { remaining, reset, limit }.
    const r = await this.ratelimit.getRemaining(identifier);
    return { success: r.remaining > 0, limit: r.limit, remaining: r.remaining, reset: r.reset };
  }
}
