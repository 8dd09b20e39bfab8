// PUT …/catalog: an app's catalog (themes, campaigns, missions; currencies
// and items merged by id into the app's) validated as
// a whole (one invalid item and nothing is written), upserted by id in one
// catalog write (writeCatalog: the app's lock, the live catalog read once, an
// audit row per item given, the release); answers the catalog as exported
// after the write.
import { checkCatalogReferences, parseCatalogItems, type ParsedCatalog } from '@/lib/catalog/catalog-document';
import { storeEconomy } from '@/lib/catalog/economy-store';
import type { CatalogDocument } from '@/lib/contract/catalog';
import { streamedChanges } from '@/lib/updates/resync';
import type { ServiceContext } from '../context';
import type { CampaignIn } from '../_shared/campaigns';
import { upsertCampaign, upsertMission, upsertTheme, writeCatalog } from '../_shared/catalog-write';
import { exportCatalog } from './export-catalog';

/** A catalog import as parsed by parseCatalogImport: each item by its schema, ids unique per kind. */
export type CatalogImport = ParsedCatalog;

/** The request body parsed item by item (400 validation_error naming the item); references are checked by the write, against the app's catalog. */
export function parseCatalogImport(body: unknown): CatalogImport {
  return parseCatalogItems(body);
}

export async function putCatalog({ ctx, input }: { ctx: ServiceContext; input: CatalogImport }): Promise<CatalogDocument> {
  const { missions, campaigns, themes, economy } = input;
  await writeCatalog(ctx, {
    write: async (w) => {
      const { before, lock } = w;
      // The catalog as it will be after this write, to check references as a
      // whole. A preset deleted just before is not in `before` (every catalog
      // writer holds the app's catalog lock), so the check refuses it (400)
      // instead of the insert failing on the foreign key (500).
      const beforeMissions = new Map(before.missions.map((m) => [m.id, m]));
      const finalMissions = new Map(beforeMissions);
      missions.forEach((m) => finalMissions.set(m.id, m));
      const finalCampaignIds = new Set([...before.campaigns.map((c) => c.id), ...campaigns.map((c) => c.id)]);
      const finalThemeIds = new Set([...(before.themes ?? []).map((t) => t.id), ...themes.map((t) => t.id)]);
      checkCatalogReferences({ missions, campaigns, economy }, { missions: finalMissions, campaignIds: finalCampaignIds, themeIds: finalThemeIds }, 'app');

      // Every item given is written (version + 1, audited), equal or not. Presets first: the campaigns below may name them.
      const beforeThemes = new Map((before.themes ?? []).map((t) => [t.id, t]));
      for (const t of themes) await upsertTheme(w, t, beforeThemes.get(t.id));
      // A campaign's audit row names it as stored (its row).
      const beforeCampaigns = new Map(lock.campaignRows.map((c) => [c.id, c]));
      for (const c of campaigns) await upsertCampaign(w, c, beforeCampaigns.get(c.id));
      for (const m of missions) await upsertMission(w, m, beforeMissions.get(m.id));

      // A section given is merged by id into the app's (absent: kept); either way completed with what the catalog names.
      const finalCampaigns = new Map(before.campaigns.map((c) => [c.id, c as { budget?: CampaignIn['budget'] }]));
      campaigns.forEach((c) => finalCampaigns.set(c.id, c));
      const stored = { ...(before.currencies ? { currencies: before.currencies } : {}), ...(before.items ? { items: before.items } : {}) };
      const merge = <T extends { id: string }>(have: T[] | undefined, given: T[] | undefined) =>
        given ? [...new Map([...(have ?? []), ...given].map((d) => [d.id, d])).values()] : undefined;
      await storeEconomy(w.db, {
        appId: w.appId,
        stored,
        wanted: { currencies: merge(stored.currencies, economy.currencies), items: merge(stored.items, economy.items) },
        missions: [...finalMissions.values()],
        campaigns: [...finalCampaigns.values()].map((c) => ({ budget: c.budget ?? undefined })),
        actor: w.actor,
        now: w.now,
      });
      // Missions whose count, window or archived flag this write changes: their holders' streams get the new reading.
      return { value: undefined, streamed: streamedChanges(beforeMissions, missions) };
    },
  });
  return exportCatalog({ ctx });
}
