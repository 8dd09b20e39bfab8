// Small Response builders shared by every handler.
import type { AppError } from '@/lib/errors';
import { metrics } from '@/lib/metrics';

export function json(body: unknown, init: { status?: number; headers?: HeadersInit } = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('Content-Type', 'application/json; charset=utf-8');
  return new Response(JSON.stringify(body), { status: init.status ?? 200, headers });
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
  return new Response(text, { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8' } });
}
