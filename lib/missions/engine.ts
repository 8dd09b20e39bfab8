// The pure criteria engine: decides what one event does to one user's progress
// on one mission, and how a stored record reads. No I/O and no clock: `now` is
// always a parameter, so the rules of docs/api.md ("Mission rules", "Status
// model", "GET /v1/missions") are testable to the ms.
import { inAudience, type AudienceAttributes } from './audience';
import { firstFilterMismatch } from './filter';
import type {
  Campaign,
  EngineEvent,
  Mission,
  MissionProgress,
  ProgressRecord,
  ProgressStatus,
} from './schema';
import { bucketLabel, UTC_ZONE, windowStart } from './windows';

type EvaluationChange = 'progress' | 'completed';
export interface Evaluation {
  record: ProgressRecord;
  change: EvaluationChange;
}

/** Why events cannot advance a mission for a user now (null: not locked). */
export type MissionLock =
  | { reason: 'campaign_not_started'; campaignId: string; startAt: number; endAt: number }
  | { reason: 'prerequisites'; /** The prerequisites the user has not claimed yet, in the mission's order. */ missing: string[] };

/**
 * Locked while its campaign has not started (for everyone), else until every
 * prerequisite is claimed by the user; null when not locked.
 */
export function missionLock(args: {
  mission: Mission;
  campaign: Campaign | null;
  claimedMissionIds: ReadonlySet<string>;
  now: number;
}): MissionLock | null {
  const { mission, campaign, claimedMissionIds, now } = args;
  if (campaign !== null && campaign.startAt > now) return { reason: 'campaign_not_started', campaignId: campaign.id, startAt: campaign.startAt, endAt: campaign.endAt };
  const missing = mission.prerequisites.filter((id) => !claimedMissionIds.has(id));
  return missing.length > 0 ? { reason: 'prerequisites', missing } : null;
}

