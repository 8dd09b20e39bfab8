import { describe, it, expect } from 'vitest';
import {
  canStillProgress,
  claimedMissionIds,
  effectiveStatus,
  evaluateEvent,
  explainEvent,
  missionLock,
  isListed,
  isMissionLocked,
  isWithinMissionTime,
  toMissionProgress,
} from './engine';
import type { Campaign, EngineEvent, Mission, MissionFilter, MissionWindow, ProgressRecord } from './schema';

const utc = (y: number, m: number, d: number, h = 0, min = 0, s = 0, ms = 0) => Date.UTC(y, m - 1, d, h, min, s, ms);
const DAY = 86_400_000;
// Wednesday 2024-03-06; its ISO week starts Monday 2024-03-04.
const TODAY = utc(2024, 3, 6);
const NOON = TODAY + 12 * 3_600_000;
const NOW = NOON + 1;

function mission(
  o: Partial<Omit<Mission, 'criteria'>> & { count?: number; window?: MissionWindow; filter?: MissionFilter } = {},
): Mission {
  const { count = 3, window = 'daily', filter, ...rest } = o;
  return {
    id: 'm1',
    title: 'Win matches',
    description: '',
    criteria: { eventName: 'match.won', count, window, ...(filter ? { filter } : {}) },
    reward: { kind: 'currency', currency: 'gold', amount: 10 },
    campaignId: null,
    expiresAt: null,
    iconUrl: null,
    prerequisites: [],
    archived: false,
    ...rest,
  };
}

function campaign(o: Partial<Campaign> = {}): Campaign {
  return {
    id: 'c1',
    title: 'Spring',
    description: '',
    startAt: TODAY - 10 * DAY,
    endAt: TODAY + 10 * DAY,
    missionIds: ['m1'],
    bannerUrl: '',
    archived: false,
    ...o,
  };
}

function record(o: Partial<ProgressRecord> = {}): ProgressRecord {
  return {
    userId: 'u1',
    missionId: 'm1',
    status: 'active',
    currentCount: 1,
    targetCount: 3,
    windowStart: TODAY,
    cycle: 1,
    updatedAt: NOON - 1000,
    ...o,
  };
}

const event = (timestamp = NOON, payload: Record<string, unknown> = {}, name = 'match.won'): EngineEvent => ({
  userId: 'u1',
  name,
  payload,
  timestamp,
});

function evaluate(a: {
  mission?: Mission;
  campaign?: Campaign | null;
  record?: ProgressRecord | null;
  event?: EngineEvent;
  locked?: boolean;
  now?: number;
}) {
  return evaluateEvent({
    mission: a.mission ?? mission(),
    campaign: a.campaign ?? null,
    record: a.record ?? null,
    event: a.event ?? event(),
    lock: a.locked ? { reason: 'prerequisites', missing: ['m0'] } : null,
    now: a.now ?? NOW,
  });
}

describe('evaluateEvent: which events count', () => {
  it('ignores an event whose name differs from criteria.eventName', () => {
    expect(evaluate({ event: event(NOON, {}, 'match.lost') })).toBeNull();
  });
  it('ignores events for an archived mission', () => {
    expect(evaluate({ mission: mission({ archived: true }) })).toBeNull();
  });
  it('ignores events for a mission of an archived campaign', () => {
    expect(evaluate({ campaign: campaign({ archived: true }) })).toBeNull();
  });
  it('ignores events while the mission is locked', () => {
    expect(evaluate({ locked: true })).toBeNull();
    expect(evaluate({ locked: true, record: record() })).toBeNull();
  });
  it('counts an event whose payload matches the filter, ignores one that does not', () => {
    const m = mission({ filter: { mode: 'ranked', level: { gte: 10 } } });
    expect(evaluate({ mission: m, event: event(NOON, { mode: 'ranked', level: 10 }) })).not.toBeNull();
    expect(evaluate({ mission: m, event: event(NOON, { mode: 'ranked', level: 9 }) })).toBeNull();
  });
  it('applies a filter on a nested payload field', () => {
    const m = mission({ filter: { 'map.region': 'eu' } });
    expect(evaluate({ mission: m, event: event(NOON, { map: { region: 'eu' } }) })).not.toBeNull();
    expect(evaluate({ mission: m, event: event(NOON, { map: { region: 'us' } }) })).toBeNull();
  });
  it('ignores an event when the filtered field is missing', () => {
    expect(evaluate({ mission: mission({ filter: { mode: 'ranked' } }), event: event(NOON, {}) })).toBeNull();
  });
  it('does not count an event whose timestamp equals expiresAt', () => {
    expect(evaluate({ mission: mission({ expiresAt: NOON }), event: event(NOON) })).toBeNull();
  });
  it('counts an event one ms before expiresAt', () => {
    expect(evaluate({ mission: mission({ expiresAt: NOON + 1 }), event: event(NOON) })).not.toBeNull();
  });
  it('counts an event exactly at the campaign startAt, not one ms before', () => {
    const c = campaign({ startAt: NOON });
    expect(evaluate({ campaign: c, event: event(NOON) })).not.toBeNull();
    expect(evaluate({ campaign: c, event: event(NOON - 1) })).toBeNull();
  });
  it('does not count an event exactly at the campaign endAt, counts one ms before', () => {
    const c = campaign({ endAt: NOON });
    expect(evaluate({ campaign: c, event: event(NOON) })).toBeNull();
    expect(evaluate({ campaign: c, event: event(NOON - 1) })).not.toBeNull();
  });
});

