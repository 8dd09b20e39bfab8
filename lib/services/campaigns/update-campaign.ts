// PUT …/campaigns/:campaignId: the campaign replaced if it is still at
// `version` (409 conflict otherwise); `missionIds`, when sent, assigns exactly
// those missions. Audited as campaign.update with its release, in one
// transaction. A campaign equal to the stored one writes nothing.
import { and, eq } from 'drizzle-orm';
import { campaigns as campaignsTable } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import { campaignColumns, campaignFromRow, sameColumns } from '@/lib/catalog/convert';
import type { CampaignRecord } from '@/lib/contract/catalog-admin';
import type { ServiceContext } from '../context';
import { assignMissions, campaignRecord, checkCampaignReferences, lockCampaign, missionIdsOf, type CampaignIn } from '../_shared/campaigns';
import { staleVersion, writeCatalog } from '../_shared/catalog-write';

export async function updateCampaign({ ctx, input }: { ctx: ServiceContext; input: { campaign: CampaignIn; version: number } }): Promise<CampaignRecord> {
  const { appId } = ctx;
  const { campaign, version } = input;
  const now = ctx.now();
  const { value } = await writeCatalog(ctx, {
    now,
    write: async ({ db, actor }) => {
      const current = await lockCampaign(db, appId, campaign.id);
      if (current.version !== version) throw staleVersion('Campaign', campaign.id, version, current.version);
      const before = campaignRecord(current, await missionIdsOf(db, appId, campaign.id));
      // Nothing changes (fields, and the missions when sent): the campaign as it is, same version, no audit row.
      const sameMissions = !campaign.missionIds || sameColumns([...new Set(campaign.missionIds)].sort(), [...before.missionIds].sort());
      if (sameMissions && sameColumns(campaignColumns(campaign), campaignColumns(campaignFromRow(current, [])))) return { value: before, unchanged: true };
      await checkCampaignReferences(db, appId, campaign);
      const [row] = await db
        .update(campaignsTable)
        .set({ ...campaignColumns(campaign), version: current.version + 1, updatedAt: now })
        .where(and(eq(campaignsTable.appId, appId), eq(campaignsTable.id, campaign.id)))
        .returning();
      if (campaign.missionIds) await assignMissions(db, { actor, now }, appId, campaign.id, campaign.missionIds);
      const after = campaignRecord(row, await missionIdsOf(db, appId, campaign.id));
      await recordAudit(db, { actor, action: 'campaign.update', appId, target: `campaign:${campaign.id}`, before, after }, now);
      return { value: after };
    },
  });
  return value;
}
