// The error vocabulary shared by every domain module. Each code has exactly one
// HTTP status, given in lib/http/errors.ts; domain code never builds a Response.
export const ERROR_STATUS = {
  validation_error: 400,
  invalid_event: 400,
  invalid_credentials: 401,
  unauthorized: 401,
  invalid_signature: 401,
  user_mismatch: 403,
  forbidden: 403,
  not_found: 404,
  mission_not_found: 404,
  balance_not_found: 404,
  campaign_not_found: 404,
  app_not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  claim_not_ready: 409,
  payload_too_large: 413,
  idempotency_key_reused: 422,
  rate_limited: 429,
  too_many_streams: 429,
  internal_error: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly code: ErrorCode;
  /** Extra body fields (for example retryAfterMs on rate_limited). */
  readonly extra: Record<string, unknown>;
  /** Extra response headers (for example Retry-After). */
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message?: string,
    options: { extra?: Record<string, unknown>; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message ?? code, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  /** True when the constructor was given a message worth showing to the client. */
  get hasMessage(): boolean {
    return this.message !== this.code;
  }
}
