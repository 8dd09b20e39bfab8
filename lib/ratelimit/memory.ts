// In-process sliding window, the same arithmetic as @upstash/ratelimit's
// slidingWindow (single region) so memory and Redis answer alike:
// two fixed windows; the previous one counts with the weight of the part of
// it still inside the sliding window, floored; a refused request is not
// counted; `reset` is the end of the current fixed window.
import type { Limiter, LimitResult } from './types';

export interface MemoryLimiterOptions {
  limit: number;
  windowMs: number;
  /** Clock, injectable for tests. */
  now?: () => number;
}

interface Counts {
  /** Index of the fixed window `current` belongs to (floor(now / windowMs)). */
  window: number;
  current: number;
  previous: number;
}

export class MemoryLimiter implements Limiter {
  readonly limit: number;
  readonly windowMs: number;
  private readonly now: () => number;
  private readonly counts = new Map<string, Counts>();
  private lastSweep = 0;

  constructor(opts: MemoryLimiterOptions) {
    assertLimits(opts.limit, opts.windowMs);
    this.limit = opts.limit;
    this.windowMs = opts.windowMs;
    // Read Date.now at call time so fake clocks installed later are honoured.
    this.now = opts.now ?? (() => Date.now());
  }

  async consume(identifier: string, units = 1): Promise<LimitResult> {
    assertUnits(units);
    const now = this.now();
    this.sweep(now);
    const { counts, used, reset } = this.read(identifier, now);
    if (used + units > this.limit) return { success: false, limit: this.limit, remaining: Math.max(0, this.limit - used), reset };
    counts.current += units;
    this.counts.set(identifier, counts);
    return { success: true, limit: this.limit, remaining: Math.max(0, this.limit - (used + units)), reset };
  }

  async peek(identifier: string): Promise<LimitResult> {
    const { used, reset } = this.read(identifier, this.now());
    const remaining = Math.max(0, this.limit - used);
    return { success: remaining > 0, limit: this.limit, remaining, reset };
  }

  /** Counts rolled forward to `now`, and the weighted total in use. */
  private read(identifier: string, now: number): { counts: Counts; used: number; reset: number } {
    const window = Math.floor(now / this.windowMs);
    const stored = this.counts.get(identifier);
    const counts: Counts =
      stored?.window === window
        ? { ...stored }
        : { window, current: 0, previous: stored?.window === window - 1 ? stored.current : 0 };
    const elapsed = (now % this.windowMs) / this.windowMs;
    const used = Math.floor((1 - elapsed) * counts.previous) + counts.current;
    return { counts, used, reset: (window + 1) * this.windowMs };
  }

  /** Drops identifiers idle for two windows; amortised, no timer to clean up. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 2 * this.windowMs) return;
    this.lastSweep = now;
    const window = Math.floor(now / this.windowMs);
    for (const [id, c] of this.counts) if (c.window < window - 1) this.counts.delete(id);
  }
}

export function assertLimits(limit: number, windowMs: number): void {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
  if (!Number.isSafeInteger(windowMs) || windowMs < 1) {
    throw new RangeError(`windowMs must be a positive integer, got ${windowMs}`);
  }
}

export function assertUnits(units: number): void {
  if (!Number.isSafeInteger(units) || units < 1) throw new RangeError(`units must be a positive integer, got ${units}`);
}