describe('evaluateEvent: the first qualifying event creates the record', () => {
  it('starts active at count 1 of the target, cycle 1, in the event bucket, updatedAt = now', () => {
    expect(evaluate({})).toEqual({
      change: 'progress',
      record: {
        userId: 'u1',
        missionId: 'm1',
        status: 'active',
        currentCount: 1,
        targetCount: 3,
        windowStart: TODAY,
        cycle: 1,
        updatedAt: NOW,
      },
    });
  });
  it('is completed at once when one event reaches the target', () => {
    const result = evaluate({ mission: mission({ count: 1 }) });
    expect(result?.change).toBe('completed');
    expect(result?.record).toMatchObject({ status: 'completed', currentCount: 1, targetCount: 1 });
  });
  it('uses bucket 0 for a lifetime mission', () => {
    expect(evaluate({ mission: mission({ window: 'lifetime' }) })?.record.windowStart).toBe(0);
  });
  it('buckets by the event timestamp: an event of 23:59 received at 23:59:30 is in its own (still current) day', () => {
    const late = TODAY - 60_000;
    expect(evaluate({ event: event(late), now: TODAY - 30_000 })?.record.windowStart).toBe(TODAY - DAY);
  });
});

describe('evaluateEvent: events in the same bucket', () => {
  it('adds one to an active record below the target', () => {
    const result = evaluate({ record: record({ currentCount: 1 }) });
    expect(result?.change).toBe('progress');
    expect(result?.record).toMatchObject({ status: 'active', currentCount: 2, cycle: 1, updatedAt: NOW });
  });
  it('completes exactly at the target', () => {
    const result = evaluate({ record: record({ currentCount: 2 }) });
    expect(result?.change).toBe('completed');
    expect(result?.record).toMatchObject({ status: 'completed', currentCount: 3, targetCount: 3 });
  });
  it('changes nothing one event over the target (completed stays as is)', () => {
    expect(evaluate({ record: record({ status: 'completed', currentCount: 3 }) })).toBeNull();
  });
  it('changes nothing on a claimed record in the same bucket', () => {
    expect(evaluate({ record: record({ status: 'claimed', currentCount: 3 }) })).toBeNull();
  });
  it('counts events of the bucket in any order (earlier timestamp, same day)', () => {
    expect(evaluate({ record: record(), event: event(TODAY) })?.record.currentCount).toBe(2);
  });
  it("updates the record's targetCount to the mission's current count", () => {
    const result = evaluate({ mission: mission({ count: 5 }), record: record({ currentCount: 2, targetCount: 3 }) });
    expect(result?.record).toMatchObject({ status: 'active', currentCount: 3, targetCount: 5 });
  });
  it('completes, count capped at the target, when the target was lowered below the count', () => {
    const result = evaluate({ mission: mission({ count: 2 }), record: record({ currentCount: 3, targetCount: 5 }) });
    expect(result?.change).toBe('completed');
    expect(result?.record).toMatchObject({ status: 'completed', currentCount: 2, targetCount: 2 });
  });
  it('keeps the user id of the record', () => {
    expect(evaluate({ record: record() })?.record.userId).toBe('u1');
  });
});

