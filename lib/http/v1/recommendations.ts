// GET /v1/recommendations – missions the caller should focus on next, ranked by the model or the fallback
import { recommendationsQuerySchema } from '@/lib/contract/v1';
import { getRecommendations } from '@/lib/recommendations/recommend';
import { recommendationsLimiter } from '@/lib/ratelimit/policies';
import { userRoute } from '../handler';
import { json } from '../respond';
import { parseWith, queryOf } from '../validate';
import { userServiceContext } from '../service-context';

export const getRecommendationsHandler = userRoute({ limiter: recommendationsLimiter }, async ({ req, auth, requestId }) => {
  const { limit } = parseWith(recommendationsQuerySchema, queryOf(req));
  return json(await getRecommendations({ ctx: { appId: auth.appId, userId: auth.userId, db: (await userServiceContext(auth, requestId)).deps.db }, input: { limit } }));
});
