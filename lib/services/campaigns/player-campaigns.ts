// Campaigns as a player reads them (GET /v1/campaigns[/:id]): the live ones
// (ended ones on request), without those outside the player's audience, each
// listing only the missions the player may see; one campaign with its missions
// (and their per-player lock) on request.
import type { z } from 'zod';
import type { Catalog } from '@/lib/catalog/catalog';
import { publicCampaign, publicMission } from '@/lib/catalog/convert';
import type { campaignDetailSchema } from '@/lib/contract/v1';
import { AppError } from '@/lib/errors';
import { matchesFilter } from '@/lib/missions/filter';
import { viewMission, visibleTo } from '@/lib/missions/read-missions';
import type { Campaign } from '@/lib/missions/schema';
import { readRecords } from '@/lib/progress/records';
import { readAttributes, zoneOf, type UserAttributes } from '@/lib/users/attributes';
import type { ServiceContext } from '../context';

type PublicCampaign = ReturnType<typeof publicCampaign>;

export async function listPlayerCampaigns({ ctx, input }: { ctx: ServiceContext; input: { userId: string; include?: 'expired' } }): Promise<{ campaigns: PublicCampaign[] }> {
  const now = ctx.now();
  const catalog = await ctx.deps.catalog(ctx.appId);
  let campaigns = [...catalog.campaigns.values()].filter((c) => !c.archived && (input.include === 'expired' || c.endAt >= now));
  // Audiences: the caller's attributes are read only when some campaign or mission has one.
  const audiences = campaigns.some((c) => c.audience !== undefined || c.missionIds.some((id) => catalog.missions.get(id)?.audience !== undefined));
  if (!audiences) return { campaigns: campaigns.map(publicCampaign) };
  const attributes = await readAttributes(ctx.deps.db, ctx.appId, input.userId);
  campaigns = campaigns.filter((c) => inCampaignAudience(c, attributes));
  return { campaigns: campaigns.map((c) => forUser(catalog, c, attributes)) };
}

export async function getPlayerCampaign({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; campaignId: string; include?: 'missions' };
}): Promise<z.output<typeof campaignDetailSchema>> {
  const catalog = await ctx.deps.catalog(ctx.appId);
  const campaign = catalog.campaigns.get(input.campaignId);
  if (!campaign || campaign.archived) throw new AppError('campaign_not_found', `No campaign "${input.campaignId}"`);
  const { db } = ctx.deps;
  const attributes = await readAttributes(db, ctx.appId, input.userId);
  // Outside the campaign's audience the campaign does not exist for the caller.
  if (!inCampaignAudience(campaign, attributes)) throw new AppError('campaign_not_found', `No campaign "${input.campaignId}"`);
  const body: z.output<typeof campaignDetailSchema> = { campaign: forUser(catalog, campaign, attributes) };
  if (input.include === 'missions') {
    // `locked` is per user: the hydrated missions need the caller's records.
    const records = await readRecords(db, ctx.appId, input.userId);
    const now = ctx.now();
    body.missions = campaign.missionIds
      .map((id) => catalog.missions.get(id))
      .filter((m) => m !== undefined && !m.archived && visibleTo(catalog, m, attributes))
      .map((m) => publicMission(m!, viewMission(catalog, m!, records, now, zoneOf(attributes)).locked));
  }
  return body;
}

function inCampaignAudience(campaign: Campaign, attributes: UserAttributes): boolean {
  return campaign.audience === undefined || matchesFilter(campaign.audience, attributes);
}

/** The campaign as this user sees it: missionIds without the missions outside their audience. */
function forUser(catalog: Catalog, campaign: Campaign, attributes: UserAttributes) {
  const missionIds = campaign.missionIds.filter((id) => {
    const m = catalog.missions.get(id);
    return m === undefined || visibleTo(catalog, m, attributes);
  });
  return publicCampaign({ ...campaign, missionIds });
}
