// Typed errors: one class per error code of the contract, built from the
// `{ error, message?, retryAfterMs? }` body, the status and X-Request-Id.
import { ERROR_STATUS, type ErrorCode } from './contract-types';

export interface QuestlineErrorInit {
  status: number;
  code: string;
  message?: string;
  requestId?: string | null;
  cause?: unknown;
}

/** Base of every error the SDK throws for an HTTP or network failure. */
export class QuestlineError extends Error {
  /** HTTP status; 0 for a network failure (no response). */
  readonly status: number;
  /** The `error` field of the body (e.g. `claim_not_ready`), or `network_error` / `http_<status>`. */
  readonly code: string;
  /** X-Request-Id of the response, to quote when reporting a problem. */
  readonly requestId: string | null;

  constructor(init: QuestlineErrorInit) {
    super(init.message ?? init.code, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId ?? null;
  }
}

export class NetworkError extends QuestlineError {}
/** 400 `validation_error` (and the parent of InvalidEventError). */
export class ValidationError extends QuestlineError {}
/** 400 `invalid_event`: POST /v1/events body failed validation. */
export class InvalidEventError extends ValidationError {}
/** 401 `invalid_credentials`: unknown app or wrong secret. */
export class InvalidCredentialsError extends QuestlineError {}
/** 401 `unauthorized`: missing, invalid, expired or revoked token. */
export class UnauthorizedError extends QuestlineError {}
export class InvalidSignatureError extends QuestlineError {}
/** 403 `user_mismatch`: event userId differs from the token subject. */
export class UserMismatchError extends QuestlineError {}
export class ForbiddenError extends QuestlineError {}
/** 403 `grant_limit_exceeded` (admin API): a support grant past the app's grant limit of the currency (nothing changed). */
export class GrantLimitExceededError extends ForbiddenError {}
/** 403 `self_approval` (admin API): the requester of a publish cannot approve it; another editor or admin must. */
export class SelfApprovalError extends ForbiddenError {}
/** 403 `not_requester` (admin API): only the requester withdraws an approval request; others reject it. */
export class NotRequesterError extends ForbiddenError {}
/** 404 `not_found` (and the parent of the resource-specific 404s). */
export class NotFoundError extends QuestlineError {}
export class MissionNotFoundError extends NotFoundError {}
export class BalanceNotFoundError extends NotFoundError {}
export class CampaignNotFoundError extends NotFoundError {}
export class AppNotFoundError extends NotFoundError {}
/** 404 `user_not_found`: the app has never seen the user (spend from the backend; the admin API's staff writes without createUser). */
export class UserNotFoundError extends NotFoundError {}
/** 404 `draft_not_found`: the app has no draft catalog (admin API). */
export class DraftNotFoundError extends NotFoundError {}
/** 404 `release_not_found`: the app has no release of that number (admin API). */
export class ReleaseNotFoundError extends NotFoundError {}
export class MethodNotAllowedError extends QuestlineError {}
export class ConflictError extends QuestlineError {}
/** 409 `claim_not_ready`: no progress record, or status is not `completed`. */
export class ClaimNotReadyError extends ConflictError {}
/** 409 `budget_exhausted`: the claim would take its campaign past the campaign's payout budget (nothing changed; the message names the campaign). */
export class BudgetExhaustedError extends ConflictError {}
/** 409 `needs_acknowledgement` (admin API): the draft has payout warnings (`warnings` in the body); publish again with acknowledgeWarnings: true. Nothing was published. */
export class NeedsAcknowledgementError extends ConflictError {}
/** 409 `balance_limit`: a claim or grant would take a balance past its currency's maxBalance (nothing changed). */
export class BalanceLimitError extends ConflictError {}
/** 409 `approval_pending` (admin API): a publish of the app waits for approval (nothing changed). */
export class ApprovalPendingError extends ConflictError {}
/** 409 `no_pending_approval` (admin API): nothing waits for approval (just approved, rejected or withdrawn), or another request than the one reviewed. */
export class NoPendingApprovalError extends ConflictError {}
/** 409 `release_scheduled` (admin API, requireApproval): an approved release is scheduled; cancel it before asking again. */
export class ReleaseScheduledError extends ConflictError {}
/** 409 `approval_required` (admin API): the app requires approval; a direct live catalog write is refused (change the draft and publish it). */
export class ApprovalRequiredError extends ConflictError {}
/** 409 `insufficient_balance`: a staff correction would take a balance below zero (admin API; nothing changed). */
export class InsufficientBalanceError extends ConflictError {}
/** 413 `payload_too_large`: body over 64 KiB. */
export class PayloadTooLargeError extends QuestlineError {}
/** 422 `idempotency_key_reused`: same key, different body. */
export class IdempotencyKeyReusedError extends QuestlineError {}
/** 429 `rate_limited` (or `too_many_streams` on the stream); wait `retryAfterMs` before retrying. */
export class RateLimitedError extends QuestlineError {
  readonly retryAfterMs: number;
  constructor(init: QuestlineErrorInit & { retryAfterMs: number }) {
    super(init);
    this.retryAfterMs = init.retryAfterMs;
  }
}
/** 404 `endpoint_not_found` (admin API): no such outbound-webhook endpoint. */
export class EndpointNotFoundError extends QuestlineError {}
/** 404 `delivery_not_found` (admin API): the endpoint has no such delivery. */
export class DeliveryNotFoundError extends QuestlineError {}
/** 500 `internal_error`. */
export class InternalServerError extends QuestlineError {}
/** 503 `unavailable`: a dependency of the service is down; retry later. */
export class ServiceUnavailableError extends QuestlineError {}

type Ctor = new (init: QuestlineErrorInit) => QuestlineError;
/** Every 429 (`rate_limited`, `too_many_streams` of the stream) is a RateLimitedError, with its code. */
type Code429 = 'rate_limited' | 'too_many_streams';
/** One class per code of the contract: a code added to the service's table is a type error here until it has one. */
const BY_CODE: { readonly [C in Exclude<ErrorCode, Code429>]: Ctor } = {
  validation_error: ValidationError,
  invalid_event: InvalidEventError,
  invalid_credentials: InvalidCredentialsError,
  unauthorized: UnauthorizedError,
  invalid_signature: InvalidSignatureError,
  user_mismatch: UserMismatchError,
  forbidden: ForbiddenError,
  grant_limit_exceeded: GrantLimitExceededError,
  self_approval: SelfApprovalError,
  not_requester: NotRequesterError,
  not_found: NotFoundError,
  mission_not_found: MissionNotFoundError,
  balance_not_found: BalanceNotFoundError,
  campaign_not_found: CampaignNotFoundError,
  app_not_found: AppNotFoundError,
  user_not_found: UserNotFoundError,
  draft_not_found: DraftNotFoundError,
  release_not_found: ReleaseNotFoundError,
  endpoint_not_found: EndpointNotFoundError,
  delivery_not_found: DeliveryNotFoundError,
  method_not_allowed: MethodNotAllowedError,
  conflict: ConflictError,
  claim_not_ready: ClaimNotReadyError,
  budget_exhausted: BudgetExhaustedError,
  needs_acknowledgement: NeedsAcknowledgementError,
  balance_limit: BalanceLimitError,
  approval_pending: ApprovalPendingError,
  no_pending_approval: NoPendingApprovalError,
  release_scheduled: ReleaseScheduledError,
  approval_required: ApprovalRequiredError,
  insufficient_balance: InsufficientBalanceError,
  payload_too_large: PayloadTooLargeError,
  idempotency_key_reused: IdempotencyKeyReusedError,
  internal_error: InternalServerError,
  unavailable: ServiceUnavailableError,
};
/** For a body without a known code (a newer service, a proxy's page): the generic code of its status, from the contract's table. */
const GENERIC_CODES = [
  'validation_error', 'unauthorized', 'forbidden', 'not_found', 'method_not_allowed', 'conflict',
  'payload_too_large', 'idempotency_key_reused', 'internal_error', 'unavailable',
] as const satisfies readonly Exclude<ErrorCode, Code429>[];
const BY_STATUS: Record<number, Ctor> = Object.fromEntries(GENERIC_CODES.map((code) => [ERROR_STATUS[code], BY_CODE[code]]));
// Gateways answer these when the service is out of reach.
for (const status of [502, 504]) BY_STATUS[status] = ServiceUnavailableError;

const isKnownCode = (code: string): code is keyof typeof BY_CODE => Object.hasOwn(BY_CODE, code);

/** Builds the typed error of a non-2xx response (reads its body). */
export async function errorFromResponse(res: Response): Promise<QuestlineError> {
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(await res.text());
    if (parsed && typeof parsed === 'object') body = parsed as Record<string, unknown>;
  } catch {
    // not JSON (proxy page, empty body): fall back on the status
  }
  const code = typeof body.error === 'string' ? body.error : `http_${res.status}`;
  const init: QuestlineErrorInit = {
    status: res.status,
    code,
    message: typeof body.message === 'string' ? body.message : undefined,
    requestId: res.headers.get('x-request-id'),
  };
  if (code === 'rate_limited' || res.status === 429) {
    const header = Number(res.headers.get('retry-after'));
    const retryAfterMs =
      typeof body.retryAfterMs === 'number' ? body.retryAfterMs : Number.isFinite(header) && header > 0 ? header * 1000 : 1000;
    return new RateLimitedError({ ...init, retryAfterMs });
  }
  const Cls = (isKnownCode(code) ? BY_CODE[code] : BY_STATUS[res.status]) ?? QuestlineError;
  return new Cls(init);
}