describe('evaluateEvent: recurrence in a later bucket', () => {
  const yesterday = record({ windowStart: TODAY - DAY, currentCount: 2, cycle: 4 });
  it('restarts an active record at count 1 in the new bucket, same cycle', () => {
    const result = evaluate({ record: yesterday });
    expect(result?.change).toBe('progress');
    expect(result?.record).toMatchObject({ status: 'active', currentCount: 1, windowStart: TODAY, cycle: 4 });
  });
  it('starts a new cycle after a claimed record (cycle + 1, active, count 1)', () => {
    const result = evaluate({ record: { ...yesterday, status: 'claimed', currentCount: 3 } });
    expect(result?.change).toBe('progress');
    expect(result?.record).toMatchObject({ status: 'active', currentCount: 1, windowStart: TODAY, cycle: 5 });
  });
  it('completes the new cycle at once when the target is 1', () => {
    const result = evaluate({ mission: mission({ count: 1 }), record: { ...yesterday, status: 'claimed', currentCount: 1, targetCount: 1 } });
    expect(result?.change).toBe('completed');
    expect(result?.record).toMatchObject({ status: 'completed', currentCount: 1, cycle: 5 });
  });
  it('never resets a completed record (its reward stays claimable)', () => {
    expect(evaluate({ record: { ...yesterday, status: 'completed', currentCount: 3 } })).toBeNull();
  });
  it('never recurs a lifetime mission once claimed', () => {
    const m = mission({ window: 'lifetime' });
    expect(evaluate({ mission: m, record: record({ status: 'claimed', windowStart: 0, currentCount: 3 }), event: event(NOON + 400 * DAY) })).toBeNull();
  });
  it('keeps Sunday 23:59:59.999 in the week of a weekly record, restarts at Monday 00:00', () => {
    const m = mission({ window: 'weekly' });
    const r = record({ windowStart: utc(2024, 3, 4), currentCount: 1 });
    const sundayLast = utc(2024, 3, 10, 23, 59, 59, 999);
    expect(evaluate({ mission: m, record: r, event: event(sundayLast), now: sundayLast })?.record).toMatchObject({ currentCount: 2, windowStart: utc(2024, 3, 4) });
    expect(evaluate({ mission: m, record: r, event: event(sundayLast + 1), now: sundayLast + 1 })?.record).toMatchObject({ currentCount: 1, windowStart: utc(2024, 3, 11) });
  });
  it('restarts a monthly record from 31 December to 1 January', () => {
    const m = mission({ window: 'monthly' });
    const r = record({ windowStart: utc(2024, 12, 1), currentCount: 2 });
    const lastMs = utc(2024, 12, 31, 23, 59, 59, 999);
    expect(evaluate({ mission: m, record: r, event: event(lastMs), now: lastMs })?.record.currentCount).toBe(3);
    expect(evaluate({ mission: m, record: r, event: event(lastMs + 1), now: lastMs + 1 })?.record).toMatchObject({ currentCount: 1, windowStart: utc(2025, 1, 1) });
  });
  it('re-buckets the record when the window was re-authored (daily record, now lifetime)', () => {
    const m = mission({ window: 'lifetime' });
    const result = evaluate({ mission: m, record: record({ windowStart: TODAY - 5 * DAY, currentCount: 1 }) });
    expect(result?.record).toMatchObject({ currentCount: 2, windowStart: 0 });
  });
});

