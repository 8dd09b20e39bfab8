// Campaigns of an app, one at a time (the console's Campaigns screen): list,
// create, update and delete, each write one transaction with its audit rows,
// guarded by the version the writer read. `missionIds` in a write assigns
// exactly those missions to the campaign (their campaignId is the stored
// link), each reassigned mission audited too.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { getDb, type Tx } from '@/db/client';
import { campaigns as campaignsTable, missions as missionsTable, themes as themesTable, type CampaignRow } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import type { campaignSchema } from '@/lib/contract/campaign';
import type { CampaignRecord } from '@/lib/contract/catalog-admin';
import { AppError } from '@/lib/errors';
import type { z } from 'zod';
import { invalidateCatalog } from './catalog';
import { campaignColumns, campaignFromRow, missionFromRow, sameColumns } from './convert';
import { requireApp, staleVersion, type CatalogVerbContext } from './themes';
import { beginCatalogWrite, recordRelease } from './record-release';

type CampaignIn = z.output<typeof campaignSchema>;

function toRecord(row: CampaignRow, missionIds: string[]): CampaignRecord {
  return { ...campaignFromRow(row, missionIds), version: row.version, createdAt: row.createdAt, updatedAt: row.updatedAt };
}

async function missionIdsOf(tx: Tx, appId: string, campaignId: string): Promise<string[]> {
  const rows = await tx
    .select({ id: missionsTable.id })
    .from(missionsTable)
    .where(and(eq(missionsTable.appId, appId), eq(missionsTable.campaignId, campaignId)))
    .orderBy(asc(missionsTable.id));
  return rows.map((r) => r.id);
}

async function lockCampaign(tx: Tx, appId: string, id: string): Promise<CampaignRow> {
  const [row] = await tx.select().from(campaignsTable).where(and(eq(campaignsTable.appId, appId), eq(campaignsTable.id, id))).for('update');
  if (!row) throw new AppError('campaign_not_found', `No campaign "${id}" in app "${appId}"`);
  return row;
}

/** The references of a campaign exist: its preset, and the missions it names. */
async function checkReferences(tx: Tx, appId: string, c: CampaignIn): Promise<void> {
  if (c.themeId !== undefined) {
    const [theme] = await tx.select({ id: themesTable.id }).from(themesTable).where(and(eq(themesTable.appId, appId), eq(themesTable.id, c.themeId))).for('share');
    if (!theme) throw new AppError('validation_error', `themeId: "${c.themeId}" is not a theme of this app`);
  }
  if (c.missionIds && c.missionIds.length > 0) {
    const unique = [...new Set(c.missionIds)];
    const found = await tx.select({ id: missionsTable.id }).from(missionsTable).where(and(eq(missionsTable.appId, appId), inArray(missionsTable.id, unique)));
    const known = new Set(found.map((r) => r.id));
    const missing = unique.find((id) => !known.has(id));
    if (missing !== undefined) throw new AppError('validation_error', `missionIds: "${missing}" is not a mission of this app`);
  }
}

/** Makes `missionIds` exactly the missions of the campaign; audits each mission whose campaignId changes. */
async function assignMissions(tx: Tx, ctx: CatalogVerbContext & { now: number }, appId: string, campaignId: string, missionIds: string[]): Promise<void> {
  const wanted = new Set(missionIds);
  const current = await missionIdsOf(tx, appId, campaignId);
  const leaving = current.filter((id) => !wanted.has(id));
  const joining = [...wanted].filter((id) => !current.includes(id));
  const changed = [...leaving, ...joining];
  if (changed.length === 0) return;
  const rows = await tx.select().from(missionsTable).where(and(eq(missionsTable.appId, appId), inArray(missionsTable.id, changed))).orderBy(asc(missionsTable.id)).for('update');
  for (const row of rows) {
    const campaignIdAfter = wanted.has(row.id) ? campaignId : null;
    await tx
      .update(missionsTable)
      .set({ campaignId: campaignIdAfter, updatedAt: ctx.now, version: sql`${missionsTable.version} + 1` })
      .where(and(eq(missionsTable.appId, appId), eq(missionsTable.id, row.id)));
    const before = missionFromRow(row);
    await recordAudit(tx, { actor: ctx.actor, action: 'mission.update', appId, target: `mission:${row.id}`, before, after: { ...before, campaignId: campaignIdAfter } }, ctx.now);
  }
}

export async function listCampaignRecords(appId: string): Promise<CampaignRecord[]> {
  await requireApp(appId);
  const db = await getDb();
  const [rows, links] = await Promise.all([
    db.select().from(campaignsTable).where(eq(campaignsTable.appId, appId)).orderBy(asc(campaignsTable.id)),
    db
      .select({ id: missionsTable.id, campaignId: missionsTable.campaignId })
      .from(missionsTable)
      .where(and(eq(missionsTable.appId, appId), sql`${missionsTable.campaignId} is not null`))
      .orderBy(asc(missionsTable.id)),
  ]);
  return rows.map((row) => toRecord(row, links.filter((l) => l.campaignId === row.id).map((l) => l.id)));
}

