// PUT …/catalog: an app's catalog (themes, campaigns, missions; currencies
// and items merged by id into the app's) validated as
// a whole (one invalid item and nothing is written), upserted by id in one
// transaction with an audit row per change and its release; answers the
// catalog as exported after the write.
import { eq, sql } from 'drizzle-orm';
import { campaigns as campaignsTable, missions as missionsTable, themes as themesTable } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import { catalogEnvelopeSchema, findCycle, invalid, parseEconomySections, parseItems } from '@/lib/catalog/catalog-document';
import { readEconomySections } from '@/lib/catalog/economy-sections';
import type { EconomySections } from '@/lib/contract/economy';
import { checkEconomyReferences } from '@/lib/catalog/economy';
import { storeEconomy } from '@/lib/catalog/economy-store';
import { campaignColumns, missionColumns, missionFromRow, themeColumns, themeFromRow } from '@/lib/catalog/convert';
import { beginCatalogWrite } from '@/lib/catalog/record-release';
import { campaignFormSchema } from '@/lib/contract/campaign';
import type { CatalogDocument } from '@/lib/contract/catalog';
import { describeIssues } from '@/lib/contract/describe-issues';
import { missionSchema, type Mission } from '@/lib/contract/mission';
import { themePresetSchema, type ThemePreset } from '@/lib/contract/theme';
import { streamedChanges } from '@/lib/updates/resync';
import { actorLabel, withTransaction, type ServiceContext } from '../context';
import type { CampaignIn } from '../_shared/campaigns';
import { recordCatalogWrite } from '../_shared/catalog-write';
import { exportCatalog } from './export-catalog';

/** A catalog import as parsed by parseCatalogImport: each item by its schema, ids unique per kind. */
export interface CatalogImport {
  missions: Mission[];
  campaigns: CampaignIn[];
  themes: ThemePreset[];
  /** The currencies and items sections, when the document carries them. */
  economy: EconomySections;
}

/** The request body parsed item by item (400 validation_error naming the item); references are checked by the write, against the app's catalog. */
export function parseCatalogImport(body: unknown): CatalogImport {
  const envelope = catalogEnvelopeSchema.safeParse(body);
  if (!envelope.success) invalid('body', describeIssues(envelope.error));
  // The same schemas as the console's forms: fields, filters, campaign bounds.
  return {
    missions: parseItems(missionSchema, envelope.data.missions, 'missions'),
    campaigns: parseItems(campaignFormSchema, envelope.data.campaigns, 'campaigns'),
    themes: parseItems(themePresetSchema, envelope.data.themes, 'themes'),
    economy: parseEconomySections(envelope.data),
  };
}

