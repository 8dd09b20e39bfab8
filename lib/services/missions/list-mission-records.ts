// GET …/missions: the app's missions in id order (at most the app's limit),
// filtered by a search text (id, title, description), campaign ("none": no
// campaign), status, event name and window.
import { and, asc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { missions as missionsTable } from '@/db/schema';
import { CATALOG_LIMITS } from '@/lib/contract/catalog';
import type { MissionListQuery, MissionRecord } from '@/lib/contract/mission-admin';
import type { ServiceContext } from '../context';
import { missionRecordFromRow } from '../_shared/missions';

/** `%` and `_` are literal in a search box. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listMissionRecords({ ctx, input: query }: { ctx: ServiceContext; input: MissionListQuery }): Promise<MissionRecord[]> {
  const where: SQL[] = [eq(missionsTable.appId, ctx.appId)];
  if (query.q) {
    const pattern = likePattern(query.q);
    where.push(or(ilike(missionsTable.id, pattern), ilike(missionsTable.title, pattern), ilike(missionsTable.description, pattern))!);
  }
  if (query.campaignId === 'none') where.push(sql`${missionsTable.campaignId} is null`);
  else if (query.campaignId) where.push(eq(missionsTable.campaignId, query.campaignId));
  if (query.status === 'live') where.push(eq(missionsTable.archived, false));
  if (query.status === 'archived') where.push(eq(missionsTable.archived, true));
  if (query.eventName) where.push(sql`${missionsTable.criteria}->>'eventName' = ${query.eventName}`);
  if (query.window) where.push(sql`coalesce(${missionsTable.criteria}->>'window', 'lifetime') = ${query.window}`);
  const rows = await ctx.deps.db.select().from(missionsTable).where(and(...where)).orderBy(asc(missionsTable.id)).limit(CATALOG_LIMITS.missions);
  return rows.map(missionRecordFromRow);
}
