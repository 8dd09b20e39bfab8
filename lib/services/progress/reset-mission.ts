// A staff reset of one player's mission: the record returns to no progress in
// the current window (active, count 0). A claimed reward is not taken back
// (that is a currency correction); a claimed record starts its next cycle, so
// the player can earn the mission again. `mission.progress` on the stream.
import type { MissionActionResult } from '@/lib/contract/desk';
import type { Outcome } from '@/lib/idempotency/run-idempotent';
import { windowStart, zoneStamp } from '@/lib/missions/windows';
import type { ServiceContext } from '../context';
import { missionAction, type MissionActionInput } from './mission-action';

export async function resetMission({ ctx, input }: { ctx: ServiceContext; input: MissionActionInput }): Promise<Outcome<MissionActionResult>> {
  return missionAction({
    ctx,
    input: {
      ...input,
      op: 'mission_reset',
      next: (mission, record, now, zone) => ({
        userId: input.userId,
        missionId: mission.id,
        status: 'active',
        currentCount: 0,
        targetCount: mission.criteria.count,
        windowStart: windowStart(mission.criteria.window, now, zone),
        // The zone the window is bucketed in, kept with it (a later zone change never moves it).
        state: zoneStamp(mission.criteria.window, zone),
        // The next claim writes a new ledger grant key (mission:<id>:cycle:<n>), never the claimed one again.
        cycle: record === null ? 1 : record.status === 'claimed' ? record.cycle + 1 : record.cycle,
        updatedAt: now,
      }),
    },
  });
}
