// The pure criteria engine: decides what one event does to one user's progress
// on one mission, and how a stored record reads. No I/O and no clock: `now` is
// always a parameter, so the rules of docs/api.md ("Mission rules", "Status
// model", "GET /v1/missions") are testable to the ms.
import { SUM_DECIMALS } from '@/lib/contract/mission-aggregate';
import { inAudience, type AudienceAttributes } from './audience';
import { firstFilterMismatch, readPath } from './filter';
import type {
  AggregateState,
  Campaign,
  EngineEvent,
  Mission,
  MissionProgress,
  ProgressRecord,
  ProgressStatus,
} from './schema';
import { bucketLabel, nextPeriodStart, nextWindowStart, UTC_ZONE, windowStart, zoneStamp } from './windows';

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
 * The zone the record's window was bucketed in: stored with it (`state.zone`)
 * when not UTC. A record without one is UTC's, unless (written before zones
 * were stored) its start is a window start in the user's zone.
 */
function recordZone(mission: Mission, record: ProgressRecord, zone: string): string {
  const stored = record.state?.zone;
  if (stored !== undefined) return stored;
  if (zone === UTC_ZONE) return UTC_ZONE;
  return windowStart(mission.criteria.window, record.windowStart, zone) === record.windowStart ? zone : UTC_ZONE;
}

/**
 * The window that is current at `now` for a user with `record` (docs/api.md,
 * "What a zone change does"). In one zone it is the bucket containing `now`.
 * After a zone change the record's window, as it was bucketed in its own zone,
 * goes on until it has ended in absolute time AND the new zone's calendar has
 * reached the next period (the 28th after a 27th counted anywhere); only then
 * does the next window begin, in the new zone, never before the old one's
 * end. So windows never overlap and each calendar period counts once: no
 * sequence of zones yields more than one window per period.
 */
interface CurrentWindow {
  /** The record's own window ('record', also while a zone change prolongs it), a later one ('after'), or no record ('none'). */
  relation: 'record' | 'after' | 'none';
  /** The zone the window is bucketed in: the record's for its own window, the user's otherwise. */
  zone: string;
  /** Its bucket start in that zone: what a record of it stores as windowStart (0 for lifetime). */
  bucket: number;
  /** An event earlier than this is not in it: the bucket start, or the old window's end when the new one began inside it. */
  from: number;
  /** Its end (exclusive) when a zone change prolongs the record's window; undefined: the end of the bucket. */
  until: number | undefined;
  /** The record's zone and bucket start (undefined for 'none'). Every field is always set: one object shape on the event path. */
  recordZone: string | undefined;
  recordBucket: number | undefined;
}

function currentWindow(mission: Mission, record: ProgressRecord | null, now: number, zone: string): CurrentWindow {
  const kind = mission.criteria.window;
  if (kind === 'lifetime') return { relation: record === null ? 'none' : 'record', zone, bucket: 0, from: -Infinity, until: undefined, recordZone: zone, recordBucket: 0 };
  const nowBucket = windowStart(kind, now, zone);
  if (record === null) return { relation: 'none', zone, bucket: nowBucket, from: nowBucket, until: undefined, recordZone: undefined, recordBucket: undefined };
  // Re-bucketing under the mission's CURRENT window keeps a record usable when the
  // window is re-authored (daily → weekly: the week of that day).
  const rz = recordZone(mission, record, zone);
  const rb = windowStart(kind, record.windowStart, rz);
  // A window a zone change began inside its bucket starts where the window before it ended (state.from).
  const floor = record.state?.from ?? -Infinity;
  if (rz === zone) {
    const relation = rb === nowBucket ? 'record' : 'after';
    return { relation, zone, bucket: nowBucket, from: relation === 'record' ? Math.max(nowBucket, floor) : nowBucket, until: undefined, recordZone: rz, recordBucket: rb };
  }
  // A record in the future (stored before event times were bounded) is over.
  if (rb > now) return { relation: 'after', zone, bucket: nowBucket, from: nowBucket, until: undefined, recordZone: rz, recordBucket: rb };
  const end = nextWindowStart(kind, rb, rz);
  const until = Math.max(end, nextPeriodStart(kind, rb, rz, zone));
  if (now < until) return { relation: 'record', zone: rz, bucket: rb, from: Math.max(rb, floor), until, recordZone: rz, recordBucket: rb };
  return { relation: 'after', zone, bucket: nowBucket, from: Math.max(nowBucket, end), until: undefined, recordZone: rz, recordBucket: rb };
}