export function isMissionLocked(args: Parameters<typeof missionLock>[0]): boolean {
  return missionLock(args) !== null;
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

/** Why an event at `timestamp` is outside the mission's counting time (before expiresAt, in [startAt, endAt) of its campaign); null when inside. */
function timeReason(mission: Mission, campaign: Campaign | null, timestamp: number, now: number): NotCounted | null {
  if (mission.expiresAt !== null && timestamp >= mission.expiresAt) return { code: 'expired', expiresAt: mission.expiresAt, timestamp };
  if (campaign !== null && (timestamp < campaign.startAt || timestamp >= campaign.endAt)) {
    const window = { campaignId: campaign.id, startAt: campaign.startAt, endAt: campaign.endAt };
    if (timestamp >= campaign.endAt && campaign.endAt <= now) return { code: 'campaign_not_live', state: 'ended', ...window };
    return { code: 'outside_window', timestamp, ...window };
  }
  return null;
}

/** Whether an event at `timestamp` is in the mission's counting time: before expiresAt and in [startAt, endAt) of its campaign. */
export function isWithinMissionTime(mission: Mission, campaign: Campaign | null, timestamp: number): boolean {
  return timeReason(mission, campaign, timestamp, timestamp) === null;
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
function recordBucket(mission: Mission, record: ProgressRecord, zone: string): number {
  return windowStart(mission.criteria.window, record.windowStart, zone);
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
 * Why an event did not count for a mission (docs/api.md, "Inspector (players)";
 * docs/inspector.md). The first failing rule wins, in the order explainEvent checks them.
 * `seen` of filter_mismatch is the payload value (absent when the field is
 * missing; objects and arrays are summarised, they never equal a literal).
 */
type NotCounted =
  | { code: 'event_name_mismatch'; expected: string; seen: string }
  | { code: 'mission_archived' }
  | { code: 'outside_audience' }
  | { code: 'campaign_not_live'; state: 'archived' | 'not_started' | 'ended'; campaignId: string; startAt: number; endAt: number }
  | { code: 'locked_by_prerequisite'; missing: string[] }
  | { code: 'expired'; expiresAt: number; timestamp: number }
  | { code: 'outside_window'; campaignId: string; startAt: number; endAt: number; timestamp: number }
  | { code: 'filter_mismatch'; key: string; condition: unknown; missing: boolean; seen?: unknown }
  | { code: 'outside_current_window'; eventWindowStart: number; currentWindowStart: number; timeZone?: string }
  | { code: 'already_completed' }
  | { code: 'already_claimed' };

/** The verdict of one event on one mission: counted (and what it did), or not and why. */
export type Verdict =
  | {
      counted: true;
      change: EvaluationChange;
      currentCount: number;
      targetCount: number;
      /** The bucket the event counted for, in the user's zone ("27 Nov 2026"); only for a user with a timezone attribute, on daily, weekly and monthly missions. */
      bucket?: string;
      /** The zone of the bucket ("Europe/Berlin"); with `bucket`. */
      timeZone?: string;
    }
  | ({ counted: false } & NotCounted);

export interface Explanation {
  /** The new record when the event counts, else null. */
  evaluation: Evaluation | null;
  verdict: Verdict;
}

/** A payload value as a verdict keeps it: primitives as they are, objects and arrays summarised. */
function seenValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  return Array.isArray(value) ? `[array of ${value.length}]` : '[object]';
}

function notCounted(reason: NotCounted): Explanation {
  return { evaluation: null, verdict: { counted: false, ...reason } };
}

/**
 * THE criteria engine: what `event` does to the user's record of `mission`
 * and why. Ingestion applies `evaluation` and stores `verdict` with the event;
 * the inspector shows the verdict. `lock` is missionLock() of the user before
 * the event.
 */
export function explainEvent(args: {
  mission: Mission;
  campaign: Campaign | null;
  record: ProgressRecord | null;
  event: EngineEvent;
  lock: MissionLock | null;
  now: number;
  /** The user's IANA zone (the `timezone` attribute); UTC when absent. */
  zone?: string;
  /** The user's attributes, for the audiences of the mission and its campaign; undefined: not checked (the caller did). */
  attributes?: AudienceAttributes;
}): Explanation {
  const { mission, campaign, record, event, lock, now } = args;
  const zone = args.zone ?? UTC_ZONE;
  if (event.name !== mission.criteria.eventName) return notCounted({ code: 'event_name_mismatch', expected: mission.criteria.eventName, seen: event.name });
  if (mission.archived) return notCounted({ code: 'mission_archived' });
  // Outside the audience the mission does not exist for the user: the event leaves it untouched.
  if (args.attributes !== undefined && !inAudience(mission, campaign, args.attributes)) return notCounted({ code: 'outside_audience' });
  if (campaign !== null && campaign.archived) {
    return notCounted({ code: 'campaign_not_live', state: 'archived', campaignId: campaign.id, startAt: campaign.startAt, endAt: campaign.endAt });
  }
  if (lock !== null) {
    if (lock.reason === 'prerequisites') return notCounted({ code: 'locked_by_prerequisite', missing: lock.missing });
    const { campaignId, startAt, endAt } = lock;
    return notCounted({ code: 'campaign_not_live', state: 'not_started', campaignId, startAt, endAt });
  }
  const outside = timeReason(mission, campaign, event.timestamp, now);
  if (outside) return notCounted(outside);
  const bucket = windowStart(mission.criteria.window, event.timestamp, zone);
  // The server's clock decides which bucket is current: a late event (or one a
  // few minutes early across midnight) counts only in its own bucket while that
  // one is current, so no event ever moves a recurring mission's bucket.
  const currentBucket = windowStart(mission.criteria.window, now, zone);
  if (bucket !== currentBucket) {
    return notCounted({ code: 'outside_current_window', eventWindowStart: bucket, currentWindowStart: currentBucket, ...(zone === UTC_ZONE ? {} : { timeZone: zone }) });
  }
  const mismatch = firstFilterMismatch(mission.criteria.filter, event.payload);
  if (mismatch) {
    const { key, condition, seen } = mismatch;
    return notCounted({ code: 'filter_mismatch', key, condition, missing: seen === undefined, ...(seen === undefined ? {} : { seen: seenValue(seen) }) });
  }

  const counted = (userId: string, cycle: number, count: number): Explanation => {
    const evaluation = withCount({ userId, missionId: mission.id, windowStart: bucket, cycle }, mission, count, now);
    const { currentCount, targetCount } = evaluation.record;
    // Only for a user with a zone: a UTC user's verdicts stay exactly as before.
    const named = mission.criteria.window === 'lifetime' || zone === UTC_ZONE ? {} : { bucket: bucketLabel(mission.criteria.window, bucket, zone), timeZone: zone };
    return { evaluation, verdict: { counted: true, change: evaluation.change, currentCount, targetCount, ...named } };
  };
  if (record === null) return counted(event.userId, 1, 1);

  if (bucket === recordBucket(mission, record, zone)) {
    // completed waits for its claim; claimed is done for this bucket.
    if (record.status === 'completed') return notCounted({ code: 'already_completed' });
    if (record.status === 'claimed') return notCounted({ code: 'already_claimed' });
    return counted(record.userId, record.cycle, record.currentCount + 1);
  }

  // The record's bucket is over (or, for a record stored before event times
  // were bounded, in the future): the mission recurs in the current bucket.
  switch (record.status) {
    case 'active':
      return counted(record.userId, record.cycle, 1); // restart the count, same cycle
    case 'claimed':
      return counted(record.userId, record.cycle + 1, 1); // a new cycle after the claim
    case 'completed':
      return notCounted({ code: 'already_completed' }); // never reset: the earned reward stays claimable
  }
}

/** What `event` does to the user's record of `mission` (explainEvent without the why); null when it does not count. */
export function evaluateEvent(args: Parameters<typeof explainEvent>[0]): Evaluation | null {
  return explainEvent(args).evaluation;
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
  /** The user's IANA zone (the `timezone` attribute); UTC when absent. */
  zone?: string;
}): MissionProgress | null {
  const { mission, record, now } = args;
  const zone = args.zone ?? UTC_ZONE;
  if (record === null) return null;
  const base = { userId: record.userId, missionId: record.missionId, updatedAt: record.updatedAt };
  // Over, or (a record stored before event times were bounded) in the future: either way not the current bucket.
  const bucketNotCurrent = windowStart(mission.criteria.window, now, zone) !== recordBucket(mission, record, zone);

  if (record.status !== 'completed' && bucketNotCurrent) {
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
  zone?: string;
}): ProgressStatus {
  const view = toMissionProgress(args);
  if (view !== null) return view.status;
  return args.locked ? 'locked' : 'active';
}
