// Applying a verified webhook delivery: all of its user attribute updates and
// events (the updates first), or none. The whole
// delivery is ONE database transaction: its id's idempotency row, every
// event (through recordEvent, the path of POST /v1/events, with the events'
// own idempotency keys) and the stored answer commit together. A crash or an
// error half-way rolls everything back, so a delivery is always either
// applied (and its id answers the stored response) or not at all (and a
// retry applies it). Stream messages are published at the end, before commit,
// and analytics after commit, as for single events.
import { and, eq } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { idempotencyKeys } from '@/db/schema';
import { getCatalog, type Catalog } from '@/lib/catalog/catalog';
import { isDeadlock } from '@/lib/errors';
import { recordEvents, type RecordEventInput } from '@/lib/events/record-event';
import { cachedOutcome, runIdempotent, type IdempotencyScope, type Outcome } from '@/lib/idempotency/run-idempotent';
import type { AttributesUpdate } from '@/lib/contract/attributes';
import { forgetRecords } from '@/lib/events/user-records-cache';
import { lockUsers } from '@/lib/progress/records';
import { serviceNow } from '@/lib/clock';
import { publishInOrder } from '@/lib/updates/publish';
import { applyAttributeUpdate } from '@/lib/users/attributes';

interface DeliveryResult {
  eventId: string;
  missionsUpdated: string[];
}

export interface DeliveryResponse {
  accepted: true;
  results: DeliveryResult[];
}

export interface DeliveryInput {
  /** X-Webhook-Id: the delivery's idempotency key. */
  webhookId: string;
  /** The verified signature (hex): identical signed bytes are the same delivery, whatever their id. */
  signature: string;
  /** Identifies the request (same id, other events: 422). */
  requestHash: string;
  events: RecordEventInput[];
  /** Attribute updates, applied in order before the events, in the same transaction. */
  users: Array<{ userId: string; attributes: AttributesUpdate }>;
}

export interface DeliveryContext {
  appId: string;
  /**
   * Called once the delivery is known not to be a cached replay, before
   * anything is written; throws to refuse it (the rate limit).
   */
  admit?: (eventCount: number) => Promise<void>;
}

const signatureKey = (signature: string) => `webhook-signature:${signature}`;

/**
 * The signature is not a secret, and it covers the timestamp and body but not
 * X-Webhook-Id: without this, a captured delivery could be re-sent within the
 * 5 minutes under a new id and be applied twice. Claims the signature for this
 * delivery, or answers the delivery that already holds it.
 */
async function claimSignature(tx: Tx, appId: string, signature: string, requestHash: string): Promise<{ status: number; body: DeliveryResponse } | null> {
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

async function storeSignatureAnswer(tx: Tx, appId: string, signature: string, status: number, body: DeliveryResponse): Promise<void> {
  await tx
    .update(idempotencyKeys)
    .set({ status, response: JSON.stringify(body) })
    .where(and(eq(idempotencyKeys.appId, appId), eq(idempotencyKeys.userId, ''), eq(idempotencyKeys.key, signatureKey(signature))));
}

export async function acceptDelivery({ ctx, input }: { ctx: DeliveryContext; input: DeliveryInput }): Promise<Outcome<DeliveryResponse>> {
  const { appId } = ctx;
  const scope = { appId, userId: null, key: `webhook:${input.webhookId}`, requestHash: input.requestHash };
  const cached = await cachedOutcome<DeliveryResponse>(scope);
  if (cached) return cached;
  // The limit counts writes: each event and each user update.
  await ctx.admit?.(input.events.length + input.users.length);
  // Read before the transaction: the embedded database has one connection.
  const catalog = await getCatalog(appId);
  // The delivery locks its users in one sorted order, as the group commit of single events does
  // (lib/events/write-batch.ts); a writer that takes shared rows in another order (another instance's, a
  // future one) can still deadlock with it, and PostgreSQL then rolls one back whole. The delivery then
  // runs its transaction again (nothing of the rolled-back attempt remains, and nothing was published:
  // after-commit steps run only after a commit).
  for (let attempt = 1; ; attempt++) {
    try {
      return await deliverOnce(appId, scope, input, catalog);
    } catch (err) {
      if (!isDeadlock(err) || attempt >= DEADLOCK_ATTEMPTS) throw err;
    }
  }
}

/** Attempts of a delivery chosen as a deadlock's victim before its error is answered (500). */
const DEADLOCK_ATTEMPTS = 3;

function deliverOnce(appId: string, scope: IdempotencyScope, input: DeliveryInput, catalog: Catalog): Promise<Outcome<DeliveryResponse>> {
  return runIdempotent<DeliveryResponse>(scope, async (uow) => {
    const original = await claimSignature(uow.tx, appId, input.signature, input.requestHash);
    if (original) return { ...original, replay: 'db-hit' };
    if (input.users.length > 0) {
      // Every user of the delivery locked first, in one order (recordEvents locks the same set again: a no-op).
      await lockUsers(uow.tx, appId, [...input.users.map((u) => u.userId), ...input.events.map((e) => e.event.userId)]);
      const now = serviceNow();
      for (const [index, { userId, attributes }] of input.users.entries()) {
        const { seq } = await applyAttributeUpdate(uow.tx, { appId, userId, field: `users[${index}].attributes` }, attributes, now);
        uow.afterCommit(async () => {
          forgetRecords(appId, userId);
          await publishInOrder(appId, userId, seq, []);
        });
      }
    }
    const recorded = await recordEvents({ ctx: { appId, source: 'webhook', uow, catalog }, input: { events: input.events } });
    const body: DeliveryResponse = {
      accepted: true,
      results: recorded.map((r) => ({ eventId: r.eventId, missionsUpdated: r.missionsUpdated })),
    };
    await storeSignatureAnswer(uow.tx, appId, input.signature, 200, body);
    return { status: 200, body };
  });
}
