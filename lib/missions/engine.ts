// The pure criteria engine: decides what one event does to one user's progress
// on one mission, and how a stored record reads. No I/O and no clock: `now` is
// always a parameter, so the rules of docs/api.md ("Mission rules", "Status
// model", "GET /v1/missions") are testable to the ms.
import { matchesFilter } from './filter';
import type {
  Campaign,
  EngineEvent,
  Mission,
  MissionProgress,
  ProgressRecord,
  ProgressStatus,
} from './schema';
import { windowStart } from './windows';

export type EvaluationChange = 'progress' | 'completed';
export interface Evaluation {
  record: ProgressRecord;
  change: EvaluationChange;
}

/**
 * Locked until every prerequisite is claimed by the user; a mission of a
 * campaign that has not started yet is locked for everyone.
 */
export function isMissionLocked(args: {
  mission: Mission;
  campaign: Campaign | null;
  claimedMissionIds: ReadonlySet<string>;
  now: number;
}): boolean {
  const { mission, campaign, claimedMissionIds, now } = args;
  if (campaign !== null && campaign.startAt > now) return true;
  return mission.prerequisites.some((id) => !claimedMissionIds.has(id));
}

/**
 * Ids of the missions the user has claimed at least once, for isMissionLocked.
 * A recurring prerequisite that restarted (cycle > 1 only follows a claim)
 * keeps its dependents unlocked: an unlock is never taken back.
 */
export function claimedMissionIds(records: Iterable<ProgressRecord>): Set<string> {
  const ids = new Set<string>();
  for (const r of records) if (r.status === 'claimed' || r.cycle > 1) ids.add(r.missionId);
  return ids;
}

/** Whether an event at `timestamp` is in the mission's counting time: before expiresAt and in [startAt, endAt) of its campaign. */
export function isWithinMissionTime(mission: Mission, campaign: Campaign | null, timestamp: number): boolean {
  if (mission.expiresAt !== null && timestamp >= mission.expiresAt) return false;
  if (campaign !== null && (timestamp < campaign.startAt || timestamp >= campaign.endAt)) return false;
  return true;
}

/**
 * Whether the mission can still gain progress at `now`; false once it expired,
 * its campaign ended, or it (or its campaign) is archived. GET /v1/missions
 * hides such missions unless the caller's record is completed.
 */
export function canStillProgress(mission: Mission, campaign: Campaign | null, now: number): boolean {
  if (mission.archived || campaign?.archived === true) return false;
  if (mission.expiresAt !== null && mission.expiresAt <= now) return false;
  if (campaign !== null && campaign.endAt <= now) return false;
  return true;
}

/**
 * Whether GET /v1/missions lists the mission: never when archived; with
 * include=expired always; otherwise when it can still progress or the
 * caller's record is completed (an earned reward stays claimable).
 */
export function isListed(args: {
  mission: Mission;
  campaign: Campaign | null;
  record: ProgressRecord | null;
  includeExpired: boolean;
  now: number;
}): boolean {
  const { mission, campaign, record, includeExpired, now } = args;
  if (mission.archived) return false;
  if (includeExpired) return true;
  return canStillProgress(mission, campaign, now) || record?.status === 'completed';
}

/**
 * The record's bucket under the mission's CURRENT window. Re-bucketing keeps a
 * record usable when the window is re-authored (e.g. daily → lifetime maps
 * every old bucket to 0 instead of leaving the record "in the future").
 */
function recordBucket(mission: Mission, record: ProgressRecord): number {
  return windowStart(mission.criteria.window, record.windowStart);
}

/** Completed once the count reaches the mission's current target; the stored count never exceeds it. */
function withCount(
  base: Pick<ProgressRecord, 'userId' | 'missionId' | 'windowStart' | 'cycle'>,
  mission: Mission,
  count: number,
  now: number,
): Evaluation {
  const target = mission.criteria.count;
  const completed = count >= target;
  const record: ProgressRecord = {
    ...base,
    status: completed ? 'completed' : 'active',
    currentCount: Math.min(count, target),
    targetCount: target,
    updatedAt: now,
  };
  return { record, change: completed ? 'completed' : 'progress' };
}

