// GET …/missions/:missionId: one mission with its version (404 mission_not_found).
import type { MissionRecord } from '@/lib/contract/mission-admin';
import { AppError } from '@/lib/errors';
import type { ServiceContext } from '../context';
import { findMissionRow, missionRecordFromRow } from '../_shared/missions';

export async function getMissionRecord({ ctx, input }: { ctx: ServiceContext; input: { id: string } }): Promise<MissionRecord> {
  const row = await findMissionRow(ctx.deps.db, ctx.appId, input.id);
  if (!row) throw new AppError('mission_not_found', `No mission "${input.id}" in app "${ctx.appId}"`);
  return missionRecordFromRow(row);
}
