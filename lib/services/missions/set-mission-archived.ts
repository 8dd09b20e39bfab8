// POST …/missions/:missionId/{archive,unarchive}: the mission's archived flag
// set (guarded by `version` when given), audited as mission.archive or
// mission.unarchive with its release, in one transaction.
import type { MissionRecord } from '@/lib/contract/mission-admin';
import type { ServiceContext } from '../context';
import { replaceMission } from '../_shared/missions';

export async function setMissionArchived({ ctx, input }: { ctx: ServiceContext; input: { id: string; archived: boolean; version?: number } }): Promise<MissionRecord> {
  const { id, archived, version } = input;
  return replaceMission(ctx, { id, version, action: archived ? 'mission.archive' : 'mission.unarchive', change: (current) => ({ ...current, archived }) });
}