/** Whether an event at `t` is in the window. */
function inWindow(mission: Mission, win: CurrentWindow, t: number): boolean {
  if (t < win.from) return false;
  return win.until !== undefined ? t < win.until : windowStart(mission.criteria.window, t, win.zone) === win.bucket;
}

/** Whether an 'after' window is the period right after the record's (a streak goes on), in whichever zones. */
function followsRecord(mission: Mission, win: CurrentWindow): boolean {
  return win.relation === 'after' && win.bucket === nextPeriodStart(mission.criteria.window, win.recordBucket!, win.recordZone!, win.zone);
}


/** Millionths per unit of a sum (SUM_DECIMALS decimal places, exact integer arithmetic). */
const MICROS = 10 ** SUM_DECIMALS;

/** The start of the window before the one starting at `bucket` (streaks; daily and weekly only). */
function previousWindowStart(mission: Mission, bucket: number, zone: string): number {
  return windowStart(mission.criteria.window, bucket - 1, zone);
}

/**
 * The streak an active record carries into a later window. In one zone it is
 * kept as it is (withMeasure and streakView check that its last window met is
 * the previous one). Across a zone change it goes on only when the record's
 * own window met the target and the new window is the period right after it,
 * restated as "the previous window was met" in the new zone's calendar;
 * otherwise it is broken.
 */
function carriedStreak(mission: Mission, record: ProgressRecord, win: CurrentWindow): AggregateState['streak'] {
  const stored = record.state?.streak;
  if (stored === undefined || win.recordZone === win.zone) return stored;
  if (stored.lastMet !== win.recordBucket || !followsRecord(mission, win)) return undefined;
  return { current: stored.current, lastMet: previousWindowStart(mission, win.bucket, win.zone) };
}

/**
 * The record after a counted event. `measure` is the window's progress in the
 * aggregate's units (events, millionths of the sum, distinct values) and
 * `full` its value at the target. Without a streak the mission completes
 * when the target is met; with one, meeting the target extends the streak
 * (or starts it at 1 when the previous window was not met) and the mission
 * completes when the streak reaches its length.
 */
function withMeasure(
  base: Pick<ProgressRecord, 'userId' | 'missionId' | 'windowStart' | 'cycle'>,
  mission: Mission,
  measure: { value: number; full: number; currentCount: number; state: AggregateState },
  now: number,
  zone: string,
): Evaluation {
  const target = mission.criteria.count;
  const met = measure.value >= measure.full;
  const state: AggregateState = { ...measure.state };
  let completed = met;
  const streakRule = mission.criteria.streak;
  if (streakRule !== undefined && met) {
    const before = state.streak;
    const current = before !== undefined && before.lastMet === previousWindowStart(mission, base.windowStart, zone) ? before.current + 1 : 1;
    state.streak = { current, lastMet: base.windowStart };
    completed = current >= streakRule.length;
  }
  // Field by field, not `{ ...base, status, … }`: V8 (Node 20) builds a spread
  // followed by new keys on a slow path, ~4 µs a record (docs/engineering/benchmarks.md, impact replay).
  const record: ProgressRecord = {
    userId: base.userId,
    missionId: base.missionId,
    windowStart: base.windowStart,
    cycle: base.cycle,
    status: completed ? 'completed' : 'active',
    currentCount: Math.min(measure.currentCount, target),
    targetCount: target,
    updatedAt: now,
  };
  if (Object.keys(state).length > 0) record.state = state;
  return { record, change: completed ? 'completed' : 'progress' };
}

