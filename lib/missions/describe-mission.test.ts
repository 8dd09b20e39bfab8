// describeMission says what a mission measures, for every kind of criteria
// the contract allows (count, sum, distinct, streak; windows; filters;
// audiences; prerequisites; time zones) and a player's progress in its units.
import { describe, expect, it } from 'vitest';
import { missionSchema, type Mission, type MissionInput } from '@/lib/contract/mission';
import { describeCondition, describeMission, streakLengthLabel, targetLabel } from './describe-mission';

const mission = (criteria: MissionInput['criteria'], extra: Partial<MissionInput> = {}): Mission =>
  missionSchema.parse({ id: 'm', title: 'M', criteria, reward: { kind: 'currency', currency: 'gems', amount: 5 }, ...extra });

describe('describeMission: what it measures', () => {
  it('a count says how many events of which name', () => {
    const d = describeMission(mission({ eventName: 'match_won', count: 5 }));
    expect(d.measure).toBe('5 match_won events');
    expect(d.window).toBeNull();
    expect(d.summary).toBe('5 match_won events');
    expect(d.progress).toBe('0 / 5');
    expect(describeMission(mission({ eventName: 'match_won', count: 1, aggregate: { op: 'count' } })).measure).toBe('1 match_won event');
    expect(describeMission(mission({ eventName: 'xp', count: 12_500 })).measure).toBe('12,500 xp events');
  });

  it('a sum says the total of which field on which event, not the count of events', () => {
    const d = describeMission(mission({ eventName: 'gold_earned', count: 10_000, window: 'weekly', aggregate: { op: 'sum', field: 'gold' } }));
    expect(d.measure).toBe('Collect 10,000 gold (sum of gold on gold_earned)');
    expect(d.summary).toBe('Collect 10,000 gold (sum of gold on gold_earned) · weekly');
    expect(d.progress).toBe('0 / 10,000 gold');
    // A nested field: the unit is its last segment.
    expect(describeMission(mission({ eventName: 'loot', count: 50, aggregate: { op: 'sum', field: 'reward.coins' } })).measure).toBe('Collect 50 coins (sum of reward.coins on loot)');
    // A field that names no unit ("amount"): a total, no unit after the numbers.
    const amount = describeMission(mission({ eventName: 'gold_earned', count: 1000, aggregate: { op: 'sum', field: 'amount' } }), { progress: { currentCount: 412, targetCount: 1000 } });
    expect([amount.measure, amount.progress]).toEqual(['Collect a total of 1,000 (sum of amount on gold_earned)', '412 / 1,000']);
  });

  it('a distinct mission says how many different values of which field', () => {
    const d = describeMission(mission({ eventName: 'match_played', count: 3, aggregate: { op: 'distinct', field: 'mode' } }));
    expect(d.measure).toBe('3 different modes (distinct mode on match_played)');
    expect(d.progress).toBe('0 / 3 modes');
    expect(describeMission(mission({ eventName: 'visit', count: 1, aggregate: { op: 'distinct', field: 'city' } })).measure).toBe('1 different city (distinct city on visit)');
    expect(describeMission(mission({ eventName: 'visit', count: 4, aggregate: { op: 'distinct', field: 'place.city' } })).measure).toBe('4 different cities (distinct place.city on visit)');
    expect(describeMission(mission({ eventName: 'play', count: 2, aggregate: { op: 'distinct', field: 'class' } })).progress).toBe('0 / 2 classes');
  });

  it('a streak says how many days or weeks in a row, and what each one needs', () => {
    const login = describeMission(mission({ eventName: 'login', count: 1, window: 'daily', streak: { length: 7 } }));
    expect(login.measure).toBe('login on 7 days in a row');
    expect(login.window).toBe('daily streak');
    expect(login.summary).toBe('login on 7 days in a row · daily streak');
    expect(login.progress).toBe('day 0 of 7');
    expect(login.recurrence).toBe('A day runs to 00:00 in the player’s time zone (UTC when they have none); a day that ends without meeting the target starts the streak again');

    const wins = describeMission(mission({ eventName: 'match_won', count: 3, window: 'daily', streak: { length: 5, repeat: true } }));
    expect(wins.measure).toBe('3 match_won events a day, 5 days in a row');
    expect(wins.recurrence).toMatch(/starts the streak again; after the claim it starts again$/);

    const gold = describeMission(mission({ eventName: 'gold_earned', count: 500, window: 'weekly', aggregate: { op: 'sum', field: 'gold' }, streak: { length: 4 } }));
    expect(gold.measure).toBe('Collect 500 gold a week (sum of gold on gold_earned), 4 weeks in a row');
    expect(gold.window).toBe('weekly streak');
    expect(gold.progress).toBe('week 0 of 4 (0 / 500 this week)');

    const modes = describeMission(mission({ eventName: 'match_played', count: 2, window: 'daily', aggregate: { op: 'distinct', field: 'mode' }, streak: { length: 3 } }));
    expect(modes.measure).toBe('2 different modes a day (distinct mode on match_played), 3 days in a row');
  });
});

