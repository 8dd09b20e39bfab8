// GET /v1/campaigns – list campaigns (ended ones only with include=expired)
// GET /v1/campaigns/:id – one campaign, with its missions on include=missions
import { z } from 'zod';
import { getCatalog } from '@/lib/catalog/catalog';
import { publicCampaign, publicMission } from '@/lib/catalog/convert';
import { AppError } from '@/lib/errors';
import { themeSchema } from '@/lib/missions/schema';
import { userRoute } from '../handler';
import { json } from '../respond';
import { parseWith, queryOf } from '../validate';
import { publicMissionSchema } from './missions';

export const publicCampaignSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    startAt: z.number(),
    endAt: z.number(),
    missionIds: z.array(z.string()),
    theme: themeSchema.optional(),
    bannerUrl: z.string(),
  })
  .meta({ id: 'Campaign' });

export const campaignListSchema = z.object({ campaigns: z.array(publicCampaignSchema) }).meta({ id: 'CampaignList' });
export const campaignDetailSchema = z
  .object({ campaign: publicCampaignSchema, missions: z.array(publicMissionSchema).optional() })
  .meta({ id: 'CampaignDetail' });

const listQuery = z.object({ include: z.literal('expired').optional() });
const detailQuery = z.object({ include: z.literal('missions').optional() });

export const listCampaigns = userRoute({}, async ({ req, auth }) => {
  const { include } = parseWith(listQuery, queryOf(req));
  const now = Date.now();
  const catalog = await getCatalog(auth.appId);
  const campaigns = [...catalog.campaigns.values()].filter((c) => !c.archived && (include === 'expired' || c.endAt >= now));
  return json({ campaigns: campaigns.map(publicCampaign) });
});

export const getCampaign = userRoute({}, async ({ req, auth, params }) => {
  const { include } = parseWith(detailQuery, queryOf(req));
  const catalog = await getCatalog(auth.appId);
  const campaign = catalog.campaigns.get(params.id);
  if (!campaign || campaign.archived) throw new AppError('campaign_not_found', `No campaign "${params.id}"`);
  const body: Record<string, unknown> = { campaign: publicCampaign(campaign) };
  if (include === 'missions') {
    body.missions = campaign.missionIds
      .map((id) => catalog.missions.get(id))
      .filter((m) => m !== undefined && !m.archived)
      .map((m) => publicMission(m!));
  }
  return json(body);
});
