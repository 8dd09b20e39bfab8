// GET …/catalog: the app's catalog as a document (missions-as-code export):
// missions, campaigns with their missions, and the theme presets, currencies
// and items when there are any.
import { eq } from 'drizzle-orm';
import { campaigns as campaignsTable, missions as missionsTable, themes as themesTable } from '@/db/schema';
import { campaignFromRow, missionFromRow, themeFromRow } from '@/lib/catalog/convert';
import type { CatalogDocument } from '@/lib/contract/catalog';
import { readEconomySections } from '@/lib/catalog/economy-sections';
import type { ServiceContext } from '../context';

export async function exportCatalog({ ctx }: { ctx: ServiceContext }): Promise<CatalogDocument> {
  const { appId } = ctx;
  const db = ctx.deps.db;
  const [missionRows, campaignRows, themeRows] = await Promise.all([
    db.select().from(missionsTable).where(eq(missionsTable.appId, appId)).orderBy(missionsTable.id),
    db.select().from(campaignsTable).where(eq(campaignsTable.appId, appId)).orderBy(campaignsTable.id),
    db.select().from(themesTable).where(eq(themesTable.appId, appId)).orderBy(themesTable.id),
  ]);
  const missions = missionRows.map(missionFromRow);
  const doc: CatalogDocument = {
    missions,
    campaigns: campaignRows.map((row) => campaignFromRow(row, missions.filter((m) => m.campaignId === row.id).map((m) => m.id))),
  };
  // Only when the app has presets: a catalog without them keeps its historical shape.
  if (themeRows.length > 0) doc.themes = themeRows.map(themeFromRow);
  // Likewise the currencies and items sections: only those the app defines.
  const economy = await readEconomySections(db, appId);
  if (economy.currencies) doc.currencies = economy.currencies;
  if (economy.items) doc.items = economy.items;
  return doc;
}
