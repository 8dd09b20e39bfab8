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
import { campaigns as campaignsTable, missions as missionsTable, themes as themesTable } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import { campaignColumns, sameColumns, themeColumns, missionColumns } from '@/lib/catalog/convert';
import type { CatalogDocument } from '@/lib/contract/catalog';
import type { Mission } from '@/lib/contract/mission';
import { storeEconomy } from '@/lib/catalog/economy-store';
import { streamedChanges } from '@/lib/updates/resync';
import { upsertCampaign, upsertMission, upsertTheme, type CatalogWriteScope } from '../_shared/catalog-write';

/**
 * Inside writeCatalog (publishCatalog): the live tables made to hold `catalog`.
 * Answers the missions whose count, window or archived flag changed: their
 * holders' streams get the new reading.
 */
export async function applyCatalog(w: CatalogWriteScope, catalog: CatalogDocument): Promise<string[]> {
  const { appId, before, actor, now } = w;
  const tx = w.db;
  const audit = (action: string, target: string, from: unknown, to: unknown) => recordAudit(tx, { actor, action, appId, target, before: from, after: to }, now);

  const liveThemes = new Map((before.themes ?? []).map((t) => [t.id, t]));
  for (const t of catalog.themes ?? []) {
    const current = liveThemes.get(t.id);
    if (current && sameColumns(themeColumns(current), themeColumns(t))) continue;
    await upsertTheme(w, t, current);
  }

  const liveCampaigns = new Map(before.campaigns.map((c) => [c.id, c]));
  for (const c of catalog.campaigns) {
    const current = liveCampaigns.get(c.id);
    if (current && sameColumns(campaignColumns(current), campaignColumns(c))) continue;
    await upsertCampaign(w, c, current);
  }

  const liveMissions = new Map(before.missions.map((m) => [m.id, m]));
  const inDocument = new Set(catalog.missions.map((m) => m.id));
  const finalMissions: Mission[] = [];
  const written: Mission[] = [];
  for (const m of catalog.missions) {
    finalMissions.push(m);
    const current = liveMissions.get(m.id);
    if (current && sameColumns(missionColumns(current), missionColumns(m))) continue;
    await upsertMission(w, m, current);
    written.push(m);
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
    written.push({ ...m, archived: true });
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
  // Of the missions written (archived ones included), those whose count, window or archived flag changed.
  return streamedChanges(liveMissions, written);
}
