import { describe, expect, it } from 'vitest';
import { missionSchema } from '@/lib/contract/mission';
import { emptyMissionForm, toFormValues, toMissionInput } from './mission-form';

const base = { id: 'm', title: 'M', reward: { kind: 'badge', badgeId: 'b' } };

describe('the mission form: aggregate and streak', () => {
  it('a plain count mission round-trips without aggregate or streak (as the API stores it)', () => {
    const m = missionSchema.parse({ ...base, criteria: { eventName: 'e', count: 2 } });
    expect(toMissionInput(toFormValues(m)).criteria).toEqual({ eventName: 'e', count: 2, window: 'lifetime' });
  });

  it('a sum with a repeating weekly streak and a distinct mission round-trip', () => {
    for (const criteria of [
      { eventName: 'gold', count: 1000, window: 'weekly' as const, aggregate: { op: 'sum' as const, field: 'loot.gold' }, streak: { length: 4, repeat: true } },
      { eventName: 'match', count: 3, window: 'daily' as const, aggregate: { op: 'distinct' as const, field: 'mode' }, streak: { length: 7 } },
    ]) {
      const m = missionSchema.parse({ ...base, criteria });
      expect(toMissionInput(toFormValues(m)).criteria).toEqual(criteria);
    }
  });

  it('what people type: a blank field and a length that is not a number fail the schema at their paths', () => {
    const v = emptyMissionForm();
    v.id = 'm';
    v.title = 'M';
    v.criteria.eventName = 'e';
    v.criteria.aggregate = { op: 'sum', field: ' ', streak: true, length: 'x', repeat: false };
    const r = missionSchema.safeParse(toMissionInput(v));
    const paths = r.error?.issues.map((i) => i.path.join('.'));
    expect(paths).toContain('criteria.aggregate.field');
    expect(paths).toContain('criteria.streak.length');
  });
});
