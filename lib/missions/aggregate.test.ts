// Issue 19 §1–2 in the pure engine: sum and distinct aggregates, streaks over
// daily and weekly windows (a missed window, a weekly streak across a year
// boundary), the read view's streak, and the property that splitting a sum
// over several events adds up to the same as one event.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { missionSchema } from '@/lib/contract/mission';
import { explainEvent, toMissionProgress, type Verdict } from './engine';
import type { EngineEvent, Mission, ProgressRecord } from './schema';

const DAY = 86_400_000;
const HOUR = 3_600_000;
// Wednesday 2024-03-06 at noon UTC.
const DAY1 = Date.UTC(2024, 2, 6, 12);

function mission(criteria: Partial<Mission['criteria']>): Mission {
  return missionSchema.parse({
    id: 'm1',
    title: 'Gold',
    criteria: { eventName: 'loot', count: 100, window: 'lifetime', ...criteria },
    reward: { kind: 'currency', currency: 'gems', amount: 1 },
  });
}

const event = (payload: Record<string, unknown>, timestamp = DAY1): EngineEvent => ({ userId: 'u1', name: 'loot', payload, timestamp });

/** Applies events in order (each at its own time, the clock at that time); answers the last record and every verdict. */
function run(m: Mission, events: EngineEvent[], start: ProgressRecord | null = null): { record: ProgressRecord | null; verdicts: Verdict[] } {
  let record = start;
  const verdicts: Verdict[] = [];
  for (const e of events) {
    const { evaluation, verdict } = explainEvent({ mission: m, campaign: null, record, event: e, lock: null, now: e.timestamp });
    verdicts.push(verdict);
    if (evaluation) record = evaluation.record;
  }
  return { record, verdicts };
}

const claim = (r: ProgressRecord): ProgressRecord => ({ ...r, status: 'claimed' });

describe('criteria.aggregate: count (the default)', () => {
  it('an explicit { op: "count" } counts exactly as a mission without aggregate, and stores no state', () => {
    const plain = run(mission({ count: 3 }), [event({}), event({})]);
    const explicit = run(mission({ count: 3, aggregate: { op: 'count' } }), [event({}), event({})]);
    expect(explicit).toEqual(plain);
    expect(plain.record).toMatchObject({ currentCount: 2, status: 'active' });
    expect(plain.record).not.toHaveProperty('state');
    expect(plain.verdicts[1]).toEqual({ counted: true, change: 'progress', currentCount: 2, targetCount: 3 });
  });
});

