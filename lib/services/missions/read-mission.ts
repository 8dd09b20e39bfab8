// readMission: GET /v1/missions/:id, one mission and a player's view of it
// (mission_not_found when it does not exist for them: lib/missions/read-missions.ts).
import { readMissionView, type MissionView } from '@/lib/missions/read-missions';
import { userStateAt } from '@/lib/progress/user-state';
import type { ServiceContext } from '../context';

export async function readMission({ ctx, input }: { ctx: ServiceContext; input: { userId: string; missionId: string } }): Promise<MissionView> {
  const catalog = ctx.catalog ?? (await ctx.deps.catalog(ctx.appId));
  // The user's state is read only for a mission the catalog has.
  const state = catalog.missions.has(input.missionId) ? await userStateAt(ctx.deps.db, ctx.appId, input.userId, undefined) : null;
  return readMissionView(catalog, input.missionId, state, ctx.now());
}
