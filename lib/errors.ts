// The error type every domain module throws. Each code has exactly one HTTP
// status, from the contract's table (lib/contract/errors.ts); domain code never
// builds a Response.
import { ERROR_STATUS, type ErrorCode } from '@/lib/contract/errors';

export { ERROR_STATUS, type ErrorCode };

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