describe('evaluateEvent: late and early events never move the bucket (the server clock `now` decides which is current)', () => {
  const lateEvent = event(TODAY - 1); // yesterday 23:59:59.999, received today
  it('ignores a late event of an earlier bucket, whatever the record (none, active, claimed, completed)', () => {
    expect(evaluate({ event: lateEvent })).toBeNull();
    expect(evaluate({ record: record(), event: lateEvent })).toBeNull();
    expect(evaluate({ record: record({ status: 'claimed', currentCount: 3 }), event: lateEvent })).toBeNull();
    expect(evaluate({ record: record({ status: 'completed', currentCount: 3 }), event: lateEvent })).toBeNull();
  });
  it('does not start a new cycle from a late event whose bucket is after the record’s (a claimed record of the day before)', () => {
    const twoDaysAgo = record({ windowStart: TODAY - 2 * DAY, status: 'claimed', currentCount: 3 });
    expect(evaluate({ record: twoDaysAgo, event: event(NOON - DAY) })).toBeNull();
    expect(evaluate({ record: twoDaysAgo, event: event(NOON) })?.record).toMatchObject({ windowStart: TODAY, cycle: 2, currentCount: 1 });
  });
  it('counts a late event in its own bucket while that bucket is still the current one', () => {
    expect(evaluate({ record: record({ currentCount: 1 }), event: event(TODAY + 1) })?.record).toMatchObject({ currentCount: 2, windowStart: TODAY });
  });
  it('ignores an early event (device clock ahead) whose bucket has not begun by the server clock: no jump into tomorrow', () => {
    const justBeforeMidnight = TODAY + DAY - 60_000;
    const early = event(TODAY + DAY + 60_000);
    expect(evaluate({ record: record(), event: early, now: justBeforeMidnight })).toBeNull();
    expect(evaluate({ record: record({ status: 'claimed', currentCount: 3 }), event: early, now: justBeforeMidnight })).toBeNull();
  });
  it('ignores an event dated 2100 and leaves the record where it was', () => {
    expect(evaluate({ record: record(), event: event(utc(2100, 1, 1, 12)) })).toBeNull();
  });
  it('restarts, in the current bucket, a record left in a future bucket by an event stored before the rule (the player is not frozen)', () => {
    const future = record({ windowStart: utc(2100, 1, 1), status: 'claimed', currentCount: 3, cycle: 2 });
    expect(evaluate({ record: future })?.record).toMatchObject({ status: 'active', currentCount: 1, windowStart: TODAY, cycle: 3 });
    expect(evaluate({ record: { ...future, status: 'active', currentCount: 2 } })?.record).toMatchObject({ status: 'active', currentCount: 1, windowStart: TODAY });
  });
  it('counts a late event for a lifetime mission (its one bucket is always current)', () => {
    const m = mission({ window: 'lifetime' });
    expect(evaluate({ mission: m, record: record({ windowStart: 0 }), event: event(NOON - 20 * DAY) })?.record).toMatchObject({ currentCount: 2, windowStart: 0 });
  });
  it('ignores late events for weekly and monthly missions outside the current week or month, counts them inside', () => {
    const weekly = mission({ window: 'weekly' });
    expect(evaluate({ mission: weekly, event: event(utc(2024, 3, 4, 0, 0, 0, 1)) })?.record.windowStart).toBe(utc(2024, 3, 4));
    expect(evaluate({ mission: weekly, event: event(utc(2024, 3, 3, 23, 59)) })).toBeNull();
    const monthly = mission({ window: 'monthly' });
    expect(evaluate({ mission: monthly, event: event(utc(2024, 3, 1)) })?.record.windowStart).toBe(utc(2024, 3, 1));
    expect(evaluate({ mission: monthly, event: event(utc(2024, 2, 29, 23)) })).toBeNull();
  });
});

describe('evaluateEvent: a daily mission over several days', () => {
  it('completes, waits for the claim, then starts cycle 2 the next day', () => {
    const m = mission({ count: 2 });
    let r = evaluate({ mission: m })!.record;
    r = evaluate({ mission: m, record: r })!.record;
    expect(r.status).toBe('completed');
    expect(evaluate({ mission: m, record: r, event: event(NOON + DAY), now: NOW + DAY })).toBeNull(); // unclaimed: no reset
    r = { ...r, status: 'claimed' };
    expect(evaluate({ mission: m, record: r, event: event(NOON + 1) })).toBeNull(); // claimed today: done
    const next = evaluate({ mission: m, record: r, event: event(NOON + DAY), now: NOW + DAY })!;
    expect(next.record).toMatchObject({ status: 'active', currentCount: 1, cycle: 2, windowStart: TODAY + DAY });
  });
});

describe('isMissionLocked', () => {
  const args = (o: { mission?: Mission; campaign?: Campaign | null; claimed?: string[]; now?: number } = {}) => ({
    mission: o.mission ?? mission(),
    campaign: o.campaign ?? null,
    claimedMissionIds: new Set(o.claimed ?? []),
    now: o.now ?? NOW,
  });
  it('is unlocked without prerequisites or campaign', () => {
    expect(isMissionLocked(args())).toBe(false);
  });
  it('is locked until every prerequisite is claimed', () => {
    const m = mission({ prerequisites: ['a', 'b'] });
    expect(isMissionLocked(args({ mission: m }))).toBe(true);
    expect(isMissionLocked(args({ mission: m, claimed: ['a'] }))).toBe(true);
    expect(isMissionLocked(args({ mission: m, claimed: ['a', 'b'] }))).toBe(false);
  });
  it('is locked for everyone while its campaign has not started (startAt > now)', () => {
    const c = campaign({ startAt: NOW + 1 });
    expect(isMissionLocked(args({ campaign: c }))).toBe(true);
    expect(isMissionLocked(args({ mission: mission({ prerequisites: ['a'] }), campaign: c, claimed: ['a'] }))).toBe(true);
  });
  it('unlocks at the exact campaign startAt', () => {
    expect(isMissionLocked(args({ campaign: campaign({ startAt: NOW }) }))).toBe(false);
  });
  it('is not locked by an ended campaign (it just cannot progress)', () => {
    expect(isMissionLocked(args({ campaign: campaign({ endAt: NOW - 1 }) }))).toBe(false);
  });
});

