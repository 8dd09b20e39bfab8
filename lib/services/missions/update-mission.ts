// PUT …/missions/:missionId: the mission (parsed by the caller with
// parseMission, lib/services/_shared/missions.ts) written over the stored one
// if it is still at `version` (409 conflict otherwise); audited as
// mission.update with its release, in one transaction.
import type { Mission } from '@/lib/contract/mission';
import type { MissionRecord } from '@/lib/contract/mission-admin';
import type { ServiceContext } from '../context';
import { replaceMission } from '../_shared/missions';

export async function updateMission({ ctx, input }: { ctx: ServiceContext; input: { id: string; version: number; mission: Mission } }): Promise<MissionRecord> {
  const { id, version, mission } = input;
  return replaceMission(ctx, { id, version, action: 'mission.update', change: () => mission });
}