describe('criteria.aggregate: sum', () => {
  const gold = mission({ count: 100, aggregate: { op: 'sum', field: 'gold' } });

  it('adds the field, caps currentCount at the target and completes when the sum reaches it', () => {
    const { record, verdicts } = run(gold, [event({ gold: 40 }), event({ gold: 50 }), event({ gold: 30 })]);
    expect(verdicts.map((v) => v.counted && v.currentCount)).toEqual([40, 90, 100]);
    expect(verdicts[2]).toEqual({ counted: true, change: 'completed', currentCount: 100, targetCount: 100, added: 30 });
    expect(record).toMatchObject({ status: 'completed', currentCount: 100, targetCount: 100, state: { sumMicros: 100_000_000 } });
    const view = toMissionProgress({ mission: gold, record, locked: false, now: DAY1 });
    expect(view).toMatchObject({ status: 'completed', currentCount: 100, progress: 1 });
  });

  it('reads dot paths', () => {
    const nested = mission({ count: 10, aggregate: { op: 'sum', field: 'loot.gold' } });
    expect(run(nested, [event({ loot: { gold: 7 } })]).record).toMatchObject({ currentCount: 7 });
  });

  it('a missing, non-numeric, non-finite or negative value adds nothing and the verdict says why', () => {
    const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [{}, { reason: 'missing' }],
      [{ gold: '5' }, { reason: 'not_a_number', seen: '5' }],
      [{ gold: null }, { reason: 'not_a_number', seen: null }],
      [{ gold: { amount: 5 } }, { reason: 'not_a_number', seen: '[object]' }],
      [{ gold: Infinity }, { reason: 'not_finite', seen: Infinity }],
      [{ gold: Number.NaN }, { reason: 'not_finite' }],
      [{ gold: -5 }, { reason: 'negative', seen: -5 }],
    ];
    for (const [payload, why] of cases) {
      const { record, verdicts } = run(gold, [event({ gold: 10 }), event(payload)]);
      expect(record?.currentCount).toBe(10);
      expect(verdicts[1]).toMatchObject({ counted: false, code: 'aggregate_value_invalid', field: 'gold', ...why });
    }
    // The first event of all: no record is created.
    expect(run(gold, [event({})]).record).toBeNull();
    // A value parsed from JSON out of range ("1e400") is Infinity.
    expect(run(gold, [event(JSON.parse('{"gold": 1e400}') as Record<string, unknown>)]).verdicts[0]).toMatchObject({ reason: 'not_finite' });
  });

  it('zero counts and adds nothing', () => {
    expect(run(gold, [event({ gold: 0 })])).toMatchObject({ record: { currentCount: 0, status: 'active' }, verdicts: [{ counted: true, added: 0 }] });
  });

  it('fractions: exact to the millionth, currentCount rounds down, completion on the exact sum', () => {
    const small = mission({ count: 1, aggregate: { op: 'sum', field: 'gold' } });
    // 0.1 + 0.2 is 0.30000000000000004 in floating point; ten times 0.1 is exactly 1 here.
    const tenths = run(small, Array.from({ length: 10 }, () => event({ gold: 0.1 })));
    expect(tenths.verdicts.slice(0, 9).map((v) => v.counted && v.currentCount)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(tenths.record).toMatchObject({ status: 'completed', currentCount: 1, state: { sumMicros: 1_000_000 } });

    const three = mission({ count: 3, aggregate: { op: 'sum', field: 'gold' } });
    const r = run(three, [event({ gold: 1.5 }), event({ gold: 1.499999 })]);
    expect(r.record).toMatchObject({ status: 'active', currentCount: 2, state: { sumMicros: 2_999_999 } });
    expect(toMissionProgress({ mission: three, record: r.record, locked: false, now: DAY1 })).toMatchObject({ currentCount: 2, progress: 2 / 3 });
    // Below a millionth rounds to nothing; half a millionth rounds up.
    expect(run(three, [event({ gold: 0.0000004 })]).record?.state?.sumMicros).toBe(0);
    expect(run(three, [event({ gold: 0.0000005 })]).record?.state?.sumMicros).toBe(1);
  });

  it('a huge value completes without overflowing (it adds at most the target)', () => {
    const big = mission({ count: 1_000_000_000, aggregate: { op: 'sum', field: 'gold' } });
    const r = run(big, [event({ gold: 1e300 })]);
    expect(r.record).toMatchObject({ status: 'completed', currentCount: 1_000_000_000, state: { sumMicros: 1e15 } });
    expect(r.verdicts[0]).toMatchObject({ added: 1_000_000_000 });
  });

  it('a daily sum starts again in the next window', () => {
    const daily = mission({ count: 100, window: 'daily', aggregate: { op: 'sum', field: 'gold' } });
    const { record } = run(daily, [event({ gold: 60 }, DAY1), event({ gold: 30 }, DAY1 + DAY)]);
    expect(record).toMatchObject({ currentCount: 30, windowStart: DAY1 + DAY - 12 * HOUR, state: { sumMicros: 30_000_000 } });
  });

  it('property: the sum of split events equals the sum of one event', () => {
    const target = 1_000_000;
    const m = mission({ count: target, aggregate: { op: 'sum', field: 'gold' } });
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 10_000_000_000 }), { minLength: 1, maxLength: 20 }), (micros) => {
        // Parts with up to six decimals: split events of a total, each a whole number of millionths.
        const parts = micros.map((n) => n / 1_000_000);
        const total = micros.reduce((a, b) => a + b, 0) / 1_000_000;
        const split = run(m, parts.map((gold) => event({ gold }))).record;
        const one = run(m, [event({ gold: total })]).record;
        expect(split?.state?.sumMicros).toBe(one?.state?.sumMicros);
        expect(split?.currentCount).toBe(one?.currentCount);
        expect(split?.status).toBe(one?.status);
      }),
      { numRuns: 300 },
    );
  });
});

