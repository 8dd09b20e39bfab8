// The webhook signature scheme, shared by inbound deliveries
// (lib/webhook/verify-signature.ts) and outbound notifications
// (lib/outbound/worker.ts): below both, so neither folder imports the other.
import { createHmac } from 'node:crypto';

/** HMAC-SHA256 of `${timestamp}.${raw body}`. */
export function computeSignature(secret: string, timestamp: string, rawBody: Uint8Array): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(rawBody).digest();
}
