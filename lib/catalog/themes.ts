// Theme presets of an app, one at a time (the console's Themes screen): list,
// create, update and delete, each write one transaction with its audit row,
// guarded by the version the writer read. /v1 resolves campaigns' presets
// from the in-memory catalog, so every write invalidates it.
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { getDb, type Tx } from '@/db/client';
import { campaigns as campaignsTable, themes as themesTable, type ThemeRow } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import { findApp } from '@/lib/apps/apps';
import type { ThemeRecord } from '@/lib/contract/catalog-admin';
import type { ThemePreset } from '@/lib/contract/theme';
import { AppError } from '@/lib/errors';
import { invalidateCatalog } from './catalog';
import { sameColumns, themeColumns, themeFromRow } from './convert';
import { beginCatalogWrite, recordRelease } from './record-release';

/** Who acts (for the audit log) and when. */
export interface CatalogVerbContext {
  actor: string;
  now?: number;
}

export async function requireApp(appId: string): Promise<void> {
  if (!(await findApp(await getDb(), appId))) throw new AppError('app_not_found', `No app "${appId}"`);
}

function toRecord(row: ThemeRow, usedBy: string[]): ThemeRecord {
  return { ...themeFromRow(row), version: row.version, createdAt: row.createdAt, updatedAt: row.updatedAt, usedBy };
}

/** A write that names a version other than the stored one: someone saved in between. */
export function staleVersion(kind: string, id: string, sent: number, current: number): AppError {
  return new AppError('conflict', `${kind} "${id}" is at version ${current}, not ${sent}: it changed since you read it; reload and apply your change again`);
}

async function campaignsUsing(tx: Tx, appId: string, themeId: string): Promise<string[]> {
  const rows = await tx
    .select({ id: campaignsTable.id })
    .from(campaignsTable)
    .where(and(eq(campaignsTable.appId, appId), eq(campaignsTable.themeId, themeId)))
    .orderBy(asc(campaignsTable.id));
  return rows.map((r) => r.id);
}

async function lockTheme(tx: Tx, appId: string, id: string): Promise<ThemeRow> {
  const [row] = await tx.select().from(themesTable).where(and(eq(themesTable.appId, appId), eq(themesTable.id, id))).for('update');
  if (!row) throw new AppError('not_found', `No theme "${id}" in app "${appId}"`);
  return row;
}

export async function listThemes(appId: string): Promise<ThemeRecord[]> {
  await requireApp(appId);
  const db = await getDb();
  const [rows, uses] = await Promise.all([
    db.select().from(themesTable).where(eq(themesTable.appId, appId)).orderBy(asc(themesTable.id)),
    db
      .select({ id: campaignsTable.id, themeId: campaignsTable.themeId })
      .from(campaignsTable)
      .where(and(eq(campaignsTable.appId, appId), isNotNull(campaignsTable.themeId)))
      .orderBy(asc(campaignsTable.id)),
  ]);
  return rows.map((row) => toRecord(row, uses.filter((u) => u.themeId === row.id).map((u) => u.id)));
}

export async function getTheme(appId: string, id: string): Promise<ThemeRecord> {
  await requireApp(appId);
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(themesTable).where(and(eq(themesTable.appId, appId), eq(themesTable.id, id)));
    if (!row) throw new AppError('not_found', `No theme "${id}" in app "${appId}"`);
    return toRecord(row, await campaignsUsing(tx, appId, id));
  });
}

export async function createTheme({ ctx, input }: { ctx: CatalogVerbContext; input: { appId: string; theme: ThemePreset } }): Promise<ThemeRecord> {
  const { appId, theme } = input;
  await requireApp(appId);
  const now = ctx.now ?? Date.now();
  const db = await getDb();
  const record = await db.transaction(async (tx) => {
    const releaseBefore = await beginCatalogWrite(tx, appId);
    const [row] = await tx
      .insert(themesTable)
      .values({ appId, id: theme.id, ...themeColumns(theme), version: 1, createdAt: now, updatedAt: now })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new AppError('conflict', `A theme "${theme.id}" exists already in app "${appId}"`);
    const created = toRecord(row, []);
    await recordAudit(tx, { actor: ctx.actor, action: 'theme.create', appId, target: `theme:${theme.id}`, before: null, after: created }, now);
    await recordRelease(tx, { appId, before: releaseBefore, actor: ctx.actor, now });
    return created;
  });
  await invalidateCatalog(appId);
  return record;
}

export async function updateTheme({ ctx, input }: { ctx: CatalogVerbContext; input: { appId: string; theme: ThemePreset; version: number } }): Promise<ThemeRecord> {
  const { appId, theme, version } = input;
  await requireApp(appId);
  const now = ctx.now ?? Date.now();
  const db = await getDb();
  const { record, changed } = await db.transaction(async (tx) => {
    const releaseBefore = await beginCatalogWrite(tx, appId);
    const current = await lockTheme(tx, appId, theme.id);
    if (current.version !== version) throw staleVersion('Theme', theme.id, version, current.version);
    const usedBy = await campaignsUsing(tx, appId, theme.id);
    // Nothing changes: the preset as it is, same version, no audit row.
    if (sameColumns(themeColumns(theme), themeColumns(themeFromRow(current)))) return { record: toRecord(current, usedBy), changed: false };
    const [row] = await tx
      .update(themesTable)
      .set({ ...themeColumns(theme), version: current.version + 1, updatedAt: now })
      .where(and(eq(themesTable.appId, appId), eq(themesTable.id, theme.id)))
      .returning();
    const after = toRecord(row, usedBy);
    await recordAudit(tx, { actor: ctx.actor, action: 'theme.update', appId, target: `theme:${theme.id}`, before: toRecord(current, usedBy), after }, now);
    await recordRelease(tx, { appId, before: releaseBefore, actor: ctx.actor, now });
    return { record: after, changed: true };
  });
  if (changed) await invalidateCatalog(appId);
  return record;
}

/** Deletes a preset no campaign uses (409 conflict naming them otherwise). */
export async function deleteTheme({ ctx, input }: { ctx: CatalogVerbContext; input: { appId: string; id: string; version?: number } }): Promise<void> {
  const { appId, id, version } = input;
  await requireApp(appId);
  const now = ctx.now ?? Date.now();
  const db = await getDb();
  await db.transaction(async (tx) => {
    const releaseBefore = await beginCatalogWrite(tx, appId);
    const current = await lockTheme(tx, appId, id);
    if (version !== undefined && current.version !== version) throw staleVersion('Theme', id, version, current.version);
    const usedBy = await campaignsUsing(tx, appId, id);
    if (usedBy.length > 0) {
      throw new AppError('conflict', `Theme "${id}" is used by campaign${usedBy.length > 1 ? 's' : ''} ${usedBy.map((c) => `"${c}"`).join(', ')}: give them another theme first`);
    }
    await tx.delete(themesTable).where(and(eq(themesTable.appId, appId), eq(themesTable.id, id)));
    await recordAudit(tx, { actor: ctx.actor, action: 'theme.delete', appId, target: `theme:${id}`, before: toRecord(current, []), after: null }, now);
    await recordRelease(tx, { appId, before: releaseBefore, actor: ctx.actor, now });
  });
  await invalidateCatalog(appId);
}
