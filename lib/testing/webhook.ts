// Test support: signing and sending webhook deliveries the way a game backend
// does (node:crypto directly, not the server's own code), with every header
// overridable so tests can break one thing at a time.
import { createHmac, randomUUID } from 'node:crypto';
import type { TestApp, TestServer } from './test-server';

export function sign(secret: string, timestamp: string, body: string | Buffer): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')}`;
}

export interface DeliveryOptions {
  webhookId?: string;
  timestamp?: number | string;
  /** Signs with this secret instead of the app's. */
  secret?: string;
  /** Sent instead of the computed signature. */
  signature?: string;
  /** Sent instead of the signed body (a tampered delivery). */
  sentBody?: string | Buffer;
  /** Header overrides; null removes the header. */
  headers?: Record<string, string | null>;
}

export interface SentDelivery {
  res: Response;
  status: number;
  body: Record<string, unknown>;
  webhookId: string;
  rawBody: string | Buffer;
  timestamp: string;
  signature: string;
}

export async function sendDelivery(server: TestServer, app: TestApp, body: unknown, options: DeliveryOptions = {}): Promise<SentDelivery> {
  const rawBody = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  const timestamp = String(options.timestamp ?? Date.now());
  const webhookId = options.webhookId ?? `whk_${randomUUID()}`;
  const signature = options.signature ?? sign(options.secret ?? app.webhookSecret, timestamp, rawBody);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'X-App-Id': app.appId,
    'X-Webhook-Id': webhookId,
    'X-Webhook-Timestamp': timestamp,
    'X-Webhook-Signature': signature,
  };
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value === null) delete headers[name];
    else headers[name] = value;
  }
  const sent = options.sentBody ?? rawBody;
  const res = await fetch(`${server.url}/v1/webhook/incoming`, { method: 'POST', headers, body: typeof sent === 'string' ? sent : new Uint8Array(sent) });
  const text = await res.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = { text };
  }
  return { res, status: res.status, body: parsed, webhookId, rawBody, timestamp, signature };
}

/** An event of the delivery body. */
export function whEvent(userId: string, name = 'play', extra: Record<string, unknown> = {}) {
  return { userId, name, payload: {}, timestamp: Date.now(), ...extra };
}
