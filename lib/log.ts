// Structured one-line JSON logs (pino) on stderr; never sent to clients.
// Every line goes through redact() first: no token, key, cookie or password
// reaches the log, whatever field or message it hides in (see docs/security.md).
import pino, { type Logger } from 'pino';
import { causeChain } from './errors';
import { processWide } from './process-wide';

const LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

export const REDACTED = '[REDACTED]';

/** Field names whose values are secrets (matched case-insensitively, anywhere in the name). */
const SECRET_KEY = /authorization|cookie|password|passwd|secret|token|api[-_]?key|signature/i;
/** Query parameters whose values are secrets (after percent-decoding the name). */
const SECRET_PARAM = /^(access_token|token|refresh_token|id_token|api[-_]?key|key|secret|password|signature|sig|code)$/i;
const QUERY_PAIR = /([?&;])([^=&#\s"'<>]+)=([^&#\s"'<>]*)/g;
const AUTH_SCHEME = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
/** A JWT anywhere in a string (three base64url parts, the first a JSON header). */
const JWT = /\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/** A string with the secrets it may carry (query parameters, bearer credentials, JWTs) replaced. */
export function redactText(text: string): string {
  return text
    .replace(QUERY_PAIR, (all, sep: string, name: string) => (SECRET_PARAM.test(decodedName(name)) ? `${sep}${name}=${REDACTED}` : all))
    .replace(AUTH_SCHEME, (_all, scheme: string) => `${scheme} ${REDACTED}`)
    .replace(JWT, REDACTED);
}

/** A copy of a log record with every secret replaced (by field name or by what a string holds). */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = SECRET_KEY.test(key) && v !== null && v !== undefined ? REDACTED : redact(v, depth + 1);
  return out;
}

/** The level in effect: LOG_LEVEL, else `info` (`warn` under QUESTLINE_QUIET=1, as the test suites run). */
export function logLevel(env: Record<string, string | undefined> = process.env): string {
  const asked = env.LOG_LEVEL?.trim().toLowerCase();
  if (asked && LEVELS.has(asked)) return asked;
  return env.QUESTLINE_QUIET === '1' ? 'warn' : 'info';
}

function createLogger(): Logger {
  return pino(
    {
      level: logLevel(),
      base: undefined,
      messageKey: 'message',
      timestamp: () => `,"at":"${new Date().toISOString()}"`,
      formatters: {
        level: (label) => ({ level: label }),
        log: (record) => redact(record) as Record<string, unknown>,
      },
    },
    // Through console.error, line by line and synchronously: nothing is lost at
    // process.exit, and a test can capture the lines the way an operator sees them.
    { write: (line: string) => console.error(line.replace(/\n$/, '')) },
  );
}

/** The process's logger (one per process, whichever Next.js chunk asks). */
export function logger(): Logger {
  return processWide('logger', createLogger);
}

/**
 * The error's message and stack, its code when it has one (a PostgreSQL
 * SQLSTATE such as 40P01, a Node code such as ECONNRESET), and what it wraps:
 * drizzle's "Failed query" carries the driver's error only as its cause.
 */
function errorFields(err: unknown, withCauses: boolean): Record<string, unknown> {
  if (err === null || err === undefined) return {};
  if (!(err instanceof Error)) return { error: String(err) };
  const [, ...wrapped] = withCauses ? [...causeChain(err)] : [];
  return {
    error: err.message,
    ...codeField(err as unknown as Record<string, unknown>),
    stack: err.stack,
    ...(wrapped.length > 0 ? { causes: wrapped.map(causeFields) } : {}),
  };
}

/** A wrapped error's message is cut before a query's parameters (drizzle appends them: a group's every payload) and at 300 characters. */
const CAUSE_MAX = 300;

function causeFields(e: Record<string, unknown>): Record<string, unknown> {
  const full = typeof e.message === 'string' ? e.message : String(e);
  const head = full.split('\nparams:')[0]!;
  const message = head.length > CAUSE_MAX ? `${head.slice(0, CAUSE_MAX)}…` : head;
  return { error: message, ...codeField(e) };
}

/** `{ code }` when the error has a string or numeric code (SQLSTATE, Node's), else nothing. */
function codeField(e: Record<string, unknown>): { code?: string | number } {
  return typeof e.code === 'string' || typeof e.code === 'number' ? { code: e.code } : {};
}

/**
 * An error line: the error's message, code and stack, and `causes` (what it
 * wraps, each with its code). `causes: false` leaves the list out, for a
 * caller that tells the chain itself (lib/log-outage.ts: `cause`, on one
 * line), so a line tells it once.
 */
export function logError(message: string, err: unknown, fields: Record<string, unknown> = {}, options: { causes?: boolean } = {}): void {
  logger().error({ ...fields, ...errorFields(err, options.causes ?? true) }, redactText(message));
}

export function logInfo(message: string, fields: Record<string, unknown> = {}): void {
  logger().info(fields, redactText(message));
}

/** Something went wrong that the service absorbed (a fallback answered instead); never silenced. */
export function logWarn(message: string, fields: Record<string, unknown> = {}): void {
  logger().warn(fields, redactText(message));
}
