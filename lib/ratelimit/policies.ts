// The service's rate limits (docs/api.md, "Limits"), one limiter each, created once.
// Throughput limits fail open when Redis is unreachable; brute-force guards
// (token and sign-in failures) fail closed (docs/operations.md, "Redis outages").
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
/** Failed staff sign-ins per e-mail address: a person mistyping gets ten tries per quarter hour. */
export const signInFailuresPerEmail = (): Limiter => createLimiter({ name: 'staff-signin-email', limit: 10, windowMs: FIFTEEN_MINUTES });
/** Failed staff sign-ins per client across addresses (password spraying). */
export const signInFailuresPerClient = (): Limiter => createLimiter({ name: 'staff-signin-ip', limit: 30, windowMs: FIFTEEN_MINUTES });
