// GET /v1/campaigns – list campaigns (ended ones only with include=expired)
// GET /v1/campaigns/:id – one campaign, with its missions on include=missions
import { campaignQuerySchema, listCampaignsQuerySchema } from '@/lib/contract/v1';
import { getPlayerCampaign, listPlayerCampaigns } from '@/lib/services/campaigns/player-campaigns';
import { userRoute } from '../handler';
import { json } from '../respond';
import { userServiceContext } from '../service-context';
import { parseWith, queryOf } from '../validate';

export const listCampaigns = userRoute({}, async ({ req, auth, requestId }) => {
  const { include } = parseWith(listCampaignsQuerySchema, queryOf(req));
  return json(await listPlayerCampaigns({ ctx: await userServiceContext(auth, requestId), input: { userId: auth.userId, include } }));
});

export const getCampaign = userRoute({}, async ({ req, auth, params, requestId }) => {
  const { include } = parseWith(campaignQuerySchema, queryOf(req));
  return json(await getPlayerCampaign({ ctx: await userServiceContext(auth, requestId), input: { userId: auth.userId, campaignId: params.id, include } }));
});
