// GET …/themes: the app's theme presets in id order, each with the campaigns that use it.
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { campaigns as campaignsTable, themes as themesTable } from '@/db/schema';
import type { ThemeRecord } from '@/lib/contract/catalog-admin';
import type { ServiceContext } from '../context';
import { themeRecord } from '../_shared/themes';

export async function listThemes({ ctx }: { ctx: ServiceContext }): Promise<ThemeRecord[]> {
  const { appId } = ctx;
  const db = ctx.deps.db;
  const [rows, uses] = await Promise.all([
    db.select().from(themesTable).where(eq(themesTable.appId, appId)).orderBy(asc(themesTable.id)),
    db
      .select({ id: campaignsTable.id, themeId: campaignsTable.themeId })
      .from(campaignsTable)
      .where(and(eq(campaignsTable.appId, appId), isNotNull(campaignsTable.themeId)))
      .orderBy(asc(campaignsTable.id)),
  ]);
  return rows.map((row) => themeRecord(row, uses.filter((u) => u.themeId === row.id).map((u) => u.id)));
}
