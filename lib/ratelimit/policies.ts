// The service's rate limits (docs/api.md, "Limits"), one limiter each, created once.
// Throughput limits fail open when Redis is unreachable; brute-force guards
// (token and sign-in failures) fail closed (docs/operations/README.md, "Redis outages").
import { createLimiter } from './index';
import type { Limiter } from './types';
import { DEFAULT_WEBHOOK_EVENTS_PER_MINUTE } from '@/lib/contract/app';

const MINUTE = 60_000;

export const eventsLimiter = (): Limiter => createLimiter({ whenUnavailable: 'open', name: 'events', limit: 100, windowMs: MINUTE });
export const claimsLimiter = (): Limiter => createLimiter({ whenUnavailable: 'open', name: 'claims', limit: 30, windowMs: MINUTE });
export const tokenFailuresLimiter = (): Limiter => createLimiter({ name: 'token-failures', limit: 10, windowMs: MINUTE });
export const recommendationsLimiter = (): Limiter => createLimiter({ whenUnavailable: 'open', name: 'recommendations', limit: 20, windowMs: MINUTE });
/**
 * The signed webhook's limit of one app, counting events: the app's own
 * (PATCH /api/admin/apps/:appId) or the default. One limiter per distinct
 * limit (a handful: admins pick them), so a changed limit counts from a fresh
 * window for that app.
 */
export const webhookLimiter = (eventsPerMinute: number | null = null): Limiter => {
  const limit = eventsPerMinute ?? DEFAULT_WEBHOOK_EVENTS_PER_MINUTE;
  return createLimiter({ whenUnavailable: 'open', name: limit === DEFAULT_WEBHOOK_EVENTS_PER_MINUTE ? 'webhook' : `webhook-${limit}`, limit, windowMs: MINUTE });
};

const FIFTEEN_MINUTES = 15 * 60_000;
const HOUR = 60 * MINUTE;
// Staff sign-in (lib/http/staff-auth-handler.ts, docs/security.md "Staff sign-in").
/** Failed sign-ins per (account, client): a person mistyping gets ten tries per quarter hour from their machine. */
export const signInFailuresPerPair = (): Limiter => createLimiter({ name: 'staff-signin-pair', limit: 10, windowMs: FIFTEEN_MINUTES });
/** Failed staff sign-ins per client across accounts (password spraying); a client's first attempt on an account is not held to it. */
export const signInFailuresPerClient = (): Limiter => createLimiter({ name: 'staff-signin-ip', limit: 30, windowMs: FIFTEEN_MINUTES });
/** Attempts on one account from clients that already tried it within SIGN_IN_CLEAN_MS, across all of them. */
export const SIGN_IN_ACCOUNT_PER_HOUR = 20;
export const signInAttemptsPerAccount = (): Limiter => createLimiter({ name: 'staff-signin-account', limit: SIGN_IN_ACCOUNT_PER_HOUR, windowMs: HOUR });
/** How long a client that failed on an account stays out of the account's fast lane (since its last failure). */
export const SIGN_IN_CLEAN_MS = 24 * HOUR;
