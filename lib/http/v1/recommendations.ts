// GET /v1/recommendations – missions the caller should focus on next, ranked by the model or the fallback
import { z } from 'zod';
import { DEFAULT_LIMIT, getRecommendations, MAX_LIMIT } from '@/lib/recommendations/recommend';
import { recommendationsLimiter } from '@/lib/ratelimit/policies';
import { userRoute } from '../handler';
import { json } from '../respond';
import { parseWith, queryOf } from '../validate';

export const recommendationsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
});

export const recommendationsSchema = z
  .object({
    userId: z.string(),
    missionIds: z.array(z.string()).max(MAX_LIMIT),
    reason: z.string(),
    fallback: z.boolean(),
    generatedAt: z.number(),
  })
  .meta({ id: 'Recommendations' });

export const getRecommendationsHandler = userRoute({ limiter: recommendationsLimiter }, async ({ req, auth }) => {
  const { limit } = parseWith(recommendationsQuerySchema, queryOf(req));
  return json(await getRecommendations({ ctx: { appId: auth.appId, userId: auth.userId }, input: { limit } }));
});
