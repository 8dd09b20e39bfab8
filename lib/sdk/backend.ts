// Server-side entry point of the SDK, for a game BACKEND: signing webhook
// deliveries. Never import it into a game client: the webhook secret must stay
// on the server. Web Crypto only, so it runs in Node 20+, Deno, Bun and edge
// runtimes. The client entry point (index.ts) does not include it.

import type { TokenRequest, TokenResponse } from './contract-types';

const encoder = new TextEncoder();

function concat(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(new ArrayBuffer(a.length + b.length));
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/**
 * The `X-Webhook-Signature` value of a delivery: `v1=` and the hex
 * HMAC-SHA256 of `${timestamp}.${body}` keyed with the app's webhook secret.
 * `body` must be exactly the bytes sent (sign the string you send, not an
 * object serialised again later); `timestamp` is Unix milliseconds, the value
 * of `X-Webhook-Timestamp`.
 */
export async function signWebhook(secret: string, body: string | Uint8Array, timestamp: number | string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, concat(encoder.encode(`${timestamp}.`), bytes)));
  return `v1=${Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export interface WebhookHeadersInput {
  appId: string;
  secret: string;
  /** The exact body to send. */
  body: string | Uint8Array;
  /** Unique per delivery and kept for its retries (its idempotency key). */
  webhookId: string;
  /** Unix ms; default now. A retry may re-sign with a fresh timestamp under the same webhookId. */
  timestamp?: number;
}

/** The four headers of a signed delivery, plus Content-Type, for POST /v1/webhook/incoming. */
export async function webhookHeaders(input: WebhookHeadersInput): Promise<Record<string, string>> {
  const timestamp = String(input.timestamp ?? Date.now());
  return {
    'Content-Type': 'application/json',
    'X-App-Id': input.appId,
    'X-Webhook-Id': input.webhookId,
    'X-Webhook-Timestamp': timestamp,
    'X-Webhook-Signature': await signWebhook(input.secret, input.body, timestamp),
  };
}

/** The fetch this module calls (the global one by default). */
type FetchLike = (input: string, init: { method: string; headers: Record<string, string>; body: string }) => Promise<Response>;

/**
 * POST /v1/auth/token from the game backend: a player's access token, and
 * (optionally) their `attributes` merged first (string, number or boolean
 * values; null deletes a key; `timezone` an IANA zone). The app secret never
 * leaves the backend. Throws with the service's error code on a non-200.
 */
export async function issueUserToken(
  baseUrl: string,
  request: TokenRequest,
  fetchImpl: FetchLike = (input, init) => fetch(input, init),
): Promise<TokenResponse> {
  const res = await fetchImpl(`${baseUrl.replace(/\/+$/, '')}/v1/auth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(request),
  });
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`POST /v1/auth/token answered ${res.status} ${String(body.error ?? '')}: ${String(body.message ?? '')}`);
  return body as unknown as TokenResponse;
}
