// GET /v1/campaigns – list campaigns (ended ones only with include=expired)
// GET /v1/campaigns/:id – one campaign, with its missions on include=missions
import { serviceNow } from '@/lib/clock';
import type { z } from 'zod';
import { getDb } from '@/db/client';
import { getCatalog } from '@/lib/catalog/catalog';
import { publicCampaign, publicMission } from '@/lib/catalog/convert';
import { campaignQuerySchema, listCampaignsQuerySchema, type campaignDetailSchema } from '@/lib/contract/v1';
import { AppError } from '@/lib/errors';
import { viewMission } from '@/lib/missions/read-missions';
import { readRecords } from '@/lib/progress/records';
import { userRoute } from '../handler';
import { json } from '../respond';
import { parseWith, queryOf } from '../validate';

export const listCampaigns = userRoute({}, async ({ req, auth }) => {
  const { include } = parseWith(listCampaignsQuerySchema, queryOf(req));
  const now = serviceNow();
  const catalog = await getCatalog(auth.appId);
  const campaigns = [...catalog.campaigns.values()].filter((c) => !c.archived && (include === 'expired' || c.endAt >= now));
  return json({ campaigns: campaigns.map(publicCampaign) });
});

export const getCampaign = userRoute({}, async ({ req, auth, params }) => {
  const { include } = parseWith(campaignQuerySchema, queryOf(req));
  const catalog = await getCatalog(auth.appId);
  const campaign = catalog.campaigns.get(params.id);
  if (!campaign || campaign.archived) throw new AppError('campaign_not_found', `No campaign "${params.id}"`);
  const body: z.output<typeof campaignDetailSchema> = { campaign: publicCampaign(campaign) };
  if (include === 'missions') {
    // `locked` is per user: the hydrated missions need the caller's records.
    const records = await readRecords(await getDb(), auth.appId, auth.userId);
    const now = serviceNow();
    body.missions = campaign.missionIds
      .map((id) => catalog.missions.get(id))
      .filter((m) => m !== undefined && !m.archived)
      .map((m) => publicMission(m!, viewMission(catalog, m!, records, now).locked));
  }
  return json(body);
});
