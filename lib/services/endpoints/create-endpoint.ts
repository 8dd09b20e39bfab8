// An app registers an endpoint for outbound webhooks: the URL (refused on a
// loopback, private or link-local address unless OUTBOUND_WEBHOOK_ALLOW_PRIVATE=1),
// the types it receives and a generated signing secret, shown this once.
// Audited as endpoint.create; every instance's catalog learns of it (the
// endpoints by type live there).
import { randomUUID } from 'node:crypto';
import { and, count, eq, isNull } from 'drizzle-orm';
import { webhookEndpoints } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import { generateSecret } from '@/lib/apps/secrets';
import { invalidateCatalog } from '@/lib/catalog/catalog';
import { MAX_ENDPOINTS_PER_APP, type CreateEndpointInput, type Endpoint } from '@/lib/contract/outbound';
import { AppError } from '@/lib/errors';
import { refusedHost } from '@/lib/outbound/address';
import { actorLabel, withTransaction, type ServiceContext } from '../context';
import { endpointOf, endpointTarget } from './shared';

export async function createEndpoint({ ctx, input }: { ctx: ServiceContext; input: CreateEndpointInput }): Promise<Endpoint & { secret: string }> {
  const refused = await refusedHost(new URL(input.url));
  if (refused) throw new AppError('validation_error', `url: ${refused} (set OUTBOUND_WEBHOOK_ALLOW_PRIVATE=1 to allow it)`);
  const now = ctx.now();
  const row = {
    id: `ep_${randomUUID().replaceAll('-', '').slice(0, 20)}`,
    appId: ctx.appId,
    url: input.url,
    events: input.events,
    secret: generateSecret('whsec'),
    createdAt: now,
  };
  await withTransaction(ctx, async (tx) => {
    const db = tx.uow.tx;
    const [{ n }] = await db
      .select({ n: count() })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.appId, ctx.appId), isNull(webhookEndpoints.deletedAt)));
    if (n >= MAX_ENDPOINTS_PER_APP) throw new AppError('conflict', `An app has at most ${MAX_ENDPOINTS_PER_APP} endpoints; delete one first`);
    await db.insert(webhookEndpoints).values(row);
    await recordAudit(db, { actor: actorLabel(ctx.actor), action: 'endpoint.create', appId: ctx.appId, target: endpointTarget(row.id), after: { url: row.url, events: row.events } }, now);
    tx.uow.afterCommit(() => invalidateCatalog(ctx.appId));
  });
  return { ...endpointOf({ ...row, deletedAt: null }), secret: row.secret };
}
