// What players see of a mission now, as the console's status words say it
// (docs/console.md "Status words"): read from the LIVE mission and its LIVE
// campaign only, never from the draft; what the draft changes is said apart
// ("Changed in draft", a reward marked Draft with the live one beside it).
import type { Reward } from '@/lib/contract/mission';
import { campaignPhase } from './campaign-phase';

/**
 * live: players see it and events count; scheduled: its campaign has not
 * started (players see it locked until then); ended: its campaign is over;
 * expired: past its own expiresAt; archived: the mission, or its campaign,
 * is archived (players do not see it).
 */
export type MissionStatus = 'live' | 'scheduled' | 'ended' | 'expired' | 'archived';

export const MISSION_STATUS_LABELS: Record<MissionStatus, string> = { live: 'Live', scheduled: 'Scheduled', ended: 'Ended', expired: 'Expired', archived: 'Archived' };
export const MISSION_STATUS_BADGE: Record<MissionStatus, 'success' | 'default' | 'secondary' | 'warning' | 'outline'> = {
  live: 'success',
  scheduled: 'default',
  ended: 'secondary',
  expired: 'warning',
  archived: 'secondary',
};

/** The live mission's status at `now`, given its live campaign (undefined: none, or not loaded). */
export function missionStatus(
  mission: { archived?: boolean; expiresAt?: number | null },
  campaign: { startAt: number; endAt: number; archived?: boolean } | null | undefined,
  now: number,
): MissionStatus {
  if (mission.archived) return 'archived';
  if (mission.expiresAt != null && mission.expiresAt <= now) return 'expired';
  if (!campaign) return 'live';
  const phase = campaignPhase(campaign, now);
  return phase === 'upcoming' ? 'scheduled' : phase;
}

/** Whether two rewards are the same (the draft's and the live one). */
export function sameReward(a: Reward, b: Reward): boolean {
  return JSON.stringify(a, Object.keys(a).sort()) === JSON.stringify(b, Object.keys(b).sort());
}
