// PUT of an app's catalog (themes, campaigns, missions): validated as a whole
// (one invalid item and nothing is written), upserted by id in one transaction
// with an audit row per change.
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { campaigns as campaignsTable, missions as missionsTable, themes as themesTable } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { recordAudit } from '@/lib/audit';
import { findApp } from '@/lib/apps/apps';
import { campaignFormSchema, type campaignSchema } from '@/lib/contract/campaign';
import type { CatalogDocument } from '@/lib/contract/catalog';
import { missionSchema } from '@/lib/contract/mission';
import { themePresetSchema } from '@/lib/contract/theme';
import { describeIssues } from '@/lib/contract/describe-issues';
import { campaignColumns, campaignFromRow, missionColumns, missionFromRow, themeColumns, themeFromRow } from './convert';
import { afterCatalogEdit, streamedChanges } from '@/lib/updates/resync';
import { invalidateCatalog } from './catalog';
import { catalogEnvelopeSchema, findCycle, invalid, parseItems } from './catalog-document';
import { beginCatalogWrite, recordRelease } from './record-release';

export { findCycle };

type CampaignIn = z.output<typeof campaignSchema>;

export async function exportCatalog(appId: string): Promise<CatalogDocument> {
  const db = await getDb();
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
  return doc;
}

export async function putCatalog(appId: string, input: unknown, actor: string, now = Date.now()): Promise<CatalogDocument> {
  if (!(await findApp(await getDb(), appId))) throw new AppError('app_not_found', `No app "${appId}"`);
  const body = catalogEnvelopeSchema.safeParse(input);
  if (!body.success) invalid('body', describeIssues(body.error));
  // The same schemas as the console's forms: fields, filters, campaign bounds.
  const missions = parseItems(missionSchema, body.data.missions, 'missions');
  const campaigns: CampaignIn[] = parseItems(campaignFormSchema, body.data.campaigns, 'campaigns');
  const themes = parseItems(themePresetSchema, body.data.themes, 'themes');

  const db = await getDb();
  // Missions whose count, window or archived flag this write changes: their holders' streams get the new reading.
  let streamed: string[] = [];
  await db.transaction(async (tx) => {
    const releaseBefore = await beginCatalogWrite(tx, appId);
    const existingMissions = (await tx.select().from(missionsTable).where(eq(missionsTable.appId, appId))).map(missionFromRow);
    const existingCampaigns = await tx.select().from(campaignsTable).where(eq(campaignsTable.appId, appId));
    // FOR SHARE: a preset the campaigns below may name cannot be deleted until
    // this write commits, and one deleted just before (its delete holding the
    // row) is not read, so the reference check below refuses it (400) instead
    // of the insert failing on the foreign key (500).
    const existingThemes = (await tx.select().from(themesTable).where(eq(themesTable.appId, appId)).for('share')).map(themeFromRow);

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
    streamed = streamedChanges(beforeMissions, missions);
    const beforeCampaigns = new Map(existingCampaigns.map((c) => [c.id, c]));
    const beforeThemes = new Map(existingThemes.map((t) => [t.id, t]));
    // Presets first: the campaigns below may name them.
    for (const t of themes) {
      const values = { ...themeColumns(t), updatedAt: now };
      await tx
        .insert(themesTable)
        .values({ appId, id: t.id, ...values, createdAt: now })
        .onConflictDoUpdate({ target: [themesTable.appId, themesTable.id], set: { ...values, version: sql`${themesTable.version} + 1` } });
      const before = beforeThemes.get(t.id) ?? null;
      await recordAudit(tx, { actor, action: before ? 'theme.update' : 'theme.create', appId, target: `theme:${t.id}`, before, after: t }, now);
    }
    for (const c of campaigns) {
      const values = { ...campaignColumns(c), updatedAt: now };
      // The version moves with every write, so a console edit begun before this import is refused (409).
      await tx
        .insert(campaignsTable)
        .values({ appId, id: c.id, ...values, createdAt: now })
        .onConflictDoUpdate({ target: [campaignsTable.appId, campaignsTable.id], set: { ...values, version: sql`${campaignsTable.version} + 1` } });
      const before = beforeCampaigns.get(c.id) ?? null;
      await recordAudit(tx, { actor, action: before ? 'campaign.update' : 'campaign.create', appId, target: `campaign:${c.id}`, before, after: c }, now);
    }
    for (const m of missions) {
      const values = { ...missionColumns(m), updatedAt: now };
      await tx
        .insert(missionsTable)
        .values({ appId, id: m.id, ...values, createdAt: now })
        // A console edit based on the version before this import is then refused (409), not lost.
        .onConflictDoUpdate({ target: [missionsTable.appId, missionsTable.id], set: { ...values, version: sql`${missionsTable.version} + 1` } });
      const before = beforeMissions.get(m.id) ?? null;
      await recordAudit(tx, { actor, action: before ? 'mission.update' : 'mission.create', appId, target: `mission:${m.id}`, before, after: m }, now);
    }
    await recordRelease(tx, { appId, before: releaseBefore, actor, now });
  });
  await invalidateCatalog(appId);
  void afterCatalogEdit(appId, streamed, now);
  return exportCatalog(appId);
}
