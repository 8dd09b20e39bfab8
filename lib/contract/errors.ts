// The error vocabulary of the API: each code has exactly one HTTP status.
// The server's AppError, the OpenAPI document and the SDK's typed errors are
// all derived from this table (the SDK through its generated contract types).
import { z } from 'zod';

export const ERRORS = {
  validation_error: { status: 400, description: 'A body, query or path fails validation (the message names the field)' },
  invalid_event: { status: 400, description: 'The POST /v1/events body fails validation (a timestamp outside the server clock’s bounds included)' },
  invalid_credentials: { status: 401, description: 'Unknown app or wrong secret (the same answer for both)' },
  unauthorized: { status: 401, description: 'Missing, invalid, expired or revoked token' },
  invalid_signature: { status: 401, description: 'Webhook signature, app or timestamp rejected' },
  user_mismatch: { status: 403, description: 'The event userId differs from the token subject' },
  forbidden: { status: 403, description: 'The caller may not do this' },
  self_approval: { status: 403, description: 'The staff member (or the admin API key) who asked to publish cannot approve it: another editor or admin must' },
  not_requester: { status: 403, description: 'Only the staff member who asked for an approval can withdraw it; others reject it with a reason' },
  grant_limit_exceeded: { status: 403, description: 'A support grant or correction over the app’s grant limit of the currency (per grant, or per staff member per UTC day); nothing changed, the message and limit, remaining say what is left' },
  not_found: { status: 404, description: 'No such route' },
  mission_not_found: { status: 404, description: 'The mission does not exist' },
  balance_not_found: { status: 404, description: 'No balance for (userId, currency)' },
  campaign_not_found: { status: 404, description: 'The campaign does not exist' },
  user_not_found: { status: 404, description: 'The app has never seen the user (no event, token attributes, webhook user update or balance)' },
  app_not_found: { status: 404, description: 'The app does not exist' },
  draft_not_found: { status: 404, description: 'The app has no draft catalog' },
  release_not_found: { status: 404, description: 'The app has no release of that number' },
  endpoint_not_found: { status: 404, description: 'The app has no such outbound-webhook endpoint' },
  delivery_not_found: { status: 404, description: 'The endpoint has no such delivery' },
  method_not_allowed: { status: 405, description: 'The route exists, the method does not (see Allow)' },
  conflict: { status: 409, description: 'The resource exists already, or it changed since the version a write was based on' },
  claim_not_ready: { status: 409, description: 'No progress record, or its status is not completed' },
  budget_exhausted: { status: 409, description: 'The claim would take its campaign past the campaign’s budget of the reward’s currency (nothing changed; the message names the campaign)' },
  needs_acknowledgement: { status: 409, description: 'The draft (or the scheduled snapshot) has payout warnings: nothing was published or scheduled; `warnings` lists them, send acknowledgeWarnings: true to go ahead' },
  approval_pending: { status: 409, description: 'The app has a publish waiting for approval: approve, reject or withdraw it first (nothing changed)' },
  no_pending_approval: { status: 409, description: 'The app has no publish waiting for approval (it may have just been approved, rejected or withdrawn)' },
  approval_required: { status: 409, description: 'The app requires approval: the live catalog changes only through a publish of the draft that another editor approves; a direct write (PUT …/catalog, the per-entity routes) is refused, nothing written' },
  release_scheduled: { status: 409, description: 'With requireApproval, a publish is asked for while an approved release is scheduled: cancel the schedule first (nothing changed)' },
  balance_limit: { status: 409, description: 'A grant or claim would take the balance past its currency’s maxBalance (nothing changed; the message names the currency and the limit)' },
  insufficient_balance: { status: 409, description: 'A spend, or a staff correction, would take the balance below zero (nothing changed)' },
  payload_too_large: { status: 413, description: 'The body is over 64 KiB' },
  idempotency_key_reused: { status: 422, description: 'The same idempotency key was used for a different request' },
  rate_limited: { status: 429, description: 'A rate limit was hit; Retry-After and retryAfterMs say when to retry' },
  too_many_streams: { status: 429, description: 'The user already holds SSE_MAX_STREAMS_PER_USER streams on this instance; Retry-After and retryAfterMs say when to retry' },
  internal_error: { status: 500, description: 'Unexpected failure (quote X-Request-Id)' },
  unavailable: { status: 503, description: 'A dependency of the service is down; retry later' },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof ERRORS;

const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/** code → HTTP status. */
export const ERROR_STATUS = Object.fromEntries(ERROR_CODES.map((code) => [code, ERRORS[code].status])) as {
  readonly [C in ErrorCode]: (typeof ERRORS)[C]['status'];
};

/** The body of every error answer. */
export const errorBodySchema = z.object({
  error: z.string().describe('The error code (see the error table)'),
  message: z.string().optional(),
  retryAfterMs: z.number().optional().describe('On rate_limited and too_many_streams: milliseconds to wait'),
  limit: z.number().optional().describe('On grant_limit_exceeded: the limit passed (per grant or per day); on balance_limit: the currency’s maxBalance'),
  remaining: z.number().optional().describe('On grant_limit_exceeded: what the staff member may still grant of the currency today (UTC)'),
});
