// An endpoint's delivery log, newest first (at most 100); a deleted endpoint's too.
import { and, desc, eq } from 'drizzle-orm';
import { webhookDeliveries } from '@/db/schema';
import type { Delivery } from '@/lib/contract/outbound';
import type { ServiceContext } from '../context';
import { deliveryOf, findEndpoint } from './shared';

export async function listDeliveries({ ctx, input }: { ctx: ServiceContext; input: { endpointId: string } }): Promise<{ deliveries: Delivery[] }> {
  const endpoint = await findEndpoint(ctx.deps.db, ctx.appId, input.endpointId, { deleted: true });
  const rows = await ctx.deps.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.appId, ctx.appId), eq(webhookDeliveries.endpointId, endpoint.id)))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(100);
  return { deliveries: rows.map(deliveryOf) };
}
