// GET …/themes/:themeId: one preset with the campaigns that use it (404 not_found).
import { and, eq } from 'drizzle-orm';
import { themes as themesTable } from '@/db/schema';
import type { ThemeRecord } from '@/lib/contract/catalog-admin';
import { AppError } from '@/lib/errors';
import { withTransaction, type ServiceContext } from '../context';
import { campaignsUsing, themeRecord } from '../_shared/themes';

export async function getTheme({ ctx, input }: { ctx: ServiceContext; input: { id: string } }): Promise<ThemeRecord> {
  const { appId } = ctx;
  const { id } = input;
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.uow.tx.select().from(themesTable).where(and(eq(themesTable.appId, appId), eq(themesTable.id, id)));
    if (!row) throw new AppError('not_found', `No theme "${id}" in app "${appId}"`);
    return themeRecord(row, await campaignsUsing(tx.uow.tx, appId, id));
  });
}
