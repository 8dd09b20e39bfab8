// listMissions: GET /v1/missions, one page of a player's view of the catalog
// (the live one, or ctx.catalog: a draft's, for the preview as a player).
// The user's state comes from lib/progress/user-state.ts: its cache answers
// when `latestSeq` (the update log's number, read with the token checks)
// matches, else one statement.
import type { Catalog } from '@/lib/catalog/catalog';
import { listMissionViews, type ListQuery, type MissionView } from '@/lib/missions/read-missions';
import { userStateAt } from '@/lib/progress/user-state';
import type { ServiceContext } from '../context';

export interface ListMissionsInput extends ListQuery {
  userId: string;
  /** The user's latest sequence number as the update log knows it, read with the token checks; undefined: not known. */
  latestSeq?: number | null;
}

export interface MissionList {
  /** The catalog the views were built from (the HTTP answer caches its pieces per catalog version). */
  catalog: Catalog;
  views: MissionView[];
  nextAfter: string | null;
}

export async function listMissions({ ctx, input }: { ctx: ServiceContext; input: ListMissionsInput }): Promise<MissionList> {
  const catalog = ctx.catalog ?? (await ctx.deps.catalog(ctx.appId));
  const now = ctx.now();
  const state = await userStateAt(ctx.deps.db, ctx.appId, input.userId, input.latestSeq);
  return { catalog, ...listMissionViews(catalog, state, input, now) };
}
