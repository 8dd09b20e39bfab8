// The rate-limit port: a sliding window per identifier.
export interface LimitResult {
  success: boolean;
  limit: number;
  remaining: number;
  /** Unix ms when the window frees capacity again. */
  reset: number;
}

export interface Limiter {
  readonly limit: number;
  readonly windowMs: number;
  /** Counts one request and answers whether it is allowed. */
  consume(identifier: string): Promise<LimitResult>;
  /** Answers without counting. */
  peek(identifier: string): Promise<LimitResult>;
}
