// The app's endpoints (never their secrets), oldest first.
import { and, asc, eq, isNull } from 'drizzle-orm';
import { webhookEndpoints } from '@/db/schema';
import type { Endpoint } from '@/lib/contract/outbound';
import type { ServiceContext } from '../context';
import { endpointOf } from './shared';

export async function listEndpoints({ ctx }: { ctx: ServiceContext }): Promise<{ endpoints: Endpoint[] }> {
  const rows = await ctx.deps.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.appId, ctx.appId), isNull(webhookEndpoints.deletedAt)))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
  return { endpoints: rows.map(endpointOf) };
}
