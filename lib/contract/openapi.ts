// The rules every operation of both OpenAPI documents (GET /v1/openapi.json,
// GET /api/admin/openapi.json) is built by, so a new route gets them without
// anyone remembering: `operation()` refuses an operation without an
// operationId, tags, a summary, a description or examples for its request and
// success bodies, and adds what every answer of the server really has:
// X-Request-Id on every response; 400 (a path escape that does not decode, or
// a path or query value PostgreSQL cannot store), 500 and 503 on every
// operation; 413 on every operation with a body; Retry-After on every 429;
// the RateLimit-* headers where a limiter runs; X-Idempotent-Replay on
// idempotent writes. `completeDocument()` checks the whole: unique
// operationIds, every tag declared. The lint of both documents (Redocly and
// Spectral) runs in lib/http/openapi-lint.test.ts.
import { ERRORS, type ErrorCode } from './errors';

type Json = Record<string, unknown>;

/** A success answer: JSON with a schema and a real example, a stream, a file (binary of one media type), or no body. */
interface Answer {
  description: string;
  json?: { schema: Json; example: unknown };
  stream?: { schema: Json; example: string };
  file?: { mediaType: string };
}

/** An error an operation can answer, optionally with what it means here. */
type ErrorSpec = ErrorCode | readonly [ErrorCode, string];

/** The Idempotency-Key request header of every write that can be retried (/v1 and admin). */
export const idempotencyKeyHeader = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255 },
  description: 'Applies the write once: a retry with the same key answers the first answer (X-Idempotent-Replay); the same key with another body is 422 idempotency_key_reused',
};

export interface OperationSpec {
  operationId: string;
  tags: readonly [string, ...string[]];
  summary: string;
  description: string;
  /** 'public': no credentials (`security: []`); otherwise the document's default requirements. */
  public?: boolean;
  /** Overrides the document's requirements of a non-public operation (another scheme than its default). */
  security?: Json[];
  parameters?: Json[];
  requestBody?: {
    required: boolean;
    schema: Json;
    example: unknown;
    description?: string;
    /** The code of a body that fails validation (default validation_error). */
    invalidCode?: ErrorCode;
  };
  /** The success answers, by status. */
  success: Record<string, Answer>;
  /** The error codes this operation answers beyond the ones every operation has. */
  errors?: readonly ErrorSpec[];
  /** A limiter runs before the work: its answers (but a 401) may carry RateLimit-Limit, -Remaining and -Reset. */
  rateLimited?: boolean;
  /** An idempotent write: a replay answers the original response with X-Idempotent-Replay. */
  idempotent?: boolean;
}

/** What differs between the two documents: the error body's schema and the errors of authentication. */
export interface DocumentRules {
  errorSchema: Json;
  /** The security requirements of every non-public operation. */
  security: Json[];
  /** The errors every authenticated operation can answer. */
  authErrors: readonly ErrorSpec[];
}

/** The headers of the answers, declared once under components.headers. */
const responseHeaders = {
  'X-Request-Id': {
    description: 'The request id (the caller’s own X-Request-Id when it sent a valid one); quote it when reporting a problem',
    required: true,
    schema: { type: 'string' },
  },
  'Retry-After': { description: 'Whole seconds to wait before retrying (rounded up from retryAfterMs)', schema: { type: 'string', pattern: '^[0-9]+$' } },
  'RateLimit-Limit': { description: 'Requests allowed in the current window', schema: { type: 'string', pattern: '^[0-9]+$' } },
  'RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'string', pattern: '^[0-9]+$' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'string', pattern: '^[0-9]+$' } },
  'X-Idempotent-Replay': {
    description: 'Present on a replay of an idempotent write: `hit` (answer cache) or `db-hit` (the stored result); the body is the original answer',
    schema: { type: 'string', enum: ['hit', 'db-hit'] },
  },
} as const;
type HeaderName = keyof typeof responseHeaders;
const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'] as const;
const headerRef = (name: HeaderName) => ({ $ref: `#/components/headers/${name}` });

/** Answers of every operation: the path or a query value can be refused, and the server or a dependency can fail. */
const EVERY_OPERATION: readonly ErrorSpec[] = [
  ['validation_error', 'a path escape that does not decode (%ff), or a path or query value with NUL or an unpaired surrogate'],
  'internal_error',
  'unavailable',
];

/** Answers of every operation with a body: a body that is not JSON or fails its schema, and one over the size limit. */
function bodyErrors(invalidCode: ErrorCode): ErrorSpec[] {
  return [[invalidCode, 'the body is not JSON or fails the schema (the message names the field)'], 'payload_too_large'];
}

function fail(operationId: string, what: string): never {
  throw new Error(`OpenAPI operation ${operationId || '(no operationId)'}: ${what} (lib/contract/openapi.ts)`);
}

function errorExample(code: ErrorCode, note: string | undefined): Json {
  const value: Json = { error: code, message: note ? `${ERRORS[code].description}: ${note}` : ERRORS[code].description };
  if (ERRORS[code].status === 429) value.retryAfterMs = 30_000;
  return value;
}

