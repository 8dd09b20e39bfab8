// Outbound webhooks from a staff write's transaction: the app's endpoints for
// the types are read in the transaction (one short statement: staff writes
// are rare, and a caller's outer transaction on the embedded database could
// not load the catalog meanwhile), the delivery rows inserted in it (an
// outbox), and the worker kicked once it committed. The event and claim paths
// take the endpoints from the in-memory catalog instead (no statement).
import { and, eq, isNull } from 'drizzle-orm';
import { webhookEndpoints } from '@/db/schema';
import { insertDeliveries, outboxRows, wantsAny, type Notice } from '@/lib/outbound/outbox';
import { kickOutbound } from '@/lib/outbound/worker';
import type { TxContext } from '../context';

export async function notify(tx: TxContext, scope: { appId: string; userId: string }, notices: Notice[], now: number): Promise<void> {
  const rows = await tx.uow.tx
    .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.appId, scope.appId), isNull(webhookEndpoints.deletedAt)));
  const endpoints = new Map<string, string[]>();
  for (const e of rows) for (const type of e.events) endpoints.set(type, [...(endpoints.get(type) ?? []), e.id]);
  if (!wantsAny(endpoints, notices.map((n) => n.type))) return;
  await insertDeliveries(tx.uow.tx, scope, outboxRows(endpoints, notices), now);
  tx.uow.afterCommit(async () => kickOutbound());
}
