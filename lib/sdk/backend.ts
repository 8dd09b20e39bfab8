// Server-side entry point of the SDK, for a game BACKEND: signing webhook
// deliveries, and verifying the notifications Questline sends to an endpoint
// (outbound webhooks: verifyWebhook). Never import it into a game client: the webhook secret must stay
// on the server. Web Crypto only, so it runs in Node 20+, Deno, Bun and edge
// runtimes. The client entry point (index.ts) does not include it.

import type { Notification, SpendRequest, SpendResponse, TokenRequest, TokenResponse } from './contract-types';
import { errorFromResponse } from './errors';

export type { Notification, SpendRequest, SpendResponse } from './contract-types';

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

/** How far a notification's Questline-Webhook-Timestamp may be from this clock (replays of older captures are refused). */
const NOTIFICATION_TOLERANCE_MS = 5 * 60 * 1000;

/** Thrown by verifyWebhook: the notification is not from Questline (or not for this secret), or too old. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | null {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === lower) return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
  }
  return null;
}

/** Constant-time comparison of two strings of hex digits. */
function sameHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Verifies a notification Questline POSTed to your endpoint (outbound
 * webhooks) and answers it parsed: `Questline-Webhook-Signature` must be
 * `v1=` + hex HMAC-SHA256 of `${Questline-Webhook-Timestamp}.${rawBody}`
 * with the endpoint's secret (the same scheme as signWebhook), the timestamp
 * within 5 minutes of `now`, and the body's `id` the Questline-Webhook-Id.
 * Pass the body exactly as received (the raw bytes or string, not a parsed
 * and re-serialised object). Deduplicate by `id`: a retry carries the same id.
 * Throws WebhookVerificationError otherwise.
 */
export async function verifyWebhook(secret: string, headers: HeaderSource, rawBody: string | Uint8Array, now: number = Date.now()): Promise<Notification> {
  const id = header(headers, 'Questline-Webhook-Id');
  const timestamp = header(headers, 'Questline-Webhook-Timestamp')?.trim() ?? '';
  const signature = header(headers, 'Questline-Webhook-Signature')?.trim().toLowerCase() ?? '';
  if (!id) throw new WebhookVerificationError('Questline-Webhook-Id is missing');
  if (!/^[0-9]{1,16}$/.test(timestamp)) throw new WebhookVerificationError('Questline-Webhook-Timestamp is missing or not Unix milliseconds');
  if (Math.abs(now - Number(timestamp)) > NOTIFICATION_TOLERANCE_MS) throw new WebhookVerificationError('Questline-Webhook-Timestamp is more than 5 minutes away from this clock');
  if (!/^v1=[0-9a-f]{64}$/.test(signature)) throw new WebhookVerificationError('Questline-Webhook-Signature is missing or not v1=<64 hex digits>');
  if (!sameHex(await signWebhook(secret, rawBody, timestamp), signature)) throw new WebhookVerificationError('The signature does not match this secret and body');
  const text = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  let body: Notification;
  try {
    body = JSON.parse(text) as Notification;
  } catch {
    throw new WebhookVerificationError('The body is not JSON');
  }
  if (body === null || typeof body !== 'object' || body.id !== id) throw new WebhookVerificationError('The body’s id is not the Questline-Webhook-Id');
  return body;
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

export interface SpendOptions {
  /** The service's base URL, e.g. https://questline.example.com. */
  baseUrl: string;
  appId: string;
  /** The app secret: sent as `Authorization: Basic base64(appId:appSecret)`. Give it or `webhookSecret`. */
  appSecret?: string;
  /** The webhook secret: the request is signed as a webhook delivery instead (the key then goes inside the signed body). */
  webhookSecret?: string;
  fetch?: FetchLike;
}

function basicCredentials(appId: string, appSecret: string): string {
  return btoa(Array.from(encoder.encode(`${appId}:${appSecret}`), (b) => String.fromCharCode(b)).join(''));
}

/**
 * POST /v1/balance/spend from the game backend: takes `amount` of `currency`
 * from the player's balance, once per `idempotencyKey` (reuse the key on a
 * retry: the first answer comes back). Answers the balance after and the
 * ledger row. Throws the SDK's typed errors (InsufficientBalanceError 409,
 * UserNotFoundError 404, ValidationError 400 for a currency the app does not
 * define, ...). Never call it from a game client: it needs a secret.
 */
export async function spend(
  options: SpendOptions,
  request: Omit<SpendRequest, 'idempotencyKey'>,
  idempotencyKey: string,
): Promise<SpendResponse> {
  const fetchImpl: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey };
  let body: string;
  if (options.appSecret !== undefined) {
    body = JSON.stringify(request);
    headers.Authorization = `Basic ${basicCredentials(options.appId, options.appSecret)}`;
  } else if (options.webhookSecret !== undefined) {
    body = JSON.stringify({ ...request, idempotencyKey });
    const timestamp = String(Date.now());
    headers['X-App-Id'] = options.appId;
    headers['X-Webhook-Timestamp'] = timestamp;
    headers['X-Webhook-Signature'] = await signWebhook(options.webhookSecret, body, timestamp);
  } else {
    throw new TypeError('spend: give appSecret or webhookSecret');
  }
  const res = await fetchImpl(`${options.baseUrl.replace(/\/+$/, '')}/v1/balance/spend`, { method: 'POST', headers, body });
  if (res.status !== 200) throw await errorFromResponse(res);
  return (await res.json()) as SpendResponse;
}
