// POST …/campaigns: a new campaign (409 conflict when the id is taken) whose
// references exist; `missionIds` assigns exactly those missions to it, each
// reassigned mission audited too. Audited as campaign.create with its
// release, in one transaction.
import { campaigns as campaignsTable } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import { campaignColumns } from '@/lib/catalog/convert';
import type { CampaignRecord } from '@/lib/contract/catalog-admin';
import { AppError } from '@/lib/errors';
import type { ServiceContext } from '../context';
import { assignMissions, campaignRecord, checkCampaignReferences, missionIdsOf, type CampaignIn } from '../_shared/campaigns';
import { writeCatalog } from '../_shared/catalog-write';

export async function createCampaign({ ctx, input }: { ctx: ServiceContext; input: { campaign: CampaignIn } }): Promise<CampaignRecord> {
  const { appId } = ctx;
  const { campaign } = input;
  const now = ctx.now();
  const { value } = await writeCatalog(ctx, {
    now,
    write: async ({ db, actor }) => {
      await checkCampaignReferences(db, appId, campaign);
      const [row] = await db
        .insert(campaignsTable)
        .values({ appId, id: campaign.id, ...campaignColumns(campaign), version: 1, createdAt: now, updatedAt: now })
        .onConflictDoNothing()
        .returning();
      if (!row) throw new AppError('conflict', `A campaign "${campaign.id}" exists already in app "${appId}"`);
      if (campaign.missionIds) await assignMissions(db, { actor, now }, appId, campaign.id, campaign.missionIds);
      const created = campaignRecord(row, await missionIdsOf(db, appId, campaign.id));
      await recordAudit(db, { actor, action: 'campaign.create', appId, target: `campaign:${campaign.id}`, before: null, after: created }, now);
      return { value: created };
    },
  });
  return value;
}