describe('criteria.aggregate: distinct', () => {
  const modes = mission({ count: 3, aggregate: { op: 'distinct', field: 'mode' } });

  it('counts different values; a repeat adds nothing and the verdict says so', () => {
    const { record, verdicts } = run(modes, [event({ mode: 'ranked' }), event({ mode: 'ranked' }), event({ mode: 'casual' }), event({ mode: 'arena' })]);
    expect(verdicts[0]).toEqual({ counted: true, change: 'progress', currentCount: 1, targetCount: 3, value: 'ranked' });
    expect(verdicts[1]).toEqual({ counted: false, code: 'distinct_repeat', field: 'mode', value: 'ranked' });
    expect(verdicts[3]).toMatchObject({ counted: true, change: 'completed', currentCount: 3 });
    expect(record).toMatchObject({ status: 'completed', state: { values: ['ranked', 'casual', 'arena'] } });
  });

  it('strings, numbers and booleans; 1 and "1" are different values; anything else adds nothing', () => {
    const five = mission({ count: 5, aggregate: { op: 'distinct', field: 'v' } });
    const { record, verdicts } = run(five, [event({ v: 1 }), event({ v: '1' }), event({ v: true }), event({ v: null }), event({ v: [1] }), event({})]);
    expect(record?.state?.values).toEqual([1, '1', true]);
    expect(verdicts.slice(3)).toEqual([
      { counted: false, code: 'aggregate_value_invalid', field: 'v', reason: 'not_a_value', seen: null },
      { counted: false, code: 'aggregate_value_invalid', field: 'v', reason: 'not_a_value', seen: '[array of 1]' },
      { counted: false, code: 'aggregate_value_invalid', field: 'v', reason: 'missing' },
    ]);
  });

  it('values are per window: a daily distinct starts empty the next day', () => {
    const daily = mission({ count: 3, window: 'daily', aggregate: { op: 'distinct', field: 'mode' } });
    const { record, verdicts } = run(daily, [event({ mode: 'a' }, DAY1), event({ mode: 'b' }, DAY1), event({ mode: 'a' }, DAY1 + DAY)]);
    expect(verdicts[2]).toMatchObject({ counted: true, currentCount: 1 });
    expect(record?.state?.values).toEqual(['a']);
  });

  it('the stored values never exceed the target, and the target is at most 1000', () => {
    const two = mission({ count: 2, aggregate: { op: 'distinct', field: 'v' } });
    expect(run(two, [event({ v: 'a' }), event({ v: 'b' }), event({ v: 'c' })]).record?.state?.values).toEqual(['a', 'b']);
    const tooMany = missionSchema.safeParse({ ...two, criteria: { ...two.criteria, count: 1001 } });
    expect(tooMany.success).toBe(false);
    expect(JSON.stringify(tooMany.error?.issues)).toContain('at most 1000');
    expect(missionSchema.safeParse({ ...two, criteria: { ...two.criteria, count: 1000 } }).success).toBe(true);
  });

  it('the schema refuses an unknown op, a missing field and an empty path segment', () => {
    const base = { id: 'x', title: 'x', reward: { kind: 'badge', badgeId: 'b' } };
    for (const aggregate of [{ op: 'max', field: 'a' }, { op: 'sum' }, { op: 'distinct', field: 'a..b' }, { op: 'count', field: 'a' }]) {
      expect(missionSchema.safeParse({ ...base, criteria: { eventName: 'e', count: 1, aggregate } }).success).toBe(false);
    }
  });
});

