// acceptDelivery: a verified webhook delivery applied, all of its user
// attribute updates and events (the updates first), or none. The whole
// delivery is ONE database transaction: its id's idempotency row, every
// event (through recordEvents, the recording of POST /v1/events, with the
// events' own idempotency keys) and the stored answer commit together. A
// crash or an error half-way rolls everything back, so a delivery is always
// either applied (and its id answers the stored response) or not at all (and
// a retry applies it). Stream messages are published after commit.
import { isDeadlock } from '@/lib/errors';
import { checkEventTimes, type RecordEventInput } from '@/lib/events/recording';
import { cachedOutcome, runIdempotent, type IdempotencyScope, type Outcome } from '@/lib/idempotency/run-idempotent';
import type { AttributesUpdate } from '@/lib/contract/attributes';
import type { Catalog } from '@/lib/catalog/catalog';
import { forgetUserState } from '@/lib/progress/user-state';
import { lockUsers } from '@/lib/progress/records';
import { publishInOrder } from '@/lib/updates/publish';
import { applyAttributeUpdate } from '@/lib/users/attributes';
import { claimSignature, storeSignatureAnswer, type DeliveryResponse } from '@/lib/webhook/delivery-signature';
import type { ServiceContext } from '../context';
import { recordEvents } from '../events/record-events';

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
  /**
   * The caller's admission (the app's rate limit): called once the delivery
   * is known not to be a cached replay, before anything is written; throws to
   * refuse it.
   */
  admit?: (eventCount: number) => Promise<void>;
}

/** Attempts of a delivery chosen as a deadlock's victim before its error is answered (500). */
const DEADLOCK_ATTEMPTS = 3;

export async function acceptDelivery({ ctx, input }: { ctx: ServiceContext; input: DeliveryInput }): Promise<Outcome<DeliveryResponse>> {
  // The event-time bound of every event first, before the replay and the rate limit (lib/events/event-time.ts).
  checkEventTimes({ source: 'webhook', now: () => ctx.now() }, input.events);
  const scope = { appId: ctx.appId, userId: null, key: `webhook:${input.webhookId}`, requestHash: input.requestHash };
  const cached = await cachedOutcome<DeliveryResponse>(scope);
  if (cached) return cached;
  // The limit counts writes: each event and each user update.
  await input.admit?.(input.events.length + input.users.length);
  // Read before the transaction: the embedded database has one connection.
  const catalog = ctx.catalog ?? (await ctx.deps.catalog(ctx.appId));
  // The delivery locks its users in one sorted order, as the group commit of single events does
  // (lib/events/write-batch.ts); a writer that takes shared rows in another order (another instance's, a
  // future one) can still deadlock with it, and PostgreSQL then rolls one back whole. The delivery then
  // runs its transaction again (nothing of the rolled-back attempt remains, and nothing was published:
  // after-commit steps run only after a commit).
  for (let attempt = 1; ; attempt++) {
    try {
      return await deliverOnce(ctx, scope, input, catalog);
    } catch (err) {
      if (!isDeadlock(err) || attempt >= DEADLOCK_ATTEMPTS) throw err;
    }
  }
}

function deliverOnce(ctx: ServiceContext, scope: IdempotencyScope, input: DeliveryInput, catalog: Catalog): Promise<Outcome<DeliveryResponse>> {
  const { appId } = ctx;
  return runIdempotent<DeliveryResponse>(scope, async (uow) => {
    const original = await claimSignature(uow.tx, appId, input.signature, input.requestHash);
    if (original) return { ...original, replay: 'db-hit' };
    if (input.users.length > 0) {
      // Every user of the delivery locked first, in one order (recordEvents locks the same set again: a no-op).
      await lockUsers(uow.tx, appId, [...input.users.map((u) => u.userId), ...input.events.map((e) => e.event.userId)]);
      const now = ctx.now();
      for (const [index, { userId, attributes }] of input.users.entries()) {
        const { seq } = await applyAttributeUpdate(uow.tx, { appId, userId, field: `users[${index}].attributes` }, attributes, now);
        uow.afterCommit(async () => {
          forgetUserState(appId, userId);
          await publishInOrder(appId, userId, seq, []);
        });
      }
    }
    const tx = { ...ctx, uow, catalog, deps: { ...ctx.deps, db: uow.tx } };
    const recorded = await recordEvents({ ctx: tx, input: { events: input.events, source: 'webhook' } });
    const body: DeliveryResponse = {
      accepted: true,
      results: recorded.map((r) => ({ eventId: r.eventId, missionsUpdated: r.missionsUpdated })),
    };
    await storeSignatureAnswer(uow.tx, appId, input.signature, 200, body);
    return { status: 200, body };
  });
}
