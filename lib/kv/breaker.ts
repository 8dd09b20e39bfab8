// A circuit breaker in front of Redis. When a command fails because Redis is
// unreachable or too slow (REDIS_COMMAND_TIMEOUT_MS), the breaker opens for
// REDIS_BREAKER_MS (default 1 s): commands in that time fail at once with
// `RedisUnavailableError` instead of each waiting out its own timeout, so a
// request that touches Redis several times (rate limit, revocation check,
// idempotency cache, publish) pays for the outage once, not once per touch.
// After the pause the next commands go through again (half-open): the first
// success closes it. Process-wide, shared by every Redis connection.
import { ConfigError } from '@/lib/config';
import { isUnavailableError } from '@/lib/errors';
import { processWide } from '@/lib/process-wide';

const DEFAULT_REDIS_BREAKER_MS = 1_000;

export class RedisUnavailableError extends Error {
  readonly code = 'EREDISDOWN';
  constructor(cause?: unknown) {
    super('Redis unavailable (circuit open after a failure; retrying shortly)', { cause });
    this.name = 'RedisUnavailableError';
  }
}

function redisBreakerMs(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const raw = env.REDIS_BREAKER_MS?.trim();
  if (!raw) return DEFAULT_REDIS_BREAKER_MS;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 0 || ms > 60_000) throw new ConfigError('REDIS_BREAKER_MS', 'must be a whole number of milliseconds from 0 to 60000');
  return ms;
}

const state = processWide('redis.breaker', () => ({ openUntil: 0, lastError: null as unknown, opened: 0 }));

/** Runs one Redis call through the breaker. */
export async function throughBreaker<T>(call: () => Promise<T>): Promise<T> {
  if (Date.now() < state.openUntil) throw new RedisUnavailableError(state.lastError);
  try {
    return await call();
  } catch (err) {
    if (isUnavailableError(err)) {
      const pause = redisBreakerMs();
      if (pause > 0) {
        if (Date.now() >= state.openUntil) state.opened += 1;
        state.openUntil = Date.now() + pause;
        state.lastError = err;
      }
    }
    throw err;
  }
}

/** How often the breaker opened in this process (tests, metrics). */
export function breakerOpenings(): number {
  return state.opened;
}

/**
 * True for the breaker's own fast failure: the failure that opened it was
 * logged already, so callers that fail open skip logging these (one line per
 * outage window instead of several per request).
 */
export function isCircuitOpen(err: unknown): boolean {
  return err instanceof Error && err.name === 'RedisUnavailableError';
}