/**
 * What `event` does to the user's record of `mission`: the new record and
 * whether it progressed or completed, or null when the event does not count.
 */
export function evaluateEvent(args: {
  mission: Mission;
  campaign: Campaign | null;
  record: ProgressRecord | null;
  event: EngineEvent;
  locked: boolean;
  now: number;
}): Evaluation | null {
  const { mission, campaign, record, event, locked, now } = args;
  if (event.name !== mission.criteria.eventName) return null;
  if (mission.archived || campaign?.archived === true || locked) return null;
  if (!isWithinMissionTime(mission, campaign, event.timestamp)) return null;
  if (!matchesFilter(mission.criteria.filter, event.payload)) return null;

  const bucket = windowStart(mission.criteria.window, event.timestamp);
  const counted = (userId: string, cycle: number, count: number): Evaluation =>
    withCount({ userId, missionId: mission.id, windowStart: bucket, cycle }, mission, count, now);
  if (record === null) return counted(event.userId, 1, 1);

  const current = recordBucket(mission, record);
  if (bucket < current) return null; // out of order: that bucket is closed

  if (bucket === current) {
    // completed waits for its claim; claimed is done for this bucket.
    if (record.status !== 'active') return null;
    return counted(record.userId, record.cycle, record.currentCount + 1);
  }

  // A later bucket: the mission recurs.
  switch (record.status) {
    case 'active':
      return counted(record.userId, record.cycle, 1); // restart the count, same cycle
    case 'claimed':
      return counted(record.userId, record.cycle + 1, 1); // a new cycle after the claim
    case 'completed':
      return null; // never reset: the earned reward stays claimable
  }
}

function ratio(count: number, target: number): number {
  return target > 0 ? Math.min(1, count / target) : 0;
}

/**
 * The public MissionProgress of a stored record at `now` (null without a
 * record). An active or claimed record whose bucket is over reads as a fresh
 * active cycle with count 0; a completed record is never reset. A record's
 * status wins over `locked` (docs/api.md, "Mission rules"), so `locked` only
 * matters to effectiveStatus when there is no record.
 */
export function toMissionProgress(args: {
  mission: Mission;
  record: ProgressRecord | null;
  locked: boolean;
  now: number;
}): MissionProgress | null {
  const { mission, record, now } = args;
  if (record === null) return null;
  const base = { userId: record.userId, missionId: record.missionId, updatedAt: record.updatedAt };
  const bucketOver = windowStart(mission.criteria.window, now) > recordBucket(mission, record);

  if (record.status !== 'completed' && bucketOver) {
    return { ...base, status: 'active', progress: 0, currentCount: 0, targetCount: mission.criteria.count };
  }
  switch (record.status) {
    case 'claimed':
      return { ...base, status: 'claimed', progress: 1, currentCount: record.targetCount, targetCount: record.targetCount };
    case 'completed':
      return {
        ...base,
        status: 'completed',
        progress: ratio(record.currentCount, record.targetCount),
        currentCount: record.currentCount,
        targetCount: record.targetCount,
      };
    case 'active': {
      // The next event is judged against the mission's current target, so show that one.
      const target = mission.criteria.count;
      return {
        ...base,
        status: 'active',
        progress: ratio(record.currentCount, target),
        currentCount: record.currentCount,
        targetCount: target,
      };
    }
  }
}

/** The status GET /v1/missions filters on: the record's read status, else locked or active. */
export function effectiveStatus(args: {
  mission: Mission;
  record: ProgressRecord | null;
  locked: boolean;
  now: number;
}): ProgressStatus {
  const view = toMissionProgress(args);
  if (view !== null) return view.status;
  return args.locked ? 'locked' : 'active';
}
