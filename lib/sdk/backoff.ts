// Reconnect delays: exponential from a base, capped, with jitter.
export type Jitter = 'full' | 'equal' | 'none';

export interface BackoffOptions {
  /** First delay, ms (default 1000). */
  baseMs?: number;
  /** Cap, ms (default 30000). */
  maxMs?: number;
  /** `equal` (default): in [d/2, d]; `full`: in [0, d]; `none`: d. */
  jitter?: Jitter;
  /** Random source in [0, 1) (injectable for tests). */
  random?: () => number;
}

const DEFAULT_BACKOFF = { baseMs: 1000, maxMs: 30_000, jitter: 'equal' as Jitter };

/** The un-jittered delay before retry number `attempt` (0 for the first retry). */
export function backoffCeiling(attempt: number, options: BackoffOptions = {}): number {
  const base = options.baseMs ?? DEFAULT_BACKOFF.baseMs;
  const max = options.maxMs ?? DEFAULT_BACKOFF.maxMs;
  return Math.min(max, base * 2 ** Math.min(Math.max(0, attempt), 30));
}

/** The delay before retry number `attempt` (0-based), jittered. */
export function backoffDelay(attempt: number, options: BackoffOptions = {}): number {
  const ceiling = backoffCeiling(attempt, options);
  const r = (options.random ?? Math.random)();
  switch (options.jitter ?? DEFAULT_BACKOFF.jitter) {
    case 'none':
      return ceiling;
    case 'full':
      return Math.floor(r * ceiling);
    case 'equal':
      return Math.floor(ceiling / 2 + (r * ceiling) / 2);
  }
}
