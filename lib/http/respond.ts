// Small Response builders shared by every handler.
import type { AppError } from '@/lib/errors';
import { metrics } from '@/lib/metrics';

/**
 * The text of the Responses built by json(): our Node server writes it with
 * its Content-Length in one socket write, instead of reading the Response's
 * body stream and sending it chunked (lib/http/node-server.ts).
 */
const bodyTexts = new WeakMap<Response, string>();

/** The body text of a Response built by json(), else undefined (read its body stream). */
export function knownBodyText(res: Response): string | undefined {
  return bodyTexts.get(res);
}

export function json(body: unknown, init: { status?: number; headers?: HeadersInit } = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('Content-Type', 'application/json; charset=utf-8');
  const text = JSON.stringify(body);
  const res = new Response(text, { status: init.status ?? 200, headers });
  bodyTexts.set(res, text);
  return res;
}

/** The answer of an idempotent write: a replay carries X-Idempotent-Replay (`hit` or `db-hit`). */
export function idempotentJson(outcome: { status: number; body: unknown; replay: 'hit' | 'db-hit' | null }): Response {
  return json(outcome.body, { status: outcome.status, headers: outcome.replay ? { 'X-Idempotent-Replay': outcome.replay } : {} });
}

/** The spec's error body: `{ error, message? }` plus any extra fields (retryAfterMs). */
export function errorResponse(error: AppError): Response {
  if (error.status === 429) metrics().rateLimited.inc({ code: error.code });
  const body: Record<string, unknown> = { error: error.code };
  if (error.hasMessage) body.message = error.message;
  Object.assign(body, error.extra);
  return json(body, { status: error.status, headers: error.headers });
}

/** A 200 answer whose JSON text is already built (the mission list splices pre-serialized pieces). */
export function jsonText(text: string): Response {
  const res = new Response(text, { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8' } });
  bodyTexts.set(res, text);
  return res;
}
