// What the endpoint verbs share: row → answer shapes, and the endpoint lookup.
import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { webhookEndpoints, type WebhookDeliveryRow } from '@/db/schema';
import type { Delivery, Endpoint, NotificationType } from '@/lib/contract/outbound';
import { AppError } from '@/lib/errors';

export const endpointTarget = (id: string) => `endpoint:${id}`;

export function endpointOf(row: typeof webhookEndpoints.$inferSelect): Endpoint {
  return { id: row.id, url: row.url, events: row.events as NotificationType[], createdAt: row.createdAt };
}

export function deliveryOf(row: WebhookDeliveryRow): Delivery {
  return {
    id: row.id,
    type: row.type as NotificationType,
    userId: row.userId,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt : null,
    createdAt: row.createdAt,
    deliveredAt: row.deliveredAt,
  };
}

/** The app's endpoint (a deleted one too when `deleted`), or 404 endpoint_not_found. */
export async function findEndpoint(db: DbOrTx, appId: string, id: string, opts: { deleted?: boolean } = {}) {
  const where = and(eq(webhookEndpoints.appId, appId), eq(webhookEndpoints.id, id), opts.deleted ? undefined : isNull(webhookEndpoints.deletedAt));
  const [row] = await db.select().from(webhookEndpoints).where(where);
  if (!row) throw new AppError('endpoint_not_found', `No endpoint "${id}"`);
  return row;
}
