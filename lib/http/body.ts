// Reads a JSON body with a hard size cap, counting bytes as they arrive so a
// lying or absent Content-Length cannot get more than the cap into memory.
import { fieldPath } from '@/lib/contract/describe-issues';
import { AppError, type ErrorCode } from '@/lib/errors';
import { bufferedBody } from './node-request';

export const MAX_BODY_BYTES = 64 * 1024;

/**
 * The client cut its own request body (closed the connection mid-upload):
 * nobody waits for an answer, and nothing of ours failed. Logged at info and
 * counted as 499, never as a 5xx (lib/http/handler.ts).
 */
class ClientAbortError extends Error {
  // No cause kept: the socket's ECONNRESET along a cause chain reads as "dependency unavailable" (lib/errors.ts).
  constructor() {
    super('The client closed the connection before its request body was complete');
    this.name = 'ClientAbortError';
  }
}

/** Node's error for a request whose connection closed mid-body ('aborted', ECONNRESET), or a request whose signal says the client left. */
function isClientAbort(err: unknown, req: Request): boolean {
  if (req.signal.aborted) return true;
  const e = err as { code?: unknown; message?: unknown } | null;
  return e !== null && typeof e === 'object' && e.code === 'ECONNRESET' && e.message === 'aborted';
}

/** The body's exact bytes (a signature is checked over these, never over a re-encoding). */
export async function readRawBytes(req: Request, maxBytes = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    throw new AppError('payload_too_large', `Request body is larger than ${maxBytes} bytes`);
  }
  // The Node server's request (lib/http/node-request.ts): the bytes it already read, no stream.
  const buffered = bufferedBody(req);
  if (buffered !== undefined) {
    if (buffered.length > maxBytes) throw new AppError('payload_too_large', `Request body is larger than ${maxBytes} bytes`);
    return buffered;
  }
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (err) {
      throw isClientAbort(err, req) ? new ClientAbortError() : err;
    }
    const { done, value } = chunk;
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new AppError('payload_too_large', `Request body is larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export async function readRawBody(req: Request, maxBytes = MAX_BODY_BYTES): Promise<string> {
  return (await readRawBytes(req, maxBytes)).toString('utf8');
}

/** Parses the body as JSON; malformed JSON is a validation failure with the given code. */
export async function readJsonBody(
  req: Request,
  options: { invalidCode?: ErrorCode; maxBytes?: number } = {},
): Promise<{ raw: string; value: unknown }> {
  const raw = await readRawBody(req, options.maxBytes);
  return { raw, value: parseJsonText(raw, options.invalidCode) };
}

/** JSON text → value, refusing what the database cannot store (see unstorablePart). */
export function parseJsonText(raw: string, invalidCode: ErrorCode = 'validation_error'): unknown {
  if (raw.trim() === '') throw new AppError(invalidCode, 'Request body must be a JSON object');
  let value: unknown;
  try {
    value = JSON.parse(raw) as unknown;
  } catch {
    throw new AppError(invalidCode, 'Request body is not valid JSON');
  }
  const bad = unstorablePart(value);
  if (bad !== null) throw new AppError(invalidCode, `${bad.path || 'body'}: ${bad.problem}`);
  return value;
}

/** NUL, a high surrogate not followed by a low one, or a low one not preceded by a high one. */
export const UNSTORABLE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Deeper bodies are refused: request hashing and storage walk them recursively. */
const MAX_JSON_DEPTH = 32;
export const BAD_TEXT = 'text must not contain NUL characters (\\u0000) or unpaired surrogates';

const BAD_NUMBER = 'number is out of range (JSON numbers must be finite doubles)';

/**
 * The first part of a body PostgreSQL cannot store, or that nests deeper than
 * MAX_JSON_DEPTH: a string (value or key) with U+0000 or a lone UTF-16
 * surrogate. Valid JSON can carry both, so without this check they reach the
 * database and fail there as a 500. Also a number JSON text can write but a
 * double cannot hold (`1e999` parses to Infinity, which JSON.stringify and
 * jsonb would store as null): refused, never stored altered.
 */
function unstorablePart(root: unknown): { path: string; problem: string } | null {
  // Iterative: a 64 KiB body can nest deeper than the call stack allows.
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: '', depth: 0 }];
  // The notation of every error message (lib/contract/describe-issues.ts): `events[0].payload.deep[1].x`.
  const join = (path: string, key: string | number) => fieldPath(path, [key]);
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { value, path, depth } = item;
    if (typeof value === 'string') {
      if (UNSTORABLE_TEXT.test(value)) return { path, problem: BAD_TEXT };
      continue;
    }
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return { path, problem: BAD_NUMBER };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return { path, problem: `nests deeper than ${MAX_JSON_DEPTH} levels` };
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: join(path, i), depth: depth + 1 });
    } else {
      const entries = Object.entries(value);
      for (const [key] of entries) if (UNSTORABLE_TEXT.test(key)) return { path, problem: BAD_TEXT };
      for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i][1], path: join(path, entries[i][0]), depth: depth + 1 });
    }
  }
  return null;
}
