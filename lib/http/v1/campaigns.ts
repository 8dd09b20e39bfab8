// GET /v1/campaigns – list campaigns (ended ones only with include=expired)
// GET /v1/campaigns/:id – one campaign, with its missions on include=missions
import { serviceNow } from '@/lib/clock';
import type { z } from 'zod';
import { getDb } from '@/db/client';
import { getCatalog } from '@/lib/catalog/catalog';
import { publicCampaign, publicMission } from '@/lib/catalog/convert';
import { campaignQuerySchema, listCampaignsQuerySchema, type campaignDetailSchema } from '@/lib/contract/v1';
import { AppError } from '@/lib/errors';
import { viewMission, visibleTo } from '@/lib/missions/read-missions';
import { matchesFilter } from '@/lib/missions/filter';
import { readAttributes, zoneOf, type UserAttributes } from '@/lib/users/attributes';
import type { Catalog } from '@/lib/catalog/catalog';
import type { Campaign } from '@/lib/missions/schema';
import { readRecords } from '@/lib/progress/records';
import { userRoute } from '../handler';
import { json } from '../respond';
import { parseWith, queryOf } from '../validate';

export const listCampaigns = userRoute({}, async ({ req, auth }) => {
  const { include } = parseWith(listCampaignsQuerySchema, queryOf(req));
  const now = serviceNow();
  const catalog = await getCatalog(auth.appId);
  let campaigns = [...catalog.campaigns.values()].filter((c) => !c.archived && (include === 'expired' || c.endAt >= now));
  // Audiences: the caller's attributes are read only when some campaign or mission has one.
  const audiences = campaigns.some((c) => c.audience !== undefined || c.missionIds.some((id) => catalog.missions.get(id)?.audience !== undefined));
  if (!audiences) return json({ campaigns: campaigns.map(publicCampaign) });
  const attributes = await readAttributes(await getDb(), auth.appId, auth.userId);
  campaigns = campaigns.filter((c) => inCampaignAudience(c, attributes));
  return json({ campaigns: campaigns.map((c) => forUser(catalog, c, attributes)) });
});

export const getCampaign = userRoute({}, async ({ req, auth, params }) => {
  const { include } = parseWith(campaignQuerySchema, queryOf(req));
  const catalog = await getCatalog(auth.appId);
  const campaign = catalog.campaigns.get(params.id);
  if (!campaign || campaign.archived) throw new AppError('campaign_not_found', `No campaign "${params.id}"`);
  const db = await getDb();
  const attributes = await readAttributes(db, auth.appId, auth.userId);
  // Outside the campaign's audience the campaign does not exist for the caller.
  if (!inCampaignAudience(campaign, attributes)) throw new AppError('campaign_not_found', `No campaign "${params.id}"`);
  const body: z.output<typeof campaignDetailSchema> = { campaign: forUser(catalog, campaign, attributes) };
  if (include === 'missions') {
    // `locked` is per user: the hydrated missions need the caller's records.
    const records = await readRecords(db, auth.appId, auth.userId);
    const now = serviceNow();
    body.missions = campaign.missionIds
      .map((id) => catalog.missions.get(id))
      .filter((m) => m !== undefined && !m.archived && visibleTo(catalog, m, attributes))
      .map((m) => publicMission(m!, viewMission(catalog, m!, records, now, zoneOf(attributes)).locked));
  }
  return json(body);
});

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
