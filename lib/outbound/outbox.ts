// The outbox side of outbound webhooks: which delivery rows a change writes,
// in the same transaction (or the same statement) as the change. An app's
// endpoints by type come from its in-memory catalog (lib/catalog/catalog.ts),
// so an app with no endpoint for a type writes nothing and runs no extra
// statement. After commit, kickOutbound (./worker.ts) sends them.
import { randomUUID } from 'node:crypto';
import type { DbOrTx } from '@/db/client';
import { webhookDeliveries } from '@/db/schema';
import type { NotificationType } from '@/lib/contract/outbound';

/** What a change reports: a type and its data (null: the statement fills it in, e.g. a balance the same statement computed). */
export interface Notice {
  type: NotificationType;
  data: unknown;
  /** With a null data: the currency whose balance the statement fills in (a claim of a bundle credits several). */
  currency?: string;
}

/** One delivery row to write: a fresh id (the Questline-Webhook-Id), the endpoint, the type and its data. */
export interface OutboxRow {
  id: string;
  endpoint_id: string;
  type: NotificationType;
  data: unknown;
  currency?: string;
}

const newDeliveryId = () => `wh_${randomUUID().replaceAll('-', '')}`;

/** The endpoints of `appId` per type, as the catalog holds them. */
export type EndpointsByType = ReadonlyMap<string, readonly string[]>;

/** True when some endpoint receives one of `types` (the cheap check before building anything). */
export function wantsAny(endpoints: EndpointsByType, types: readonly NotificationType[]): boolean {
  return endpoints.size > 0 && types.some((t) => (endpoints.get(t)?.length ?? 0) > 0);
}

/** One row per (notice, endpoint receiving its type). */
export function outboxRows(endpoints: EndpointsByType, notices: readonly Notice[]): OutboxRow[] {
  const rows: OutboxRow[] = [];
  for (const notice of notices) {
    for (const endpointId of endpoints.get(notice.type) ?? []) rows.push({ id: newDeliveryId(), endpoint_id: endpointId, type: notice.type, data: notice.data, ...(notice.currency ? { currency: notice.currency } : {}) });
  }
  return rows;
}

/** Inserts the rows in the caller's transaction (staff writes); the first attempt is due at once. */
export async function insertDeliveries(tx: DbOrTx, scope: { appId: string; userId: string }, rows: readonly OutboxRow[], now: number): Promise<void> {
  if (rows.length === 0) return;
  await tx.insert(webhookDeliveries).values(
    rows.map((r) => ({
      id: r.id,
      appId: scope.appId,
      endpointId: r.endpoint_id,
      userId: scope.userId,
      type: r.type,
      data: r.data,
      status: 'pending' as const,
      attempts: 0,
      nextAttemptAt: now,
      createdAt: now,
      retryingSince: now,
    })),
  );
}
