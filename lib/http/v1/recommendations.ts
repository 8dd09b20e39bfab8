// GET /v1/recommendations – missions the caller should focus on next, ranked by the model or the fallback
import { recommendationsQuerySchema } from '@/lib/contract/v1';
import { getRecommendations } from '@/lib/services/recommendations/get-recommendations';
import { recommendationsLimiter } from '@/lib/ratelimit/policies';
import { userRoute } from '../handler';
import { json } from '../respond';
import { parseWith, queryOf } from '../validate';
import { userServiceContext } from '../service-context';

export const getRecommendationsHandler = userRoute({ limiter: recommendationsLimiter }, async ({ req, auth, requestId }) => {
  const { limit } = parseWith(recommendationsQuerySchema, queryOf(req));
  return json(await getRecommendations({ ctx: await userServiceContext(auth, requestId), input: { userId: auth.userId, limit } }));
});
