// The mission form's conversions: filter rows ↔ the filter object the engine
// reads (literals typed as JSON when they read as JSON), and a whole mission
// through the form and back unchanged.
import { describe, expect, it } from 'vitest';
import { missionSchema } from '@/lib/contract/mission';
import { describeMission } from '@/lib/missions/describe-mission';
import { describableMission, duplicateRows, emptyMissionForm, filterToRows, parseLiteral, rowsToFilter, toFormValues, toMissionInput } from './mission-form';

describe('filter rows', () => {
  it('types literals as JSON when they read as JSON, else as text', () => {
    expect(parseLiteral('3')).toBe(3);
    expect(parseLiteral('true')).toBe(true);
    expect(parseLiteral('null')).toBe(null);
    expect(parseLiteral('"3"')).toBe('3');
    expect(parseLiteral(' ranked ')).toBe('ranked');
  });

  it('a lone equals is a literal; several operators on one path make one operator object; lists split on commas', () => {
    expect(
      rowsToFilter([
        { path: 'mode', op: 'eq', value: 'ranked' },
        { path: 'level', op: 'gte', value: '3' },
        { path: 'level', op: 'lt', value: '10' },
        { path: 'map', op: 'in', value: 'dust, "7", 8' },
        { path: 'team.id', op: 'exists', value: 'true' },
      ]),
    ).toEqual({ mode: 'ranked', level: { gte: 3, lt: 10 }, map: { in: ['dust', '7', 8] }, 'team.id': { exists: true } });
    expect(rowsToFilter([])).toBeUndefined();
  });

  it('round-trips any valid filter through rows', () => {
    const filter = { mode: 'ranked', level: { gte: 3, lt: 10 }, code: '42', map: { nin: ['a', 1, true] }, x: { exists: false }, y: null };
    expect(rowsToFilter(filterToRows(filter))).toEqual(filter);
  });

  it('flags a path and operator given twice', () => {
    expect(duplicateRows([{ path: 'a', op: 'eq', value: '1' }, { path: 'a', op: 'gt', value: '1' }, { path: 'a ', op: 'eq', value: '2' }])).toEqual([2]);
  });
});

describe('a whole mission', () => {
  it('goes through the form and back unchanged', () => {
    const mission = missionSchema.parse({
      id: 'win-3',
      title: 'Win three',
      description: 'Ranked only',
      criteria: { eventName: 'match_won', count: 3, window: 'daily', filter: { mode: 'ranked', level: { gte: 3 } } },
      reward: { kind: 'item', itemId: 'sword', quantity: 2 },
      campaignId: 'spring',
      expiresAt: new Date(2027, 0, 2, 3, 4).getTime(),
      iconUrl: 'https://cdn.example.com/i.png',
      prerequisites: ['m0'],
    });
    expect(missionSchema.parse(toMissionInput(toFormValues(mission)))).toEqual(mission);
  });

  it('leaves text in a number field as text, so the schema names the field', () => {
    const values = toFormValues(missionSchema.parse({ id: 'a', title: 'A', criteria: { eventName: 'e', count: 1 }, reward: { kind: 'currency', currency: 'gems', amount: 5 } }));
    values.criteria.count = 'three';
    const result = missionSchema.safeParse(toMissionInput(values));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].path).toEqual(['criteria', 'count']);
  });
});

describe('describableMission', () => {
  it('reads the form as it is typed: the measure, streak, audience and prerequisites the preview words', () => {
    const form = emptyMissionForm();
    form.criteria = { ...form.criteria, eventName: 'gold_earned', count: '10000', window: 'daily', aggregate: { op: 'sum', field: 'gold', streak: true, length: '7', repeat: false } };
    form.audience = { platform: 'ios' };
    form.prerequisites = ['first-win'];
    const d = describeMission(describableMission(form), { titles: new Map([['first-win', 'Play 5 matches']]) });
    expect(d.measure).toBe('Collect 10,000 gold a day (sum of gold on gold_earned), 7 days in a row');
    expect(d.audience).toBe('only players with platform = "ios"');
    expect(d.prerequisites).toBe('after ‘Play 5 matches’');
  });

  it('a count or length not typed yet reads as 1 or no streak; blanks as …', () => {
    const form = emptyMissionForm();
    form.criteria = { ...form.criteria, count: '', aggregate: { op: 'distinct', field: ' ', streak: true, length: 'x', repeat: false } };
    expect(describeMission(describableMission(form)).measure).toBe('1 different … (distinct … on …)');
  });
});
