// A staff completion of one player's mission (a player who was wronged): the
// record becomes completed in the current window, claimable by the player as
// usual; `mission.completed` on the stream. A mission already completed, or
// claimed in this window, is refused (409 conflict): nothing to make right.
import type { MissionActionResult } from '@/lib/contract/desk';
import { AppError } from '@/lib/errors';
import type { Outcome } from '@/lib/idempotency/run-idempotent';
import { toMissionProgress } from '@/lib/missions/engine';
import { windowStart, zoneStamp } from '@/lib/missions/windows';
import type { ServiceContext } from '../context';
import { missionAction, type MissionActionInput } from './mission-action';

export async function completeMission({ ctx, input }: { ctx: ServiceContext; input: MissionActionInput }): Promise<Outcome<MissionActionResult>> {
  return missionAction({
    ctx,
    input: {
      ...input,
      op: 'mission_complete',
      next: (mission, record, now, zone) => {
        const status = toMissionProgress({ mission, record, locked: false, now, zone })?.status;
        if (status === 'completed') throw new AppError('conflict', `Mission "${mission.id}" is already completed (the player can claim it)`);
        if (status === 'claimed') throw new AppError('conflict', `Mission "${mission.id}" is already claimed in this window`);
        return {
          userId: input.userId,
          missionId: mission.id,
          status: 'completed',
          currentCount: mission.criteria.count,
          targetCount: mission.criteria.count,
          windowStart: windowStart(mission.criteria.window, now, zone),
          // The zone the window is bucketed in, kept with it (a later zone change never moves it).
          state: zoneStamp(mission.criteria.window, zone),
          // A claimed record of an earlier window: this is its next cycle (a new ledger grant key when claimed).
          cycle: record === null ? 1 : record.status === 'claimed' ? record.cycle + 1 : record.cycle,
          updatedAt: now,
        };
      },
    },
  });
}
