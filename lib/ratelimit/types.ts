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
  /**
   * Counts `units` (default 1: one request; a webhook counts its events) and
   * answers whether they are allowed. Refused units are not counted, and units
   * are refused unless all of them fit.
   */
  consume(identifier: string, units?: number): Promise<LimitResult>;
  /** Answers without counting. */
  peek(identifier: string): Promise<LimitResult>;
}
