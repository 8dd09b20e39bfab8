// A webhook delivery's signature as a key (lib/services/webhook/accept-delivery.ts):
// identical signed bytes are the same delivery whatever their X-Webhook-Id,
// so a captured delivery re-sent under a new id answers the first one's
// stored response instead of being applied twice.
import { and, eq } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { idempotencyKeys } from '@/db/schema';

interface DeliveryResult {
  eventId: string;
  missionsUpdated: string[];
}

export interface DeliveryResponse {
  accepted: true;
  results: DeliveryResult[];
}

const signatureKey = (signature: string) => `webhook-signature:${signature}`;

/**
 * The signature is not a secret, and it covers the timestamp and body but not
 * X-Webhook-Id: without this, a captured delivery could be re-sent within the
 * 5 minutes under a new id and be applied twice. Claims the signature for this
 * delivery, or answers the delivery that already holds it.
 */
export async function claimSignature(tx: Tx, appId: string, signature: string, requestHash: string): Promise<{ status: number; body: DeliveryResponse } | null> {
  const key = signatureKey(signature);
  const claimed = await tx
    .insert(idempotencyKeys)
    .values({ appId, userId: '', key, requestHash, status: 0, response: {}, createdAt: Date.now() })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (claimed.length > 0) return null;
  const [row] = await tx
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.appId, appId), eq(idempotencyKeys.userId, ''), eq(idempotencyKeys.key, key)));
  const body = (typeof row.response === 'string' ? JSON.parse(row.response) : row.response) as DeliveryResponse;
  return { status: row.status, body };
}

export async function storeSignatureAnswer(tx: Tx, appId: string, signature: string, status: number, body: DeliveryResponse): Promise<void> {
  await tx
    .update(idempotencyKeys)
    .set({ status, response: JSON.stringify(body) })
    .where(and(eq(idempotencyKeys.appId, appId), eq(idempotencyKeys.userId, ''), eq(idempotencyKeys.key, signatureKey(signature))));
}
