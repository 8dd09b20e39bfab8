// DELETE …/campaigns/:campaignId: deletes a campaign that no mission names,
// archived ones included (409 conflict naming them otherwise: move them out,
// or archive the campaign; 409 too when `version` is given and stale).
// Audited as campaign.delete with its release, in one transaction.
import { and, eq } from 'drizzle-orm';
import { campaigns as campaignsTable } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import { AppError } from '@/lib/errors';
import type { ServiceContext } from '../context';
import { campaignRecord, lockCampaign, missionIdsOf } from '../_shared/campaigns';
import { staleVersion, writeCatalog } from '../_shared/catalog-write';

export async function deleteCampaign({ ctx, input }: { ctx: ServiceContext; input: { id: string; version?: number } }): Promise<void> {
  const { appId } = ctx;
  const { id, version } = input;
  const now = ctx.now();
  await writeCatalog(ctx, {
    now,
    write: async ({ db, actor }) => {
      const current = await lockCampaign(db, appId, id);
      if (version !== undefined && current.version !== version) throw staleVersion('Campaign', id, version, current.version);
      const missionIds = await missionIdsOf(db, appId, id);
      if (missionIds.length > 0) {
        throw new AppError('conflict', `Campaign "${id}" has missions ${missionIds.map((m) => `"${m}"`).join(', ')}: move them out first, or archive the campaign`);
      }
      await db.delete(campaignsTable).where(and(eq(campaignsTable.appId, appId), eq(campaignsTable.id, id)));
      await recordAudit(db, { actor, action: 'campaign.delete', appId, target: `campaign:${id}`, before: campaignRecord(current, []), after: null }, now);
      return { value: undefined };
    },
  });
}