describe('claimedMissionIds', () => {
  it('includes claimed records and restarted cycles (cycle > 1 follows a claim), nothing else', () => {
    const ids = claimedMissionIds([
      record({ missionId: 'claimed', status: 'claimed' }),
      record({ missionId: 'restarted', status: 'active', cycle: 2 }),
      record({ missionId: 'completed', status: 'completed' }),
      record({ missionId: 'active', status: 'active' }),
    ]);
    expect([...ids].sort()).toEqual(['claimed', 'restarted']);
  });
});

describe('isWithinMissionTime', () => {
  it('is the half-open range [campaign startAt, min(endAt, expiresAt))', () => {
    const m = mission({ expiresAt: 200 });
    const c = campaign({ startAt: 100, endAt: 300 });
    expect([99, 100, 199, 200].map((t) => isWithinMissionTime(m, c, t))).toEqual([false, true, true, false]);
    expect([299, 300].map((t) => isWithinMissionTime(mission(), c, t))).toEqual([true, false]);
  });
  it('is always true without expiresAt or campaign', () => {
    expect(isWithinMissionTime(mission(), null, 0)).toBe(true);
  });
});

describe('canStillProgress', () => {
  it('is true without expiry or campaign', () => {
    expect(canStillProgress(mission(), null, NOW)).toBe(true);
  });
  it('is false once expiresAt <= now, true one ms before', () => {
    expect(canStillProgress(mission({ expiresAt: NOW }), null, NOW)).toBe(false);
    expect(canStillProgress(mission({ expiresAt: NOW + 1 }), null, NOW)).toBe(true);
  });
  it('is false once the campaign endAt <= now, true one ms before', () => {
    expect(canStillProgress(mission(), campaign({ endAt: NOW }), NOW)).toBe(false);
    expect(canStillProgress(mission(), campaign({ endAt: NOW + 1 }), NOW)).toBe(true);
  });
  it('is true for an upcoming campaign (locked now, progresses later)', () => {
    expect(canStillProgress(mission(), campaign({ startAt: NOW + DAY }), NOW)).toBe(true);
  });
  it('is false for an archived mission or campaign', () => {
    expect(canStillProgress(mission({ archived: true }), null, NOW)).toBe(false);
    expect(canStillProgress(mission(), campaign({ archived: true }), NOW)).toBe(false);
  });
});

describe('isListed (GET /v1/missions)', () => {
  const expired = mission({ expiresAt: NOW - 1 });
  const listed = (m: Mission, r: ProgressRecord | null, includeExpired = false) =>
    isListed({ mission: m, campaign: null, record: r, includeExpired, now: NOW });
  it('lists a mission that can still progress', () => {
    expect(listed(mission(), null)).toBe(true);
  });
  it('hides an expired mission unless the record is completed (still claimable)', () => {
    expect(listed(expired, null)).toBe(false);
    expect(listed(expired, record({ status: 'active' }))).toBe(false);
    expect(listed(expired, record({ status: 'claimed' }))).toBe(false);
    expect(listed(expired, record({ status: 'completed' }))).toBe(true);
  });
  it('hides a mission of an ended campaign unless the record is completed', () => {
    const ended = campaign({ endAt: NOW });
    expect(isListed({ mission: mission(), campaign: ended, record: null, includeExpired: false, now: NOW })).toBe(false);
    expect(isListed({ mission: mission(), campaign: ended, record: record({ status: 'completed' }), includeExpired: false, now: NOW })).toBe(true);
  });
  it('lists expired missions with include=expired', () => {
    expect(listed(expired, null, true)).toBe(true);
  });
  it('never lists an archived mission, even completed or with include=expired', () => {
    const archived = mission({ archived: true });
    expect(listed(archived, record({ status: 'completed' }), true)).toBe(false);
  });
});

