// getRecommendations: the missions a player should focus on next, ranked by
// the model or the deterministic fallback, cached per user
// (lib/recommendations/recommend.ts).
import { currentRecommendations, type Recommendation } from '@/lib/recommendations/recommend';
import type { ServiceContext } from '../context';

export async function getRecommendations({ ctx, input }: { ctx: ServiceContext; input: { userId: string; limit: number } }): Promise<Recommendation> {
  return currentRecommendations(ctx.deps.db, { appId: ctx.appId, userId: input.userId }, input.limit);
}