describe('describeMission: windows and time zones', () => {
  it('names the window and when it resets, in the player’s zone', () => {
    const at = (window: 'lifetime' | 'daily' | 'weekly' | 'monthly', timeZone?: string) => describeMission(mission({ eventName: 'play', count: 2, window }), { timeZone });
    expect(at('lifetime').recurrence).toBe('Counts once, forever');
    expect(at('daily').window).toBe('daily');
    expect(at('daily').summary).toBe('2 play events · daily');
    expect(at('daily').recurrence).toBe('Resets every day at 00:00 in the player’s time zone (UTC when they have none)');
    expect(at('weekly').recurrence).toBe('Resets every Monday at 00:00 in the player’s time zone (UTC when they have none)');
    expect(at('monthly').window).toBe('monthly');
    expect(at('monthly').recurrence).toBe('Resets on the 1st of every month at 00:00 in the player’s time zone (UTC when they have none)');
    expect(at('daily', 'Europe/Berlin').recurrence).toBe('Resets every day at 00:00 (Europe/Berlin)');
    expect(describeMission(mission({ eventName: 'login', count: 1, window: 'daily', streak: { length: 7 } }), { timeZone: 'Asia/Tokyo' }).recurrence).toMatch(/^A day runs to 00:00 \(Asia\/Tokyo\);/);
  });
});

describe('describeMission: filter, audience, prerequisites', () => {
  it('says which events count, who the mission is for and what it waits for', () => {
    const m = mission(
      { eventName: 'match_won', count: 5, filter: { mode: 'ranked', 'map.size': { gte: 3, lt: 10 }, tag: { in: ['a', 'b'] }, cheat: { exists: false } } },
      { audience: { platform: 'ios', level: { gte: 10 } }, prerequisites: ['first-win', 'gone'] },
    );
    const d = describeMission(m, { titles: new Map([['first-win', 'Play 5 matches']]) });
    expect(d.filter).toBe('only events where mode = "ranked" and map.size ≥ 3 and < 10 and tag in ["a","b"] and cheat absent');
    expect(d.audience).toBe('only players with platform = "ios" and level ≥ 10');
    expect(d.prerequisites).toBe('after ‘Play 5 matches’ and ‘gone’');
    expect(d.summary).toBe('5 match_won events · only players with platform = "ios" and level ≥ 10 · after ‘Play 5 matches’ and ‘gone’');
    expect(describeMission(m, { titles: (id) => id.toUpperCase() }).prerequisites).toBe('after ‘FIRST-WIN’ and ‘GONE’');
    expect(describeMission(m).prerequisites).toBe('after ‘first-win’ and ‘gone’');
  });

  it('says nothing of a filter, audience or prerequisite the mission does not have', () => {
    const d = describeMission(mission({ eventName: 'play', count: 1, filter: {} }, { audience: {} }));
    expect([d.filter, d.audience, d.prerequisites]).toEqual([null, null, null]);
  });

  it('words every filter operator', () => {
    expect(describeCondition(null)).toBe('= null');
    expect(describeCondition({ eq: 1, ne: 'x' })).toBe('= 1 and ≠ "x"');
    expect(describeCondition({ gt: 1, lte: 9 })).toBe('> 1 and ≤ 9');
    expect(describeCondition({ nin: [1] })).toBe('not in [1]');
    expect(describeCondition({ exists: true })).toBe('present');
  });
});

describe('describeMission: a player’s progress', () => {
  it('counts, sums and distinct values in the mission’s units', () => {
    expect(describeMission(mission({ eventName: 'play', count: 5 }), { progress: { currentCount: 3, targetCount: 5 } })).toMatchObject({ progress: '3 / 5', ratio: 0.6 });
    const sum = describeMission(mission({ eventName: 'gold_earned', count: 10_000, aggregate: { op: 'sum', field: 'gold' } }), { progress: { currentCount: 4200, targetCount: 10_000 } });
    expect(sum).toMatchObject({ progress: '4,200 / 10,000 gold', ratio: 0.42 });
    const distinct = describeMission(mission({ eventName: 'match_played', count: 3, aggregate: { op: 'distinct', field: 'mode' } }), { progress: { currentCount: 1, targetCount: 3 } });
    expect(distinct.progress).toBe('1 / 3 modes');
  });

  it('a streak is the day (or week) of its length, not the window’s 0/1', () => {
    const login = mission({ eventName: 'login', count: 1, window: 'daily', streak: { length: 7 } });
    const d = describeMission(login, { progress: { currentCount: 1, targetCount: 1, streak: { current: 3, length: 7 } } });
    expect(d.progress).toBe('day 3 of 7');
    expect(d.ratio).toBeCloseTo(3 / 7);
    // A window that needs more than one: where today stands too.
    const wins = mission({ eventName: 'match_won', count: 3, window: 'daily', streak: { length: 5 } });
    expect(describeMission(wins, { progress: { currentCount: 2, targetCount: 3, streak: { current: 1, length: 5 } } }).progress).toBe('day 1 of 5 (2 / 3 today)');
    expect(describeMission(wins, { progress: { currentCount: 3, targetCount: 3, streak: { current: 2, length: 5 } } }).progress).toBe('day 2 of 5');
    expect(describeMission(login, { progress: null }).progress).toBe('day 0 of 7');
  });
});

describe('the mission form’s labels', () => {
  it('name the target in the measure’s words, and a streak’s length in days or weeks in a row', () => {
    expect(targetLabel({})).toBe('Count');
    expect(targetLabel({ aggregate: { op: 'sum' } })).toBe('Total');
    expect(targetLabel({ aggregate: { op: 'distinct' } })).toBe('Different values');
    expect(targetLabel({ aggregate: { op: 'sum' }, window: 'daily', streak: { length: 7 } })).toBe('Total a day');
    expect(targetLabel({ window: 'weekly', streak: { length: 4 } })).toBe('Count a week');
    expect(streakLengthLabel('daily')).toBe('Days in a row');
    expect(streakLengthLabel('weekly')).toBe('Weeks in a row');
    expect(streakLengthLabel('lifetime')).toBe('Windows in a row');
  });
});
