// How many players have progress on a mission now, by status: what the
// mission editor shows before a change to a live mission is saved (a changed
// criterion applies from each player's next event; docs/api.md "Drafts and
// releases"). One grouped count over the progress table's (app, user,
// mission) records; 0 everywhere for a mission nobody has started, or one
// that is not live (only in the draft).
import { and, count, eq } from 'drizzle-orm';
import { progress } from '@/db/schema';
import type { MissionProgressCounts } from '@/lib/contract/release';
import type { ServiceContext } from '../context';

export async function missionProgressCounts({ ctx, input }: { ctx: ServiceContext; input: { missionId: string } }): Promise<MissionProgressCounts> {
  const rows = await ctx.deps.db
    .select({ status: progress.status, n: count() })
    .from(progress)
    .where(and(eq(progress.appId, ctx.appId), eq(progress.missionId, input.missionId)))
    .groupBy(progress.status);
  const by = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])) as Partial<Record<'active' | 'completed' | 'claimed', number>>;
  const active = by.active ?? 0;
  const completed = by.completed ?? 0;
  const claimed = by.claimed ?? 0;
  return { missionId: input.missionId, players: active + completed + claimed, active, completed, claimed };
}
