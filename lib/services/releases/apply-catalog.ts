// Makes the live tables hold exactly a catalog document (a draft being
// published, a restored release): items that differ are written (version + 1,
// audited with before and after), items that are the same are left alone.
// What the document no longer holds: a mission is archived (it disappears from
// /v1, and a completed record of it stays claimable, as for any archived
// mission); a campaign is deleted, or archived while a mission still names it;
// a theme preset is deleted unless a campaign kept that way still uses it.
// Currencies and items: a section the document carries replaces the app's, one
// it does not carry is kept; each completed with what the catalog still names.
// Nothing a player holds (progress, balances, ledger) is written.
import { and, eq, sql } from 'drizzle-orm';
import type { TxContext } from '../context';
import { campaigns as campaignsTable, missions as missionsTable, themes as themesTable } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import { campaignColumns, sameColumns, themeColumns, missionColumns } from '@/lib/catalog/convert';
import type { CatalogDocument } from '@/lib/contract/catalog';
import type { Mission } from '@/lib/contract/mission';
import { beginCatalogWrite } from '@/lib/catalog/record-release';
import { storeEconomy } from '@/lib/catalog/economy-store';

export interface Applied {
  /** The live catalog before the writes. */
  before: CatalogDocument;
  /** Missions whose count, window or archived flag changed: their holders' streams get the new reading. */
  streamed: string[];
}

const streamedDefinition = (m: Pick<Mission, 'criteria' | 'archived'>) => JSON.stringify([m.criteria.count, m.criteria.window ?? 'lifetime', m.archived]);

/** In the context's transaction; `actor` and `now` are the release's (the audit rows name them). */
export async function applyCatalog({ ctx, input }: { ctx: TxContext; input: { catalog: CatalogDocument; actor: string; now: number } }): Promise<Applied> {
  const { catalog, actor, now } = input;
  const { appId } = ctx;
  const tx = ctx.uow.tx;
  const before = await beginCatalogWrite(tx, appId);
  const audit = (action: string, target: string, from: unknown, to: unknown) => recordAudit(tx, { actor, action, appId, target, before: from, after: to }, now);

  const liveThemes = new Map((before.themes ?? []).map((t) => [t.id, t]));
  for (const t of catalog.themes ?? []) {
    const current = liveThemes.get(t.id);
    if (current && sameColumns(themeColumns(current), themeColumns(t))) continue;
    const values = { ...themeColumns(t), updatedAt: now };
    await tx
      .insert(themesTable)
      .values({ appId, id: t.id, ...values, createdAt: now })
      .onConflictDoUpdate({ target: [themesTable.appId, themesTable.id], set: { ...values, version: sql`${themesTable.version} + 1` } });
    await audit(current ? 'theme.update' : 'theme.create', `theme:${t.id}`, current ?? null, t);
  }

  const liveCampaigns = new Map(before.campaigns.map((c) => [c.id, c]));
  for (const c of catalog.campaigns) {
    const current = liveCampaigns.get(c.id);
    if (current && sameColumns(campaignColumns(current), campaignColumns(c))) continue;
    const values = { ...campaignColumns(c), updatedAt: now };
    await tx
      .insert(campaignsTable)
      .values({ appId, id: c.id, ...values, createdAt: now })
      .onConflictDoUpdate({ target: [campaignsTable.appId, campaignsTable.id], set: { ...values, version: sql`${campaignsTable.version} + 1` } });
    await audit(current ? 'campaign.update' : 'campaign.create', `campaign:${c.id}`, current ?? null, c);
  }

  const liveMissions = new Map(before.missions.map((m) => [m.id, m]));
  const inDocument = new Set(catalog.missions.map((m) => m.id));
  const streamed: string[] = [];
  const finalMissions: Mission[] = [];
  for (const m of catalog.missions) {
    finalMissions.push(m);
    const current = liveMissions.get(m.id);
    if (current && sameColumns(missionColumns(current), missionColumns(m))) continue;
    const values = { ...missionColumns(m), updatedAt: now };
    await tx
      .insert(missionsTable)
      .values({ appId, id: m.id, ...values, createdAt: now })
      .onConflictDoUpdate({ target: [missionsTable.appId, missionsTable.id], set: { ...values, version: sql`${missionsTable.version} + 1` } });
    await audit(current ? 'mission.update' : 'mission.create', `mission:${m.id}`, current ?? null, m);
    if (current && streamedDefinition(current) !== streamedDefinition(m)) streamed.push(m.id);
  }
  for (const m of before.missions) {
    if (inDocument.has(m.id)) continue;
    finalMissions.push({ ...m, archived: true });
    if (m.archived) continue;
    await tx
      .update(missionsTable)
      .set({ archived: true, updatedAt: now, version: sql`${missionsTable.version} + 1` })
      .where(and(eq(missionsTable.appId, appId), eq(missionsTable.id, m.id)));
    await audit('mission.archive', `mission:${m.id}`, m, { ...m, archived: true });
    streamed.push(m.id);
  }

  const namedCampaigns = new Set(finalMissions.map((m) => m.campaignId).filter((id): id is string => !!id));
  const campaignIds = new Set(catalog.campaigns.map((c) => c.id));
  const keptThemes = new Set(catalog.campaigns.map((c) => c.themeId).filter((id): id is string => !!id));
  for (const c of before.campaigns) {
    if (campaignIds.has(c.id)) continue;
    if (namedCampaigns.has(c.id)) {
      // An archived mission still names it: kept, archived.
      if (c.themeId) keptThemes.add(c.themeId);
      if (c.archived) continue;
      await tx
        .update(campaignsTable)
        .set({ archived: true, updatedAt: now, version: sql`${campaignsTable.version} + 1` })
        .where(and(eq(campaignsTable.appId, appId), eq(campaignsTable.id, c.id)));
      await audit('campaign.update', `campaign:${c.id}`, c, { ...c, archived: true });
      continue;
    }
    await tx.delete(campaignsTable).where(and(eq(campaignsTable.appId, appId), eq(campaignsTable.id, c.id)));
    await audit('campaign.delete', `campaign:${c.id}`, c, null);
  }
  const themeIds = new Set((catalog.themes ?? []).map((t) => t.id));
  for (const t of before.themes ?? []) {
    if (themeIds.has(t.id) || keptThemes.has(t.id)) continue;
    await tx.delete(themesTable).where(and(eq(themesTable.appId, appId), eq(themesTable.id, t.id)));
    await audit('theme.delete', `theme:${t.id}`, t, null);
  }
  // Currencies and items: the document's sections (one it does not carry is kept), completed with what the catalog still names.
  const keptCampaigns = before.campaigns.filter((c) => !campaignIds.has(c.id) && namedCampaigns.has(c.id));
  await storeEconomy(tx, {
    appId,
    stored: { currencies: before.currencies, items: before.items },
    wanted: { currencies: catalog.currencies, items: catalog.items },
    missions: finalMissions,
    campaigns: [...catalog.campaigns, ...keptCampaigns],
    actor,
    now,
  });
  return { before, streamed };
}
