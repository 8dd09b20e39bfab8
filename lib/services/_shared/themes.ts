// What the theme verbs (lib/services/themes) share: a stored preset as the
// admin API answers it, the campaigns that name a preset, and the locked read.
import { and, asc, eq } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { campaigns as campaignsTable, themes as themesTable, type ThemeRow } from '@/db/schema';
import type { ThemeRecord } from '@/lib/contract/catalog-admin';
import { themeFromRow } from '@/lib/catalog/convert';
import { AppError } from '@/lib/errors';

export function themeRecord(row: ThemeRow, usedBy: string[]): ThemeRecord {
  return { ...themeFromRow(row), version: row.version, createdAt: row.createdAt, updatedAt: row.updatedAt, usedBy };
}

/** The ids of the app's campaigns whose themeId is the preset, in id order. */
export async function campaignsUsing(tx: Tx, appId: string, themeId: string): Promise<string[]> {
  const rows = await tx
    .select({ id: campaignsTable.id })
    .from(campaignsTable)
    .where(and(eq(campaignsTable.appId, appId), eq(campaignsTable.themeId, themeId)))
    .orderBy(asc(campaignsTable.id));
  return rows.map((r) => r.id);
}

/** The preset's row, locked to the transaction's end (404 not_found when there is none). */
export async function lockTheme(tx: Tx, appId: string, id: string): Promise<ThemeRow> {
  const [row] = await tx.select().from(themesTable).where(and(eq(themesTable.appId, appId), eq(themesTable.id, id))).for('update');
  if (!row) throw new AppError('not_found', `No theme "${id}" in app "${appId}"`);
  return row;
}