/** The error answers by status: each lists its codes in backticks with what they mean, with one example per code. */
function errorAnswers(specs: readonly ErrorSpec[], rules: DocumentRules, rateLimited: boolean): Record<string, Json> {
  const byStatus = new Map<number, Map<ErrorCode, string[]>>();
  for (const spec of specs) {
    const [code, note] = typeof spec === 'string' ? [spec as ErrorCode, undefined] : spec;
    const status = ERRORS[code].status;
    const codes = byStatus.get(status) ?? new Map<ErrorCode, string[]>();
    const notes = codes.get(code) ?? [];
    if (note && !notes.includes(note)) notes.push(note);
    codes.set(code, notes);
    byStatus.set(status, codes);
  }
  return Object.fromEntries(
    [...byStatus].sort(([a], [b]) => a - b).map(([status, codes]) => {
      const headers: Json = { 'X-Request-Id': headerRef('X-Request-Id') };
      if (status === 429) headers['Retry-After'] = headerRef('Retry-After');
      // Answers after the limiter counted the request carry its state; a rate_limited 429 always does.
      if (rateLimited || codes.has('rate_limited')) for (const name of RATE_LIMIT_HEADERS) headers[name] = headerRef(name);
      const description = [...codes]
        .map(([code, notes]) => `\`${code}\`: ${ERRORS[code].description}${notes.length ? ` (here: ${notes.join('; ')})` : ''}`)
        .join('; ');
      const examples = Object.fromEntries([...codes].map(([code, notes]) => [code, { summary: code, value: errorExample(code, notes[0]) }]));
      return [String(status), { description, headers, content: { 'application/json': { schema: rules.errorSchema, examples } } }];
    }),
  );
}

/**
 * One operation, checked and completed by the rules above. Throws when the
 * operationId, tags, summary, description or an example is missing.
 */
export function operation(spec: OperationSpec, rules: DocumentRules): Json {
  const id = spec.operationId;
  if (!/^[a-z][A-Za-z0-9]*$/.test(id ?? '')) fail(id, 'needs an operationId in camelCase');
  if (!spec.tags?.length || spec.tags.some((t) => !t)) fail(id, 'needs tags');
  if (!spec.summary?.trim()) fail(id, 'needs a summary');
  if (!spec.description?.trim()) fail(id, 'needs a description');
  if (spec.requestBody && spec.requestBody.example === undefined) fail(id, 'needs an example of its request body');
  const successes = Object.entries(spec.success ?? {});
  if (!successes.length || successes.some(([status]) => !/^[23]\d\d$/.test(status))) fail(id, 'needs its success answers (2xx or 3xx)');
  for (const [status, answer] of successes) {
    if (answer.json && answer.json.example === undefined) fail(id, `needs an example of its ${status} answer`);
    if (answer.stream && !answer.stream.example) fail(id, `needs an example of its ${status} stream`);
  }

  const successHeaders: Json = { 'X-Request-Id': headerRef('X-Request-Id') };
  if (spec.rateLimited) for (const name of RATE_LIMIT_HEADERS) successHeaders[name] = headerRef(name);
  if (spec.idempotent) successHeaders['X-Idempotent-Replay'] = headerRef('X-Idempotent-Replay');
  const responses: Json = Object.fromEntries(
    successes.map(([status, answer]) => {
      const content = answer.json
        ? { 'application/json': { schema: answer.json.schema, example: answer.json.example } }
        : answer.stream
          ? { 'text/event-stream': { schema: answer.stream.schema, example: answer.stream.example } }
          : answer.file
            ? { [answer.file.mediaType]: { schema: { type: 'string', format: 'binary' } } }
            : undefined;
      return [status, { description: answer.description, headers: successHeaders, ...(content ? { content } : {}) }];
    }),
  );
  const errors = [...EVERY_OPERATION, ...(spec.public ? [] : rules.authErrors), ...(spec.requestBody ? bodyErrors(spec.requestBody.invalidCode ?? 'validation_error') : []), ...(spec.errors ?? [])];
  Object.assign(responses, errorAnswers(errors, rules, spec.rateLimited ?? false));

  return {
    operationId: id,
    tags: [...spec.tags],
    summary: spec.summary,
    description: spec.description,
    security: spec.public ? [] : (spec.security ?? rules.security),
    ...(spec.parameters?.length ? { parameters: spec.parameters } : {}),
    ...(spec.requestBody
      ? {
          requestBody: {
            required: spec.requestBody.required,
            ...(spec.requestBody.description ? { description: spec.requestBody.description } : {}),
            content: { 'application/json': { schema: spec.requestBody.schema, example: spec.requestBody.example } },
          },
        }
      : {}),
    responses,
  };
}

/** The whole document: checks operationIds are unique and every tag is declared; declares the response headers. */
export function completeDocument<D extends { tags: { name: string; description: string }[]; paths: Record<string, Record<string, Json>>; components: Json }>(doc: D): D {
  const ids = new Set<string>();
  const tags = new Set(doc.tags.map((t) => t.name));
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const id = op.operationId as string;
      if (ids.has(id)) fail(id, `is used twice (again at ${method.toUpperCase()} ${path})`);
      ids.add(id);
      for (const tag of op.tags as string[]) if (!tags.has(tag)) fail(id, `tag "${tag}" is not declared in the document's tags`);
      for (const name of (path.match(/\{(\w+)\}/g) ?? []).map((p) => p.slice(1, -1))) {
        const params = (op.parameters ?? []) as { name: string; in: string }[];
        if (!params.some((p) => p.in === 'path' && p.name === name)) fail(id, `declares no path parameter ${name}`);
      }
    }
  }
  // Only the headers some answer uses (an unused component is a lint warning).
  const text = JSON.stringify(doc.paths);
  const headers = Object.fromEntries(Object.entries(responseHeaders).filter(([name]) => text.includes(`"#/components/headers/${name}"`)));
  return { ...doc, components: { ...doc.components, headers } };
}
