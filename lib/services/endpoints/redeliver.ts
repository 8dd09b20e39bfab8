// Sends a delivery again (a manual retry): pending, due now, under the same
// Questline-Webhook-Id and body, with a fresh 24 h of retries. A delivered one
// is sent again too (the receiver deduplicates by id). Audited as
// endpoint.redeliver; the worker is kicked after commit.
import { and, eq } from 'drizzle-orm';
import { webhookDeliveries } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import type { Delivery } from '@/lib/contract/outbound';
import { AppError } from '@/lib/errors';
import { kickOutbound } from '@/lib/outbound/worker';
import { actorLabel, withTransaction, type ServiceContext } from '../context';
import { deliveryOf, endpointTarget, findEndpoint } from './shared';

export async function redeliver({ ctx, input }: { ctx: ServiceContext; input: { endpointId: string; deliveryId: string } }): Promise<{ delivery: Delivery }> {
  const now = ctx.now();
  return withTransaction(ctx, async (tx) => {
    const db = tx.uow.tx;
    const endpoint = await findEndpoint(db, ctx.appId, input.endpointId);
    const [row] = await db
      .update(webhookDeliveries)
      .set({ status: 'pending', nextAttemptAt: now, retryingSince: now, lockedUntil: null })
      .where(and(eq(webhookDeliveries.appId, ctx.appId), eq(webhookDeliveries.endpointId, endpoint.id), eq(webhookDeliveries.id, input.deliveryId)))
      .returning();
    if (!row) throw new AppError('delivery_not_found', `No delivery "${input.deliveryId}" for endpoint "${endpoint.id}"`);
    await recordAudit(db, { actor: actorLabel(ctx.actor), action: 'endpoint.redeliver', appId: ctx.appId, target: endpointTarget(endpoint.id), after: { deliveryId: row.id, type: row.type } }, now);
    tx.uow.afterCommit(async () => kickOutbound());
    return { delivery: deliveryOf(row) };
  });
}
