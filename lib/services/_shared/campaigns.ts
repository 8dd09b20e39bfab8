// What the campaign verbs (lib/services/campaigns) share: a stored campaign as
// the admin API answers it (with the missions whose campaignId names it), the
// reads of one or all, the locked read, the reference check and the
// assignment of missions, each reassigned mission audited.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '@/db/client';
import { campaigns as campaignsTable, missions as missionsTable, themes as themesTable, type CampaignRow } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import { campaignFromRow, missionFromRow } from '@/lib/catalog/convert';
import type { campaignSchema } from '@/lib/contract/campaign';
import type { CampaignRecord } from '@/lib/contract/catalog-admin';
import { AppError } from '@/lib/errors';
import type { z } from 'zod';
import { withTransaction, type ServiceContext } from '../context';

export type CampaignIn = z.output<typeof campaignSchema>;

export function campaignRecord(row: CampaignRow, missionIds: string[]): CampaignRecord {
  return { ...campaignFromRow(row, missionIds), version: row.version, createdAt: row.createdAt, updatedAt: row.updatedAt };
}

export async function missionIdsOf(tx: Tx, appId: string, campaignId: string): Promise<string[]> {
  const rows = await tx
    .select({ id: missionsTable.id })
    .from(missionsTable)
    .where(and(eq(missionsTable.appId, appId), eq(missionsTable.campaignId, campaignId)))
    .orderBy(asc(missionsTable.id));
  return rows.map((r) => r.id);
}

/** The campaign's row, locked to the transaction's end (404 campaign_not_found when there is none). */
export async function lockCampaign(tx: Tx, appId: string, id: string): Promise<CampaignRow> {
  const [row] = await tx.select().from(campaignsTable).where(and(eq(campaignsTable.appId, appId), eq(campaignsTable.id, id))).for('update');
  if (!row) throw new AppError('campaign_not_found', `No campaign "${id}" in app "${appId}"`);
  return row;
}

/** The references of a campaign exist: its preset, and the missions it names. */
export async function checkCampaignReferences(tx: Tx, appId: string, c: CampaignIn): Promise<void> {
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
export async function assignMissions(tx: Tx, audit: { actor: string; now: number }, appId: string, campaignId: string, missionIds: string[]): Promise<void> {
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
      .set({ campaignId: campaignIdAfter, updatedAt: audit.now, version: sql`${missionsTable.version} + 1` })
      .where(and(eq(missionsTable.appId, appId), eq(missionsTable.id, row.id)));
    const before = missionFromRow(row);
    await recordAudit(tx, { actor: audit.actor, action: 'mission.update', appId, target: `mission:${row.id}`, before, after: { ...before, campaignId: campaignIdAfter } }, audit.now);
  }
}

/** The app's campaigns in id order, each with its missions (lib/services/campaigns/read-campaigns.ts adds the budgets). */
export async function listCampaignRecords(db: DbOrTx, appId: string): Promise<CampaignRecord[]> {
  const [rows, links] = await Promise.all([
    db.select().from(campaignsTable).where(eq(campaignsTable.appId, appId)).orderBy(asc(campaignsTable.id)),
    db
      .select({ id: missionsTable.id, campaignId: missionsTable.campaignId })
      .from(missionsTable)
      .where(and(eq(missionsTable.appId, appId), sql`${missionsTable.campaignId} is not null`))
      .orderBy(asc(missionsTable.id)),
  ]);
  return rows.map((row) => campaignRecord(row, links.filter((l) => l.campaignId === row.id).map((l) => l.id)));
}

/** One campaign with its missions (404 campaign_not_found). */
export async function getCampaignRecord(ctx: ServiceContext, id: string): Promise<CampaignRecord> {
  const { appId } = ctx;
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.uow.tx.select().from(campaignsTable).where(and(eq(campaignsTable.appId, appId), eq(campaignsTable.id, id)));
    if (!row) throw new AppError('campaign_not_found', `No campaign "${id}" in app "${appId}"`);
    return campaignRecord(row, await missionIdsOf(tx.uow.tx, appId, id));
  });
}
