// Every app, by id, as the admin API shows it (never a secret).
import { apps } from '@/db/schema';
import { toPublicApp, type PublicApp } from '@/lib/apps/apps';
import type { ServiceContext } from '../context';

export async function listApps({ ctx }: { ctx: ServiceContext }): Promise<PublicApp[]> {
  const now = ctx.now();
  return (await ctx.deps.db.select().from(apps).orderBy(apps.id)).map((row) => toPublicApp(row, now));
}