export async function getCampaignRecord(appId: string, id: string): Promise<CampaignRecord> {
  await requireApp(appId);
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(campaignsTable).where(and(eq(campaignsTable.appId, appId), eq(campaignsTable.id, id)));
    if (!row) throw new AppError('campaign_not_found', `No campaign "${id}" in app "${appId}"`);
    return toRecord(row, await missionIdsOf(tx, appId, id));
  });
}

export async function createCampaign({ ctx, input }: { ctx: CatalogVerbContext; input: { appId: string; campaign: CampaignIn } }): Promise<CampaignRecord> {
  const { appId, campaign } = input;
  await requireApp(appId);
  const now = ctx.now ?? Date.now();
  const db = await getDb();
  const record = await db.transaction(async (tx) => {
    const releaseBefore = await beginCatalogWrite(tx, appId);
    await checkReferences(tx, appId, campaign);
    const [row] = await tx
      .insert(campaignsTable)
      .values({ appId, id: campaign.id, ...campaignColumns(campaign), version: 1, createdAt: now, updatedAt: now })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new AppError('conflict', `A campaign "${campaign.id}" exists already in app "${appId}"`);
    if (campaign.missionIds) await assignMissions(tx, { ...ctx, now }, appId, campaign.id, campaign.missionIds);
    const created = toRecord(row, await missionIdsOf(tx, appId, campaign.id));
    await recordAudit(tx, { actor: ctx.actor, action: 'campaign.create', appId, target: `campaign:${campaign.id}`, before: null, after: created }, now);
    await recordRelease(tx, { appId, before: releaseBefore, actor: ctx.actor, now });
    return created;
  });
  await invalidateCatalog(appId);
  return record;
}

export async function updateCampaign({ ctx, input }: { ctx: CatalogVerbContext; input: { appId: string; campaign: CampaignIn; version: number } }): Promise<CampaignRecord> {
  const { appId, campaign, version } = input;
  await requireApp(appId);
  const now = ctx.now ?? Date.now();
  const db = await getDb();
  const { record, changed } = await db.transaction(async (tx) => {
    const releaseBefore = await beginCatalogWrite(tx, appId);
    const current = await lockCampaign(tx, appId, campaign.id);
    if (current.version !== version) throw staleVersion('Campaign', campaign.id, version, current.version);
    const before = toRecord(current, await missionIdsOf(tx, appId, campaign.id));
    // Nothing changes (fields, and the missions when sent): the campaign as it is, same version, no audit row.
    const sameMissions = !campaign.missionIds || sameColumns([...new Set(campaign.missionIds)].sort(), [...before.missionIds].sort());
    if (sameMissions && sameColumns(campaignColumns(campaign), campaignColumns(campaignFromRow(current, [])))) return { record: before, changed: false };
    await checkReferences(tx, appId, campaign);
    const [row] = await tx
      .update(campaignsTable)
      .set({ ...campaignColumns(campaign), version: current.version + 1, updatedAt: now })
      .where(and(eq(campaignsTable.appId, appId), eq(campaignsTable.id, campaign.id)))
      .returning();
    if (campaign.missionIds) await assignMissions(tx, { ...ctx, now }, appId, campaign.id, campaign.missionIds);
    const after = toRecord(row, await missionIdsOf(tx, appId, campaign.id));
    await recordAudit(tx, { actor: ctx.actor, action: 'campaign.update', appId, target: `campaign:${campaign.id}`, before, after }, now);
    await recordRelease(tx, { appId, before: releaseBefore, actor: ctx.actor, now });
    return { record: after, changed: true };
  });
  if (changed) await invalidateCatalog(appId);
  return record;
}

/**
 * Deletes a campaign that no mission names, archived ones included (409
 * conflict naming them otherwise: move them out, or archive the campaign).
 */
export async function deleteCampaign({ ctx, input }: { ctx: CatalogVerbContext; input: { appId: string; id: string; version?: number } }): Promise<void> {
  const { appId, id, version } = input;
  await requireApp(appId);
  const now = ctx.now ?? Date.now();
  const db = await getDb();
  await db.transaction(async (tx) => {
    const releaseBefore = await beginCatalogWrite(tx, appId);
    const current = await lockCampaign(tx, appId, id);
    if (version !== undefined && current.version !== version) throw staleVersion('Campaign', id, version, current.version);
    const missionIds = await missionIdsOf(tx, appId, id);
    if (missionIds.length > 0) {
      throw new AppError('conflict', `Campaign "${id}" has missions ${missionIds.map((m) => `"${m}"`).join(', ')}: move them out first, or archive the campaign`);
    }
    await tx.delete(campaignsTable).where(and(eq(campaignsTable.appId, appId), eq(campaignsTable.id, id)));
    await recordAudit(tx, { actor: ctx.actor, action: 'campaign.delete', appId, target: `campaign:${id}`, before: toRecord(current, []), after: null }, now);
    await recordRelease(tx, { appId, before: releaseBefore, actor: ctx.actor, now });
  });
  await invalidateCatalog(appId);
}