describe('criteria.streak', () => {
  const login = (o: Partial<Mission['criteria']> = {}) => mission({ eventName: 'loot', count: 1, window: 'daily', streak: { length: 3 }, ...o });
  const day = (n: number, hour = 12) => DAY1 + (n - 1) * DAY + (hour - 12) * HOUR;

  it('completes when the target was met in N consecutive days; MissionProgress.streak counts them', () => {
    const m = login();
    let r = run(m, [event({}, day(1))]);
    expect(r.verdicts[0]).toEqual({ counted: true, change: 'progress', currentCount: 1, targetCount: 1, streak: { current: 1, length: 3 } });
    expect(toMissionProgress({ mission: m, record: r.record, locked: false, now: day(1) })).toMatchObject({ status: 'active', progress: 1, streak: { current: 1, length: 3 } });
    // Day 2, before any event: the window reads fresh, the streak is alive.
    expect(toMissionProgress({ mission: m, record: r.record, locked: false, now: day(2, 1) })).toMatchObject({ status: 'active', currentCount: 0, streak: { current: 1, length: 3 } });
    r = run(m, [event({}, day(2)), event({}, day(3))], r.record);
    expect(r.verdicts[1]).toMatchObject({ counted: true, change: 'completed', streak: { current: 3, length: 3 } });
    expect(toMissionProgress({ mission: m, record: r.record, locked: false, now: day(9) })).toMatchObject({ status: 'completed', streak: { current: 3, length: 3 } });
  });

  it('a user with a zone: the windows and the previous one are their own days (Pacific/Auckland, UTC+13)', () => {
    const zone = 'Pacific/Auckland';
    const m = login();
    // 10:00 and 12:00 UTC on 6 March are 23:00 on the 6th and 01:00 on the 7th in Auckland: two local days in a row.
    const at = (utcHour: number, d = 0) => Date.UTC(2024, 2, 6 + d, utcHour);
    let record: ProgressRecord | null = null;
    const verdicts: Verdict[] = [];
    for (const t of [at(10), at(12)]) {
      const { evaluation, verdict } = explainEvent({ mission: m, campaign: null, record, event: event({}, t), lock: null, now: t, zone });
      verdicts.push(verdict);
      if (evaluation) record = evaluation.record;
    }
    expect(verdicts[1]).toMatchObject({ counted: true, change: 'progress', streak: { current: 2, length: 3 }, timeZone: zone });
    // 20:00 UTC on the 7th is 09:00 on the 8th in Auckland: the last day met (the 7th) is the previous one, the streak is alive.
    expect(toMissionProgress({ mission: m, record, locked: false, now: at(20, 1), zone })).toMatchObject({ streak: { current: 2, length: 3 } });
    // 11:00 UTC on the 8th is 00:00 on the 9th there: the 8th passed without meeting it.
    expect(toMissionProgress({ mission: m, record, locked: false, now: at(11, 2), zone })).toMatchObject({ streak: { current: 0, length: 3 } });
    // In UTC both events fall on the 6th: the second adds nothing.
    expect(run(m, [event({}, at(10)), event({}, at(12))]).verdicts[1]).toMatchObject({ counted: false, code: 'streak_window_met' });
  });

  it('a second event in a window already met adds nothing (streak_window_met)', () => {
    const { verdicts } = run(login(), [event({}, day(1)), event({}, day(1, 13))]);
    expect(verdicts[1]).toEqual({ counted: false, code: 'streak_window_met', streak: { current: 1, length: 3 } });
  });

  it('a missed day restarts the streak: noticed at the next read and at the next event', () => {
    const m = login();
    const r = run(m, [event({}, day(1)), event({}, day(2))]);
    expect(r.record?.state?.streak).toEqual({ current: 2, lastMet: day(2) - 12 * HOUR });
    // Day 3 passes without an event: on day 4 the streak reads 0.
    expect(toMissionProgress({ mission: m, record: r.record, locked: false, now: day(3, 23) })).toMatchObject({ streak: { current: 2 } });
    expect(toMissionProgress({ mission: m, record: r.record, locked: false, now: day(4, 0) })).toMatchObject({ streak: { current: 0 } });
    const after = run(m, [event({}, day(4)), event({}, day(5))], r.record);
    expect(after.verdicts[0]).toMatchObject({ counted: true, change: 'progress', streak: { current: 1 } });
    expect(after.verdicts[1]).toMatchObject({ change: 'progress', streak: { current: 2 } });
    expect(after.record?.status).toBe('active');
  });

  it('a day with events that miss the target breaks the streak too', () => {
    const m = login({ count: 2 });
    const r = run(m, [event({}, day(1)), event({}, day(1)), event({}, day(2)), event({}, day(3)), event({}, day(3))]);
    expect(r.verdicts[4]).toMatchObject({ counted: true, change: 'progress', currentCount: 2, streak: { current: 1, length: 3 } });
  });

  it('a weekly streak across a year boundary (ISO weeks: Mon 29 Dec 2025 is the week after Mon 22 Dec)', () => {
    const m = login({ window: 'weekly', streak: { length: 3 } });
    const weeks = [Date.UTC(2025, 11, 24, 9), Date.UTC(2025, 11, 31, 9), Date.UTC(2026, 0, 6, 9)]; // Wed 24 Dec, Wed 31 Dec, Tue 6 Jan
    const r = run(m, weeks.map((t) => event({}, t)));
    expect(r.verdicts.map((v) => v.counted && v.streak?.current)).toEqual([1, 2, 3]);
    expect(r.record?.status).toBe('completed');
    // Skipping the week of 5 Jan restarts it.
    const gap = run(m, [event({}, weeks[0]), event({}, weeks[1]), event({}, Date.UTC(2026, 0, 13, 9))]);
    expect(gap.verdicts[2]).toMatchObject({ streak: { current: 1 } });
  });

  it('with a sum: the window counts when the sum reaches the target', () => {
    const m = login({ count: 100, aggregate: { op: 'sum', field: 'gold' }, streak: { length: 2 } });
    const r = run(m, [event({ gold: 60 }, day(1)), event({ gold: 40 }, day(1)), event({ gold: 99 }, day(2)), event({ gold: 1 }, day(2))]);
    expect(r.verdicts.map((v) => v.counted && v.streak?.current)).toEqual([0, 1, 1, 2]);
    expect(r.record?.status).toBe('completed');
  });

  it('after the claim: stays claimed without repeat; starts again with repeat', () => {
    const once = login({ streak: { length: 2 } });
    const done = run(once, [event({}, day(1)), event({}, day(2))]).record;
    expect(done?.status).toBe('completed');
    const claimed = claim(done as ProgressRecord);
    expect(toMissionProgress({ mission: once, record: claimed, locked: false, now: day(5) })).toMatchObject({ status: 'claimed', streak: { current: 2, length: 2 } });
    expect(run(once, [event({}, day(3))], claimed).verdicts[0]).toEqual({ counted: false, code: 'already_claimed' });

    const again = login({ streak: { length: 2, repeat: true } });
    const claimedAgain = claim(run(again, [event({}, day(1)), event({}, day(2))]).record as ProgressRecord);
    expect(run(again, [event({}, day(2, 20))], claimedAgain).verdicts[0]).toEqual({ counted: false, code: 'already_claimed' });
    expect(toMissionProgress({ mission: again, record: claimedAgain, locked: false, now: day(3) })).toMatchObject({ status: 'active', currentCount: 0, streak: { current: 0 } });
    const next = run(again, [event({}, day(3)), event({}, day(4))], claimedAgain);
    expect(next.verdicts.map((v) => v.counted && v.streak?.current)).toEqual([1, 2]);
    expect(next.record).toMatchObject({ status: 'completed', cycle: 2 });
  });

  it('only on daily or weekly missions, length 2 to 365', () => {
    const base = { id: 'x', title: 'x', reward: { kind: 'badge', badgeId: 'b' } };
    const parse = (criteria: Record<string, unknown>) => missionSchema.safeParse({ ...base, criteria: { eventName: 'e', count: 1, ...criteria } });
    expect(parse({ window: 'daily', streak: { length: 2 } }).success).toBe(true);
    expect(parse({ window: 'weekly', streak: { length: 365, repeat: true } }).success).toBe(true);
    for (const window of ['lifetime', 'monthly', undefined]) {
      const r = parse({ window, streak: { length: 3 } });
      expect(r.success).toBe(false);
      expect(JSON.stringify(r.error?.issues)).toContain('daily or weekly');
    }
    expect(parse({ window: 'daily', streak: { length: 1 } }).success).toBe(false);
    expect(parse({ window: 'daily', streak: { length: 366 } }).success).toBe(false);
    expect(parse({ window: 'daily', streak: { length: 2.5 } }).success).toBe(false);
  });
});
