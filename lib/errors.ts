// The error type every domain module throws. Each code has exactly one HTTP
// status, from the contract's table (lib/contract/errors.ts); domain code never
// builds a Response.
import { ERROR_STATUS, type ErrorCode } from '@/lib/contract/errors';

export { type ErrorCode };

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

// Connection-level failures of PostgreSQL or Redis (refused, reset, timed
// out, pool exhausted, retries given up): answered 503 `unavailable`, never
// 500. Matched by code and message along the cause chain, because they come
// from several drivers (pg, pg-pool, ioredis, fetch) and from other Next.js
// chunks' copies of them (no instanceof).
const UNAVAILABLE_CODES = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EPIPE|EHOSTUNREACH|ENETUNREACH|UND_ERR_CONNECT_TIMEOUT|UND_ERR_SOCKET|EREDISDOWN)$/;
// SQLSTATE class 08 (connection exception), 57P01-03 (admin shutdown, crash shutdown, cannot connect now),
// 57014 (query_canceled: the server's statement_timeout, set on the pipelined connections, db/client.ts).
const UNAVAILABLE_SQLSTATE = /^(08|57P0|57014$)/;
const UNAVAILABLE_MESSAGES = new RegExp(
  [
    'Connection is closed', // ioredis, connection gone
    'connect ECONNREFUSED',
    'Connection terminated', // pg, server went away mid-query
    'Query read timeout', // pg query_timeout (DATABASE_QUERY_TIMEOUT_MS)
    'timeout exceeded when trying to connect', // pg-pool connectionTimeoutMillis
    'Client has encountered a connection error and is not queryable',
    'Command timed out', // ioredis commandTimeout (REDIS_COMMAND_TIMEOUT_MS)
    'Reached the max retries per request limit', // ioredis maxRetriesPerRequest while reconnecting
    "Stream isn't writeable",
    'timed out after', // withTimeout (lib/stream/update-stream.ts)
    'aborted due to timeout', // AbortSignal.timeout on Upstash REST calls
  ]
    .map((m) => m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|'),
);
// A Redis Cluster in a failover or a slot migration: the reply errors a node answers meanwhile
// (CLUSTERDOWN, TRYAGAIN, MOVED/ASK the client could not follow, a replica not yet promoted or
// still loading) and ioredis Cluster's own when its retries ran out or it has no node to ask.
// Anchored at the start of the message: the reply as ioredis rejects it, or as @upstash/redis
// throws it on top of the TCP requester ("CLUSTERDOWN …, command was: …").
const CLUSTER_TRANSIENT =
  /^(Too many Cluster redirections|(CLUSTERDOWN|TRYAGAIN|MOVED|ASK|MASTERDOWN|LOADING|READONLY) |Cluster isn't ready|None of startup nodes is available|Failed to refresh slots cache)/;

/** The error and its causes (drizzle and the drivers wrap one another), at most 5 deep, objects only. */
export function* causeChain(err: unknown): Generator<Record<string, unknown>> {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    yield e as Record<string, unknown>;
    e = (e as { cause?: unknown }).cause;
  }
}

export function isUnavailableError(err: unknown): boolean {
  for (const e of causeChain(err)) {
    if (e.name === 'AppError' && e.code === 'unavailable') return true;
    // ioredis gives up on a command after its retries while the connection is down.
    if (e.name === 'MaxRetriesPerRequestError') return true;
    const code = e.code;
    if (typeof code === 'string' && (UNAVAILABLE_CODES.test(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
    const message = e.message;
    if (typeof message === 'string' && (UNAVAILABLE_MESSAGES.test(message) || CLUSTER_TRANSIENT.test(message))) return true;
  }
  return false;
}

/**
 * PostgreSQL chose this transaction as a deadlock's victim (SQLSTATE 40P01):
 * it was rolled back whole, so running it again is safe. Matched along the
 * cause chain (drizzle wraps the driver's error).
 */
export function isDeadlock(err: unknown): boolean {
  for (const e of causeChain(err)) if (e.code === '40P01') return true;
  return false;
}
