// The inspector's sentences for issue 19's verdicts: sums, distinct values, streaks.
import { describe, expect, it } from 'vitest';
import { missionSchema, type MissionInput } from '@/lib/contract/mission';
import { describeVerdict } from './explain';

const say = (v: Record<string, unknown>) => describeVerdict({ missionId: 'm', ...v } as Parameters<typeof describeVerdict>[0], { mission: (id) => id, campaign: (id) => id });
/** The verdict's sentence when the catalog still has the mission: progress in the mission's units (describeMission). */
const sayOf = (criteria: MissionInput['criteria'], v: Record<string, unknown>) => {
  const mission = missionSchema.parse({ id: 'm', title: 'M', criteria, reward: { kind: 'badge', badgeId: 'b' } });
  return describeVerdict({ missionId: 'm', ...v } as Parameters<typeof describeVerdict>[0], { mission: (id) => id, campaign: (id) => id, missionOf: (id) => (id === 'm' ? mission : undefined) });
};

describe('describeVerdict: aggregates and streaks', () => {
  it('says why a sum value added nothing', () => {
    expect(say({ counted: false, code: 'aggregate_value_invalid', field: 'gold', reason: 'missing' })).toBe('Added nothing: field gold was missing');
    expect(say({ counted: false, code: 'aggregate_value_invalid', field: 'gold', reason: 'negative', seen: -5 })).toBe('Added nothing: field gold was -5 (negative)');
    expect(say({ counted: false, code: 'aggregate_value_invalid', field: 'gold', reason: 'not_a_number', seen: 'lots' })).toBe('Added nothing: field gold was "lots", not a number');
    expect(say({ counted: false, code: 'aggregate_value_invalid', field: 'mode', reason: 'not_a_value', seen: '[object]' })).toBe(
      'Added nothing: field mode was "[object]", not a string, number or boolean',
    );
  });

  it('says a distinct value repeated and a streak window was already met', () => {
    expect(say({ counted: false, code: 'distinct_repeat', field: 'mode', value: 'ranked' })).toBe('Added nothing: mode "ranked" was already counted in this window');
    expect(say({ counted: false, code: 'streak_window_met', streak: { current: 2, length: 7 } })).toBe('Added nothing: this window already met the target (streak 2 of 7)');
  });

  it('says what a counted event added and where the streak stands', () => {
    expect(say({ counted: true, change: 'progress', currentCount: 40, targetCount: 100, added: 40.75 })).toBe('Counted +40.75: progress 40 / 100');
    expect(say({ counted: true, change: 'completed', currentCount: 3, targetCount: 3, value: 'arena' })).toBe('Counted new value "arena": completed (3 / 3)');
    expect(say({ counted: true, change: 'progress', currentCount: 1, targetCount: 1, streak: { current: 2, length: 3 } })).toBe('Counted: progress 1 / 1, streak 2 of 3');
    expect(say({ counted: true, change: 'progress', currentCount: 2, targetCount: 3 })).toBe('Counted: progress 2 / 3');
  });

  it('says the progress in the mission’s units when the catalog has it: the sum’s total, distinct values, the streak’s day', () => {
    const gold = { eventName: 'gold_earned', count: 10_000, aggregate: { op: 'sum' as const, field: 'gold' } };
    expect(sayOf(gold, { counted: true, change: 'progress', currentCount: 4200, targetCount: 10_000, added: 1200 })).toBe('Counted +1,200: progress 4,200 / 10,000 gold');
    const modes = { eventName: 'match_played', count: 3, aggregate: { op: 'distinct' as const, field: 'mode' } };
    expect(sayOf(modes, { counted: true, change: 'completed', currentCount: 3, targetCount: 3, value: 'arena' })).toBe('Counted new value "arena": completed (3 / 3 modes)');
    const login = { eventName: 'login', count: 1, window: 'daily' as const, streak: { length: 7 } };
    expect(sayOf(login, { counted: true, change: 'progress', currentCount: 1, targetCount: 1, streak: { current: 3, length: 7 } })).toBe('Counted: progress day 3 of 7');
    expect(sayOf(login, { counted: false, code: 'streak_window_met', streak: { current: 3, length: 7 } })).toBe('Added nothing: this window already met the target (day 3 of 7)');
  });
});
