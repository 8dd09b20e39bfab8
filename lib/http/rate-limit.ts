// The RateLimit-* headers and the 429 answer shared by every limited route.
import { AppError } from '@/lib/errors';
import type { LimitResult } from '@/lib/ratelimit/types';

export function rateLimitHeaders(result: LimitResult, now = Date.now()): Headers {
  const resetSeconds = Math.max(0, Math.ceil((result.reset - now) / 1000));
  return new Headers({
    'RateLimit-Limit': String(result.limit),
    'RateLimit-Remaining': String(Math.max(0, result.remaining)),
    'RateLimit-Reset': String(resetSeconds),
  });
}

/** 429 with Retry-After in whole seconds (rounded up) matching retryAfterMs. */
export function rateLimitedError(result: LimitResult, now = Date.now()): AppError {
  const retryAfterMs = Math.max(1, result.reset - now);
  const headers: Record<string, string> = { 'Retry-After': String(Math.ceil(retryAfterMs / 1000)) };
  rateLimitHeaders(result, now).forEach((value, name) => (headers[name] = value));
  return new AppError('rate_limited', 'Too many requests; retry after the given delay', { extra: { retryAfterMs }, headers });
}
