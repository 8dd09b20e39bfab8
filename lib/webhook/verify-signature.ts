// Authenticates a webhook delivery: `X-Webhook-Signature: v1=<hex>` must be
// HMAC-SHA256(app webhook secret, `${X-Webhook-Timestamp}.${raw body bytes}`),
// with the timestamp (Unix ms) within 5 minutes of the server's clock. Every
// failure is 401 invalid_signature; unknown apps and wrong signatures get the
// same answer and the same work (an HMAC and a constant-time compare).
import { timingSafeEqual } from 'node:crypto';
import type { DbOrTx } from '@/db/client';
import { findApp } from '@/lib/apps/apps';
import { webhookSecretsOf } from '@/lib/apps/webhook-secret';
import { AppError } from '@/lib/errors';
import { computeSignature } from '@/lib/signature';

const SIGNATURE_TOLERANCE_MS = 5 * 60 * 1000;
const SIGNATURE = /^v1=([0-9a-f]{64})$/;
const TIMESTAMP = /^[0-9]{1,16}$/;
const APP_ID = /^[A-Za-z0-9_.:-]{1,64}$/;
/** Stands in for the secret of an app that does not exist, so that case costs the same. */
const NO_SUCH_APP_SECRET = 'questline-no-such-app-webhook-secret';

export interface SignedHeaders {
  appId: string | null;
  timestamp: string | null;
  signature: string | null;
}

export interface CheckedHeaders {
  appId: string;
  timestamp: string;
  /** The 32 bytes of the signature. */
  mac: Buffer;
}

const refuse = (message: string) => new AppError('invalid_signature', message);

/** The cheap checks, before the body is read: headers present and well-formed, timestamp fresh. */
export function checkSignedHeaders(headers: SignedHeaders, now: number): CheckedHeaders {
  const { appId, timestamp, signature } = headers;
  if (!appId || !APP_ID.test(appId)) throw refuse('X-App-Id: missing or not an app id');
  if (!timestamp || !TIMESTAMP.test(timestamp)) throw refuse('X-Webhook-Timestamp: missing or not a Unix time in milliseconds');
  if (Math.abs(now - Number(timestamp)) > SIGNATURE_TOLERANCE_MS) {
    throw refuse('X-Webhook-Timestamp: more than 5 minutes away from the server clock (Unix milliseconds expected)');
  }
  const match = SIGNATURE.exec(signature?.trim().toLowerCase() ?? '');
  if (!match) throw refuse('X-Webhook-Signature: missing or not v1=<64 hex digits>');
  return { appId, timestamp, mac: Buffer.from(match[1], 'hex') };
}

/**
 * Answers the app when the signature matches its current webhook secret, or
 * the previous one during its grace period; throws 401 otherwise.
 */
export async function verifySignature(
  db: DbOrTx,
  headers: CheckedHeaders,
  rawBody: Uint8Array,
  now: number,
): Promise<{ appId: string; /** The app's own webhook limit (events per minute); null: the default. */ webhookEventsPerMinute: number | null }> {
  const app = await findApp(db, headers.appId);
  const secrets = app ? webhookSecretsOf(app, now) : [NO_SUCH_APP_SECRET];
  let matched = false;
  // Every candidate secret is tried (no early exit), each compare in constant time.
  for (const secret of secrets) {
    if (timingSafeEqual(computeSignature(secret, headers.timestamp, rawBody), headers.mac)) matched = true;
  }
  if (!app || !matched) throw refuse('The signature does not match this app and body');
  return { appId: app.id, webhookEventsPerMinute: app.webhookEventsPerMinute };
}