describe('toMissionProgress (read view)', () => {
  const view = (r: ProgressRecord | null, o: { mission?: Mission; now?: number; locked?: boolean } = {}) =>
    toMissionProgress({ mission: o.mission ?? mission(), record: r, locked: o.locked ?? false, now: o.now ?? NOW });

  it('is null without a record', () => {
    expect(view(null)).toBeNull();
  });
  it('shows an active record of the current bucket with progress = count / target', () => {
    expect(view(record({ currentCount: 2 }))).toEqual({
      userId: 'u1',
      missionId: 'm1',
      status: 'active',
      progress: 2 / 3,
      currentCount: 2,
      targetCount: 3,
      updatedAt: NOON - 1000,
    });
  });
  it("shows an active record against the mission's current target", () => {
    expect(view(record({ currentCount: 2, targetCount: 3 }), { mission: mission({ count: 4 }) })).toMatchObject({ targetCount: 4, progress: 0.5 });
  });
  it('caps progress at 1', () => {
    expect(view(record({ currentCount: 5, targetCount: 3 }), { mission: mission({ count: 2 }) })?.progress).toBe(1);
  });
  it('shows a completed record with progress 1', () => {
    expect(view(record({ status: 'completed', currentCount: 3 }))).toMatchObject({ status: 'completed', progress: 1, currentCount: 3 });
  });
  it('shows a claimed record with progress 1 and currentCount = targetCount', () => {
    expect(view(record({ status: 'claimed', currentCount: 2, targetCount: 3 }))).toMatchObject({
      status: 'claimed',
      progress: 1,
      currentCount: 3,
      targetCount: 3,
    });
  });
  it('reads an active record of an ended bucket as active with count 0 (fresh at 00:00 UTC)', () => {
    const r = record({ currentCount: 2 });
    expect(view(r, { now: TODAY + DAY - 1 })).toMatchObject({ status: 'active', currentCount: 2 });
    expect(view(r, { now: TODAY + DAY })).toMatchObject({ status: 'active', currentCount: 0, progress: 0, targetCount: 3 });
  });
  it('reads a claimed record of an ended bucket as active with count 0', () => {
    const r = record({ status: 'claimed', currentCount: 3 });
    expect(view(r, { now: TODAY + DAY })).toMatchObject({ status: 'active', currentCount: 0, progress: 0 });
  });
  it("uses the mission's current target in the reset view", () => {
    const r = record({ status: 'claimed', currentCount: 3 });
    expect(view(r, { now: TODAY + DAY, mission: mission({ count: 7 }) })?.targetCount).toBe(7);
  });
  it('never resets a completed record, however late', () => {
    const r = record({ status: 'completed', currentCount: 3 });
    expect(view(r, { now: TODAY + 400 * DAY })).toMatchObject({ status: 'completed', currentCount: 3, progress: 1 });
  });
  it('reads a record left in a future bucket (stored before event times were bounded) as active with count 0', () => {
    const future = record({ windowStart: utc(2100, 1, 1), status: 'claimed', currentCount: 3 });
    expect(view(future)).toMatchObject({ status: 'active', currentCount: 0, progress: 0 });
  });
  it('never resets a lifetime record', () => {
    const r = record({ status: 'claimed', windowStart: 0, currentCount: 3 });
    expect(view(r, { mission: mission({ window: 'lifetime' }), now: TODAY + 400 * DAY })?.status).toBe('claimed');
  });
  it('resets a weekly record at Monday 00:00, not at Sunday 23:59:59.999', () => {
    const m = mission({ window: 'weekly' });
    const r = record({ status: 'claimed', windowStart: utc(2024, 3, 4) });
    expect(view(r, { mission: m, now: utc(2024, 3, 11) - 1 })?.status).toBe('claimed');
    expect(view(r, { mission: m, now: utc(2024, 3, 11) })?.status).toBe('active');
  });
  it('resets a monthly record on the 1st (leap February → March)', () => {
    const m = mission({ window: 'monthly' });
    const r = record({ windowStart: utc(2024, 2, 1), currentCount: 2 });
    expect(view(r, { mission: m, now: utc(2024, 3, 1) - 1 })?.currentCount).toBe(2);
    expect(view(r, { mission: m, now: utc(2024, 3, 1) })?.currentCount).toBe(0);
  });
  it("shows the record's status even when the mission is now locked (a record wins)", () => {
    expect(view(record(), { locked: true })?.status).toBe('active');
  });
});

describe('effectiveStatus (status filter of GET /v1/missions)', () => {
  const status = (r: ProgressRecord | null, locked: boolean, now = NOW) =>
    effectiveStatus({ mission: mission(), record: r, locked, now });
  it('is active or locked without a record', () => {
    expect(status(null, false)).toBe('active');
    expect(status(null, true)).toBe('locked');
  });
  it("is the record's status when a record exists, even if locked", () => {
    expect(status(record({ status: 'completed' }), true)).toBe('completed');
    expect(status(record({ status: 'claimed' }), false)).toBe('claimed');
  });
  it('is active for a claimed record whose bucket is over', () => {
    expect(status(record({ status: 'claimed' }), false, TODAY + DAY)).toBe('active');
  });
});

