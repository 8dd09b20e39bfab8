// Outbound webhooks from a verb's transaction: the delivery rows are inserted
// in it (an outbox), and the worker is kicked once it committed. An app with
// no endpoint for the types runs nothing.
import { insertDeliveries, outboxRows, wantsAny, type EndpointsByType, type Notice } from '@/lib/outbound/outbox';
import { kickOutbound } from '@/lib/outbound/worker';
import type { TxContext } from '../context';

export async function notify(tx: TxContext, endpoints: EndpointsByType, scope: { appId: string; userId: string }, notices: Notice[], now: number): Promise<void> {
  if (!wantsAny(endpoints, notices.map((n) => n.type))) return;
  const rows = outboxRows(endpoints, notices);
  await insertDeliveries(tx.uow.tx, scope, rows, now);
  tx.uow.afterCommit(async () => kickOutbound());
}