/** Why a sum's or distinct's payload value adds nothing; null when it can be used. */
function invalidValue(op: 'sum' | 'distinct', field: string, value: unknown): NotCounted | null {
  const invalid = (reason: AggregateInvalidReason): NotCounted => ({
    code: 'aggregate_value_invalid',
    field,
    reason,
    ...(value === undefined ? {} : { seen: seenValue(value) }),
  });
  if (value === undefined) return invalid('missing');
  if (op === 'sum') {
    if (typeof value !== 'number') return invalid('not_a_number');
    if (!Number.isFinite(value)) return invalid('not_finite');
    if (value < 0) return invalid('negative');
    return null;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? null : invalid('not_finite');
  return typeof value === 'string' || typeof value === 'boolean' ? null : invalid('not_a_value');
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
  | { code: 'already_claimed' }
  | { code: 'aggregate_value_invalid'; field: string; reason: AggregateInvalidReason; seen?: unknown }
  | { code: 'distinct_repeat'; field: string; value: string | number | boolean }
  | { code: 'streak_window_met'; streak: StreakProgress };

/** Why a sum's or distinct's field value adds nothing (aggregate_value_invalid). */
type AggregateInvalidReason = 'missing' | 'not_a_number' | 'not_finite' | 'negative' | 'not_a_value';
type StreakProgress = { current: number; length: number };

/**
 * The verdict of one event on one mission: counted (and what it did), or not
 * and why. A counted event of a sum mission says what it `added` (rounded to
 * the millionth), of a distinct mission which new `value`, of a streak
 * mission the `streak` after it.
 */
export type Verdict =
  | {
      counted: true;
      change: EvaluationChange;
      currentCount: number;
      targetCount: number;
      added?: number;
      value?: string | number | boolean;
      streak?: StreakProgress;
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

/** judgeEvent without the why: the same evaluation, no verdict built. */
interface UnexplainedEvaluation {
  evaluation: Evaluation | null;
  verdict: null;
}

/** The answer of every uncounted event when no verdict is built (one shared object: nothing allocated). */
const UNEXPLAINED: UnexplainedEvaluation = Object.freeze({ evaluation: null, verdict: null });

/** A payload value as a verdict keeps it: primitives as they are, objects and arrays summarised. */
function seenValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  return Array.isArray(value) ? `[array of ${value.length}]` : '[object]';
}

function notCounted(reason: NotCounted): Explanation {
  return { evaluation: null, verdict: { counted: false, ...reason } };
}

type ExplainArgs = {
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
};

/**
 * THE criteria engine: what `event` does to the user's record of `mission`
 * and why. Ingestion applies `evaluation` and stores `verdict` with the event;
 * the inspector shows the verdict. `lock` is missionLock() of the user before
 * the event.
 */
export function explainEvent(args: ExplainArgs): Explanation {
  return judgeEvent(args, true) as Explanation;
}

/**
 * The body of explainEvent (every rule is here, once). `explain` false
 * decides exactly as true does (the same rules in the same order, the same
 * evaluation) but builds no verdict (`verdict: null`, nothing allocated for an
 * uncounted event): evaluateEvent, for callers that only apply the
 * evaluation (the impact replay).
 */
function judgeEvent(args: ExplainArgs, explain: boolean): Explanation | UnexplainedEvaluation {
  const { mission, campaign, record, event, lock, now } = args;
  const quiet = !explain;
  const zone = args.zone ?? UTC_ZONE;
  if (event.name !== mission.criteria.eventName) return quiet ? UNEXPLAINED : notCounted({ code: 'event_name_mismatch', expected: mission.criteria.eventName, seen: event.name });
  if (mission.archived) return quiet ? UNEXPLAINED : notCounted({ code: 'mission_archived' });
  // Outside the audience the mission does not exist for the user: the event leaves it untouched.
  if (args.attributes !== undefined && !inAudience(mission, campaign, args.attributes)) return quiet ? UNEXPLAINED : notCounted({ code: 'outside_audience' });
  if (campaign !== null && campaign.archived) {
    return quiet ? UNEXPLAINED : notCounted({ code: 'campaign_not_live', state: 'archived', campaignId: campaign.id, startAt: campaign.startAt, endAt: campaign.endAt });
  }
  if (lock !== null) {
    if (lock.reason === 'prerequisites') return quiet ? UNEXPLAINED : notCounted({ code: 'locked_by_prerequisite', missing: lock.missing });
    const { campaignId, startAt, endAt } = lock;
    return quiet ? UNEXPLAINED : notCounted({ code: 'campaign_not_live', state: 'not_started', campaignId, startAt, endAt });
  }
  const outside = timeReason(mission, campaign, event.timestamp, now);
  if (outside) return quiet ? UNEXPLAINED : notCounted(outside);
  // The server's clock decides which window is current: a late event (or one a
  // few minutes early across midnight) counts only in its own window while that
  // one is current, so no event ever moves a recurring mission's window; and a
  // zone change never moves a window already begun (currentWindow).
  const win = currentWindow(mission, record, now, zone);
  const bucket = win.bucket;
  if (!inWindow(mission, win, event.timestamp)) {
    if (quiet) return UNEXPLAINED;
    const eventWindowStart = windowStart(mission.criteria.window, event.timestamp, win.zone);
    return notCounted({ code: 'outside_current_window', eventWindowStart, currentWindowStart: win.from, ...(zone === UTC_ZONE && win.zone === UTC_ZONE ? {} : { timeZone: win.zone }) });
  }
  const mismatch = firstFilterMismatch(mission.criteria.filter, event.payload);
  if (mismatch) {
    const { key, condition, seen } = mismatch;
    return quiet ? UNEXPLAINED : notCounted({ code: 'filter_mismatch', key, condition, missing: seen === undefined, ...(seen === undefined ? {} : { seen: seenValue(seen) }) });
  }

  // What the event adds to: the record's window (same bucket), or a fresh one
  // (first event, a new bucket of an active record, a new cycle after a claim).
  const streakRule = mission.criteria.streak;
  let base: { userId: string; cycle: number; from: ProgressRecord | null; streak: AggregateState['streak'] };
  if (record === null) base = { userId: event.userId, cycle: 1, from: null, streak: undefined };
  else if (win.relation === 'record') {
    // completed waits for its claim; claimed is done for this bucket.
    if (record.status === 'completed') return quiet ? UNEXPLAINED : notCounted({ code: 'already_completed' });
    if (record.status === 'claimed') return quiet ? UNEXPLAINED : notCounted({ code: 'already_claimed' });
    const streak = record.state?.streak;
    if (streakRule !== undefined && streak?.lastMet === bucket) {
      return quiet ? UNEXPLAINED : notCounted({ code: 'streak_window_met', streak: { current: streak.current, length: streakRule.length } });
    }
    base = { userId: record.userId, cycle: record.cycle, from: record, streak };
  } else {
    // The record's window is over (or, for a record stored before event times
    // were bounded, in the future): the mission recurs in the current window.
    switch (record.status) {
      case 'active':
        base = { userId: record.userId, cycle: record.cycle, from: null, streak: carriedStreak(mission, record, win) }; // restart the window, same cycle (a streak carries on)
        break;
      case 'claimed':
        // A claimed streak mission without repeat is done for good.
        if (streakRule !== undefined && streakRule.repeat !== true) return quiet ? UNEXPLAINED : notCounted({ code: 'already_claimed' });
        base = { userId: record.userId, cycle: record.cycle + 1, from: null, streak: undefined }; // a new cycle after the claim (a streak starts again)
        break;
      case 'completed':
        return quiet ? UNEXPLAINED : notCounted({ code: 'already_completed' }); // never reset: the earned reward stays claimable
    }
  }

  const target = mission.criteria.count;
  const aggregate = mission.criteria.aggregate ?? { op: 'count' as const };
  const stamp = zoneStamp(mission.criteria.window, win.zone);
  // The window's first instant, kept while it lasts when a zone change began it inside its bucket.
  const floor = win.from > bucket ? { from: win.from } : {};
  const carried: AggregateState = base.streak === undefined ? { ...stamp, ...floor } : { streak: base.streak, ...stamp, ...floor };
  let measure: Parameters<typeof withMeasure>[2];
  let extra: { added?: number; value?: string | number | boolean } = {};
  switch (aggregate.op) {
    case 'count': {
      const count = (base.from?.currentCount ?? 0) + 1;
      measure = { value: count, full: target, currentCount: count, state: carried };
      break;
    }
    case 'sum': {
      const raw = readPath(event.payload, aggregate.field);
      const invalid = invalidValue('sum', aggregate.field, raw);
      if (invalid) return quiet ? UNEXPLAINED : notCounted(invalid);
      const full = target * MICROS;
      // Values past the target add no more than the target (no overflow of the exact millionths).
      const micros = Math.round(Math.min(raw as number, target) * MICROS);
      const before = base.from === null ? 0 : (base.from.state?.sumMicros ?? base.from.currentCount * MICROS);
      const sumMicros = Math.min(before + micros, full);
      measure = { value: sumMicros, full, currentCount: Math.floor(sumMicros / MICROS), state: { ...carried, sumMicros } };
      extra = { added: micros / MICROS };
      break;
    }
    case 'distinct': {
      const raw = readPath(event.payload, aggregate.field);
      const invalid = invalidValue('distinct', aggregate.field, raw);
      if (invalid) return quiet ? UNEXPLAINED : notCounted(invalid);
      const value = raw as string | number | boolean;
      const seen = base.from?.state?.values ?? [];
      if (seen.includes(value)) return quiet ? UNEXPLAINED : notCounted({ code: 'distinct_repeat', field: aggregate.field, value });
      const values = [...seen, value].slice(0, target);
      measure = { value: values.length, full: target, currentCount: values.length, state: { ...carried, values } };
      extra = { value };
      break;
    }
  }

  const evaluation = withMeasure({ userId: base.userId, missionId: mission.id, windowStart: bucket, cycle: base.cycle }, mission, measure, now, win.zone);
  if (quiet) return { evaluation, verdict: null };
  const { currentCount, targetCount } = evaluation.record;
  const streak = streakRule === undefined ? {} : { streak: streakView(mission, evaluation.record, now, zone) };
  // Only for a user with a zone (or a window in one): a UTC user's verdicts stay exactly as before.
  const named =
    mission.criteria.window === 'lifetime' || (zone === UTC_ZONE && win.zone === UTC_ZONE) ? {} : { bucket: bucketLabel(mission.criteria.window, bucket, win.zone), timeZone: win.zone };
  return { evaluation, verdict: { counted: true, change: evaluation.change, currentCount, targetCount, ...extra, ...streak, ...named } };
}

/**
 * What `event` does to the user's record of `mission` (explainEvent without
 * the why: the same rules, judgeEvent, with no verdict built); null when it
 * does not count.
 */
export function evaluateEvent(args: ExplainArgs): Evaluation | null {
  return judgeEvent(args, false).evaluation;
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
  if (args.record === null) return null;
  const win = currentWindow(args.mission, args.record, args.now, args.zone ?? UTC_ZONE);
  const view = baseProgress(args.mission, args.record, win);
  if (args.mission.criteria.streak === undefined) return view;
  return { ...view, streak: streakOf(args.mission, args.record, win) };
}

/**
 * MissionProgress.streak of a record at `now` (streak missions): the windows
 * met in a row, counted while the last one met is the current or the previous
 * window, else 0 (a window ended without meeting the target: noticed here, at
 * read, with no background job). Completed and claimed records keep theirs,
 * except a repeating streak's claimed record once its window is over (it
 * starts again).
 */
function streakView(mission: Mission, record: ProgressRecord, now: number, zone: string): { current: number; length: number } {
  return streakOf(mission, record, currentWindow(mission, record, now, zone));
}

/** streakView with the current window already known. */
function streakOf(mission: Mission, record: ProgressRecord, win: CurrentWindow): { current: number; length: number } {
  const length = mission.criteria.streak?.length ?? 0;
  // A completed (or claimed) streak reached its length, also when staff completed it (docs/api.md).
  if (record.status === 'completed' || staysClaimed(mission, record)) return { current: length, length };
  if (record.status === 'claimed') return { current: win.relation === 'record' ? length : 0, length };
  const stored = record.state?.streak;
  if (stored === undefined) return { current: 0, length };
  // Alive while the last window met is the current one or the one before it: in the record's
  // own window, the one it met or the one before that; in a later one, the record's if it follows.
  const alive =
    win.relation === 'record'
      ? stored.lastMet === win.bucket || stored.lastMet === previousWindowStart(mission, win.bucket, win.zone)
      : stored.lastMet === win.recordBucket && followsRecord(mission, win);
  return { current: alive ? stored.current : 0, length };
}

/** A claimed streak mission without repeat stays claimed after its window (it is never reset). */
function staysClaimed(mission: Mission, record: ProgressRecord | null): boolean {
  return record?.status === 'claimed' && mission.criteria.streak !== undefined && mission.criteria.streak.repeat !== true;
}

function baseProgress(mission: Mission, record: ProgressRecord, win: CurrentWindow): MissionProgress {
  // Built by one function, field by field in the answer's key order (userId, missionId, updatedAt, status, …), not
  // `{ ...base, status, … }`: V8 (Node 20) builds a spread followed by new keys on a slow path (docs/engineering/benchmarks.md).
  const view = (status: MissionProgress['status'], currentCount: number, targetCount: number, progress: number): MissionProgress => ({
    userId: record.userId,
    missionId: record.missionId,
    updatedAt: record.updatedAt,
    status,
    progress,
    currentCount,
    targetCount,
  });
  // Over, or (a record stored before event times were bounded) in the future: either way not the current window.
  const bucketNotCurrent = win.relation !== 'record';

  if (record.status !== 'completed' && !staysClaimed(mission, record) && bucketNotCurrent) {
    return view('active', 0, mission.criteria.count, 0);
  }
  switch (record.status) {
    case 'claimed':
      return view('claimed', record.targetCount, record.targetCount, 1);
    case 'completed':
      return view('completed', record.currentCount, record.targetCount, ratio(record.currentCount, record.targetCount));
    case 'active': {
      // The next event is judged against the mission's current target, so show that one.
      const target = mission.criteria.count;
      return view('active', record.currentCount, target, ratio(record.currentCount, target));
    }
  }
}

/**
 * The claim rule: a claim of `mission` by a user whose record is `record` is
 * granted exactly when the record is completed (the claim statement's guard,
 * `status = 'completed'` on the locked row: lib/claims/claim-mission.ts;
 * lib/claims/claim-rule.test.ts checks the statement against this function).
 * A completed record stays claimable whatever its window (a reward earned is
 * kept). Otherwise it is 409 claim_not_ready, "already claimed" when the user
 * reads the mission as claimed now (in the user's zone: a claimed record of a
 * window that is over reads as a new, active cycle, so "not completed"), else
 * "not completed". The mission's existence, audience and the campaign's
 * budget are checked beside it (claim-reward.ts, the statement's budget row).
 */
export function claimRule(args: { mission: Mission; record: ProgressRecord | null; now: number; zone?: string }): { claimable: true } | { claimable: false; reason: 'already claimed' | 'not completed' } {
  if (args.record?.status === 'completed') return { claimable: true };
  const status = toMissionProgress({ ...args, locked: false })?.status;
  return { claimable: false, reason: status === 'claimed' ? 'already claimed' : 'not completed' };
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