export async function putCatalog({ ctx, input }: { ctx: ServiceContext; input: CatalogImport }): Promise<CatalogDocument> {
  const { appId } = ctx;
  const { missions, campaigns, themes, economy } = input;
  // Currencies and items: a section the document carries covers every reward and budget line of the document.
  checkEconomyReferences(economy, missions, campaigns);
  const now = ctx.now();
  const actor = actorLabel(ctx.actor);

  await withTransaction(ctx, async (tx) => {
    const db = tx.uow.tx;
    const releaseBefore = await beginCatalogWrite(db, appId);
    const existingMissions = (await db.select().from(missionsTable).where(eq(missionsTable.appId, appId))).map(missionFromRow);
    const existingCampaigns = await db.select().from(campaignsTable).where(eq(campaignsTable.appId, appId));
    // FOR SHARE: a preset the campaigns below may name cannot be deleted until
    // this write commits, and one deleted just before (its delete holding the
    // row) is not read, so the reference check below refuses it (400) instead
    // of the insert failing on the foreign key (500).
    const existingThemes = (await db.select().from(themesTable).where(eq(themesTable.appId, appId)).for('share')).map(themeFromRow);

    // The catalog as it will be after this write, to check references as a whole.
    const finalMissions = new Map(existingMissions.map((m) => [m.id, m]));
    missions.forEach((m) => finalMissions.set(m.id, m));
    const finalCampaignIds = new Set([...existingCampaigns.map((c) => c.id), ...campaigns.map((c) => c.id)]);
    const finalThemeIds = new Set([...existingThemes.map((t) => t.id), ...themes.map((t) => t.id)]);

    missions.forEach((m, i) => {
      const where = `missions[${i}] (id "${m.id}")`;
      if (m.campaignId && !finalCampaignIds.has(m.campaignId)) invalid(where, `campaignId "${m.campaignId}" is not a campaign of this app`);
      for (const pre of m.prerequisites) {
        if (pre === m.id) invalid(where, 'a mission cannot be its own prerequisite');
        if (!finalMissions.has(pre)) invalid(where, `prerequisite "${pre}" is not a mission of this app`);
      }
    });
    const cycle = findCycle(finalMissions);
    if (cycle) invalid(`missions (id "${cycle}")`, 'prerequisites form a cycle');
    campaigns.forEach((c, i) => {
      if (c.themeId !== undefined && !finalThemeIds.has(c.themeId)) invalid(`campaigns[${i}] (id "${c.id}")`, `themeId "${c.themeId}" is not a theme of this app`);
      if (!c.missionIds) return;
      const actual = new Set([...finalMissions.values()].filter((m) => m.campaignId === c.id).map((m) => m.id));
      for (const id of c.missionIds) {
        if (!actual.has(id)) invalid(`campaigns[${i}] (id "${c.id}")`, `missionIds lists "${id}", whose campaignId is not "${c.id}"`);
      }
    });

    const beforeMissions = new Map(existingMissions.map((m) => [m.id, m]));
    const beforeCampaigns = new Map(existingCampaigns.map((c) => [c.id, c]));
    const beforeThemes = new Map(existingThemes.map((t) => [t.id, t]));
    // Presets first: the campaigns below may name them.
    for (const t of themes) {
      const values = { ...themeColumns(t), updatedAt: now };
      await db
        .insert(themesTable)
        .values({ appId, id: t.id, ...values, createdAt: now })
        .onConflictDoUpdate({ target: [themesTable.appId, themesTable.id], set: { ...values, version: sql`${themesTable.version} + 1` } });
      const before = beforeThemes.get(t.id) ?? null;
      await recordAudit(db, { actor, action: before ? 'theme.update' : 'theme.create', appId, target: `theme:${t.id}`, before, after: t }, now);
    }
    for (const c of campaigns) {
      const values = { ...campaignColumns(c), updatedAt: now };
      // The version moves with every write, so a console edit begun before this import is refused (409).
      await db
        .insert(campaignsTable)
        .values({ appId, id: c.id, ...values, createdAt: now })
        .onConflictDoUpdate({ target: [campaignsTable.appId, campaignsTable.id], set: { ...values, version: sql`${campaignsTable.version} + 1` } });
      const before = beforeCampaigns.get(c.id) ?? null;
      await recordAudit(db, { actor, action: before ? 'campaign.update' : 'campaign.create', appId, target: `campaign:${c.id}`, before, after: c }, now);
    }
    for (const m of missions) {
      const values = { ...missionColumns(m), updatedAt: now };
      await db
        .insert(missionsTable)
        .values({ appId, id: m.id, ...values, createdAt: now })
        // A console edit based on the version before this import is then refused (409), not lost.
        .onConflictDoUpdate({ target: [missionsTable.appId, missionsTable.id], set: { ...values, version: sql`${missionsTable.version} + 1` } });
      const before = beforeMissions.get(m.id) ?? null;
      await recordAudit(db, { actor, action: before ? 'mission.update' : 'mission.create', appId, target: `mission:${m.id}`, before, after: m }, now);
    }
    // A section given is merged by id into the app's (absent: kept); either way completed with what the catalog names.
    const finalCampaigns = new Map(existingCampaigns.map((c) => [c.id, c as { budget?: CampaignIn['budget'] }]));
    campaigns.forEach((c) => finalCampaigns.set(c.id, c));
    const stored = await readEconomySections(db, appId);
    const merge = <T extends { id: string }>(have: T[] | undefined, given: T[] | undefined) =>
      given ? [...new Map([...(have ?? []), ...given].map((d) => [d.id, d])).values()] : undefined;
    await storeEconomy(db, {
      appId,
      stored,
      wanted: { currencies: merge(stored.currencies, economy.currencies), items: merge(stored.items, economy.items) },
      missions: [...finalMissions.values()],
      campaigns: [...finalCampaigns.values()].map((c) => ({ budget: c.budget ?? undefined })),
      actor,
      now,
    });
    // Missions whose count, window or archived flag this write changes: their holders' streams get the new reading.
    await recordCatalogWrite(tx, { before: releaseBefore, now, streamed: streamedChanges(beforeMissions, missions) });
  });
  return exportCatalog({ ctx });
}
