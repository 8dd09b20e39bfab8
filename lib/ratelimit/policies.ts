// The service's rate limits (docs/api.md, "Limits"), one limiter each, created once.
// Throughput limits fail open when Redis is unreachable; brute-force guards
// (token and sign-in failures) fail closed (docs/operations.md, "Redis outages").
import { createLimiter } from './index';
import type { Limiter } from './types';

const MINUTE = 60_000;

export const eventsLimiter = (): Limiter => createLimiter({ whenUnavailable: 'open', name: 'events', limit: 100, windowMs: MINUTE });
export const claimsLimiter = (): Limiter => createLimiter({ whenUnavailable: 'open', name: 'claims', limit: 30, windowMs: MINUTE });
export const tokenFailuresLimiter = (): Limiter => createLimiter({ name: 'token-failures', limit: 10, windowMs: MINUTE });
export const recommendationsLimiter = (): Limiter => createLimiter({ whenUnavailable: 'open', name: 'recommendations', limit: 20, windowMs: MINUTE });
export const webhookLimiter = (): Limiter => createLimiter({ whenUnavailable: 'open', name: 'webhook', limit: 1000, windowMs: MINUTE });

const FIFTEEN_MINUTES = 15 * 60_000;
/** Failed staff sign-ins per e-mail address: a person mistyping gets ten tries per quarter hour. */
export const signInFailuresPerEmail = (): Limiter => createLimiter({ name: 'staff-signin-email', limit: 10, windowMs: FIFTEEN_MINUTES });
/** Failed staff sign-ins per client across addresses (password spraying). */
export const signInFailuresPerClient = (): Limiter => createLimiter({ name: 'staff-signin-ip', limit: 30, windowMs: FIFTEEN_MINUTES });