describe('explainEvent: the verdict says why, from the same checks that decide', () => {
  function explain(a: { mission?: Mission; campaign?: Campaign | null; record?: ProgressRecord | null; event?: EngineEvent; claimed?: string[]; now?: number }) {
    const m = a.mission ?? mission();
    const c = a.campaign ?? null;
    const now = a.now ?? NOW;
    const lock = missionLock({ mission: m, campaign: c, claimedMissionIds: new Set(a.claimed ?? []), now });
    return explainEvent({ mission: m, campaign: c, record: a.record ?? null, event: a.event ?? event(), lock, now });
  }
  const verdict = (a: Parameters<typeof explain>[0]) => explain(a).verdict;

  it('counted: the new count and target, and the same record evaluateEvent gives', () => {
    const e = explain({ record: record({ currentCount: 1 }) });
    expect(e.verdict).toEqual({ counted: true, change: 'progress', currentCount: 2, targetCount: 3 });
    expect(e.evaluation).toEqual(evaluate({ record: record({ currentCount: 1 }) }));
    expect(verdict({ record: record({ currentCount: 2 }) })).toEqual({ counted: true, change: 'completed', currentCount: 3, targetCount: 3 });
  });
  it('event name mismatch: the expected and the seen name', () => {
    expect(verdict({ event: event(NOON, {}, 'match.lost') })).toEqual({ counted: false, code: 'event_name_mismatch', expected: 'match.won', seen: 'match.lost' });
  });
  it('filter mismatch: the first failing key, its condition and the value seen', () => {
    const m = mission({ filter: { mode: 'ranked', level: { gte: 10 } } });
    expect(verdict({ mission: m, event: event(NOON, { mode: 'ranked', level: 9 }) })).toEqual({
      counted: false,
      code: 'filter_mismatch',
      key: 'level',
      condition: { gte: 10 },
      missing: false,
      seen: 9,
    });
    expect(verdict({ mission: m, event: event(NOON, { mode: 'casual', level: 12 }) })).toMatchObject({ code: 'filter_mismatch', key: 'mode', seen: 'casual' });
  });
  it('filter mismatch on a missing field says so and carries no value', () => {
    const v = verdict({ mission: mission({ filter: { 'map.region': 'eu' } }), event: event(NOON, { map: {} }) });
    expect(v).toEqual({ counted: false, code: 'filter_mismatch', key: 'map.region', condition: 'eu', missing: true });
  });
  it('filter mismatch on an object value summarises it', () => {
    expect(verdict({ mission: mission({ filter: { map: 'eu' } }), event: event(NOON, { map: { region: 'eu' } }) })).toMatchObject({ seen: '[object]', missing: false });
  });
  it('outside the window: an event before the campaign start, with the window', () => {
    const c = campaign({ startAt: NOON });
    expect(verdict({ campaign: c, event: event(NOON - 1) })).toEqual({
      counted: false,
      code: 'outside_window',
      campaignId: 'c1',
      startAt: NOON,
      endAt: c.endAt,
      timestamp: NOON - 1,
    });
  });
  it('campaign not live: ended, archived, not started yet', () => {
    const ended = campaign({ endAt: NOON });
    expect(verdict({ campaign: ended, event: event(NOON) })).toMatchObject({ counted: false, code: 'campaign_not_live', state: 'ended', endAt: NOON });
    expect(verdict({ campaign: campaign({ archived: true }) })).toMatchObject({ counted: false, code: 'campaign_not_live', state: 'archived' });
    const upcoming = campaign({ startAt: NOW + DAY });
    expect(verdict({ campaign: upcoming })).toMatchObject({ counted: false, code: 'campaign_not_live', state: 'not_started', startAt: NOW + DAY });
  });
  it('locked by the prerequisites the user has not claimed (only those)', () => {
    const m = mission({ prerequisites: ['a', 'b', 'c'] });
    expect(verdict({ mission: m, claimed: ['b'] })).toEqual({ counted: false, code: 'locked_by_prerequisite', missing: ['a', 'c'] });
    expect(verdict({ mission: m, claimed: ['a', 'b', 'c'] })).toMatchObject({ counted: true });
  });
  it('expired: the event at or after expiresAt', () => {
    expect(verdict({ mission: mission({ expiresAt: NOON }), event: event(NOON) })).toEqual({ counted: false, code: 'expired', expiresAt: NOON, timestamp: NOON });
  });
  it('already completed (waiting for its claim), already claimed (same window)', () => {
    expect(verdict({ record: record({ status: 'completed', currentCount: 3 }) })).toEqual({ counted: false, code: 'already_completed' });
    const lifetime = mission({ window: 'lifetime' });
    expect(verdict({ mission: lifetime, record: record({ status: 'claimed', windowStart: 0, currentCount: 3 }) })).toEqual({ counted: false, code: 'already_claimed' });
    // A completed record is never reset by a later window either.
    expect(verdict({ record: record({ status: 'completed', windowStart: TODAY - DAY }) })).toEqual({ counted: false, code: 'already_completed' });
  });
  it('outside the current window: a late event of an earlier window than the server clock’s, with both windows', () => {
    expect(verdict({ record: record(), event: event(NOON - DAY) })).toEqual({
      counted: false,
      code: 'outside_current_window',
      eventWindowStart: TODAY - DAY,
      currentWindowStart: TODAY,
    });
    expect(verdict({ event: event(utc(2100, 1, 1)) })).toEqual({
      counted: false,
      code: 'outside_current_window',
      eventWindowStart: utc(2100, 1, 1),
      currentWindowStart: TODAY,
    });
  });
  it('mission archived', () => {
    expect(verdict({ mission: mission({ archived: true }) })).toEqual({ counted: false, code: 'mission_archived' });
  });
  it('evaluateEvent is explainEvent without the why: null exactly when not counted', () => {
    const cases: Array<Parameters<typeof explain>[0]> = [
      {},
      { event: event(NOON, {}, 'x') },
      { mission: mission({ expiresAt: NOON }) },
      { record: record({ status: 'completed' }) },
      { mission: mission({ prerequisites: ['p'] }) },
      { event: event(NOON - DAY) },
    ];
    for (const c of cases) expect(explain(c).evaluation === null).toBe(!explain(c).verdict.counted);
  });
  it('evaluateEvent (no verdict built) gives exactly explainEvent’s evaluation: the same record, every field, and the same change', () => {
    const cases: Array<Parameters<typeof explain>[0]> = [
      {},
      { record: record() },
      { record: record({ currentCount: 2 }) },
      { record: record({ status: 'claimed', currentCount: 3 }), event: event(NOW + DAY), now: NOW + DAY },
      { record: record({ currentCount: 2 }), event: event(NOW + DAY), now: NOW + DAY },
      { mission: mission({ count: 1, window: 'lifetime' }) },
      { mission: mission({ filter: { mode: 'ranked' } }), event: { ...event(), payload: { mode: 'ranked' } } },
      { mission: mission({ filter: { mode: 'ranked' } }) },
      { record: record({ status: 'completed' }) },
      { mission: mission({ prerequisites: ['p'] }), claimed: ['p'] },
    ];
    let counted = 0;
    for (const c of cases) {
      const m = c.mission ?? mission();
      const lock = missionLock({ mission: m, campaign: null, claimedMissionIds: new Set(c.claimed ?? []), now: c.now ?? NOW });
      const quiet = evaluateEvent({ mission: m, campaign: null, record: c.record ?? null, event: c.event ?? event(), lock, now: c.now ?? NOW });
      const full = explain(c).evaluation;
      expect(quiet).toEqual(full);
      if (full) {
        counted++;
        expect(Object.keys(quiet!.record).sort()).toEqual(Object.keys(full.record).sort());
        expect(Object.keys(full.record).sort()).toEqual(['currentCount', 'cycle', 'missionId', 'status', 'targetCount', 'updatedAt', 'userId', 'windowStart']);
      }
    }
    expect(counted).toBeGreaterThanOrEqual(6);
  });
});

describe('missionLock: why a mission is locked for the mission list', () => {
  it('a campaign that has not started locks for everyone, before prerequisites', () => {
    const c = campaign({ startAt: NOW + 1 });
    expect(missionLock({ mission: mission({ prerequisites: ['p'] }), campaign: c, claimedMissionIds: new Set(), now: NOW })).toEqual({
      reason: 'campaign_not_started',
      campaignId: 'c1',
      startAt: NOW + 1,
      endAt: c.endAt,
    });
  });
  it('lists the unclaimed prerequisites; null once all are claimed', () => {
    const m = mission({ prerequisites: ['a', 'b'] });
    expect(missionLock({ mission: m, campaign: null, claimedMissionIds: new Set(['a']), now: NOW })).toEqual({ reason: 'prerequisites', missing: ['b'] });
    expect(missionLock({ mission: m, campaign: null, claimedMissionIds: new Set(['a', 'b']), now: NOW })).toBeNull();
  });
});
