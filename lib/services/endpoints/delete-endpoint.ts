// Deletes an endpoint: it receives nothing more (its pending deliveries are
// marked failed, "the endpoint was deleted"); its delivery log stays readable.
// Audited as endpoint.delete; every instance's catalog learns of it.
import { and, eq } from 'drizzle-orm';
import { webhookDeliveries, webhookEndpoints } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import { invalidateCatalog } from '@/lib/catalog/catalog';
import { actorLabel, withTransaction, type ServiceContext } from '../context';
import { endpointTarget, findEndpoint } from './shared';

export async function deleteEndpoint({ ctx, input }: { ctx: ServiceContext; input: { endpointId: string } }): Promise<void> {
  const now = ctx.now();
  await withTransaction(ctx, async (tx) => {
    const db = tx.uow.tx;
    const row = await findEndpoint(db, ctx.appId, input.endpointId);
    await db.update(webhookEndpoints).set({ deletedAt: now }).where(eq(webhookEndpoints.id, row.id));
    await db
      .update(webhookDeliveries)
      .set({ status: 'failed', nextAttemptAt: null, lastError: 'the endpoint was deleted' })
      .where(and(eq(webhookDeliveries.endpointId, row.id), eq(webhookDeliveries.status, 'pending')));
    await recordAudit(db, { actor: actorLabel(ctx.actor), action: 'endpoint.delete', appId: ctx.appId, target: endpointTarget(row.id), before: { url: row.url, events: row.events } }, now);
    tx.uow.afterCommit(() => invalidateCatalog(ctx.appId));
  });
}
