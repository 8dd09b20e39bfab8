// POST /api/admin/apps: a new app (game) with its app secret and webhook
// secret, generated and answered this once; audited as app.create in the
// same transaction (409 conflict when the id is taken).
import { insertApp, type CreatedApp } from '@/lib/apps/apps';
import type { CreateAppInput } from '@/lib/contract/app';
import { actorLabel, withTransaction, type ServiceContext } from '../context';

export async function createApp({ ctx, input }: { ctx: ServiceContext; input: CreateAppInput }): Promise<CreatedApp> {
  const now = ctx.now();
  return withTransaction(ctx, (tx) => insertApp(tx.uow.tx, input, actorLabel(ctx.actor), now));
}
