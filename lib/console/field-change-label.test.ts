import { describe, expect, it } from 'vitest';
import { fieldChangeText } from './field-change-label';

const time = (ms: number) => `t${ms}`;

describe('fieldChangeText', () => {
  it('reads a reward, a count, a budget, a time and an unset value as staff say them', () => {
    expect(fieldChangeText({ path: 'reward', before: { kind: 'currency', currency: 'coins', amount: 100 }, after: { kind: 'currency', currency: 'coins', amount: 10_000 } }, time)).toBe('Reward: 100 coins → 10,000 coins');
    expect(fieldChangeText({ path: 'criteria.count', before: 5, after: 3 }, time)).toBe('Target count: 5 → 3');
    expect(fieldChangeText({ path: 'budget.gems', before: null, after: 50 }, time)).toBe('Budget (gems): — → 50');
    expect(fieldChangeText({ path: 'endAt', before: 1, after: 2 }, time)).toBe('Ends: t1 → t2');
    expect(fieldChangeText({ path: 'reward', before: { kind: 'badge', badgeId: 'winter' }, after: { kind: 'item', itemId: 'sword', quantity: 2 } }, time)).toBe('Reward: winter badge → 2 × sword');
    expect(fieldChangeText({ path: 'criteria.aggregate.field', before: 'score', after: 'points' }, time)).toBe('Criteria › aggregate › field: score → points');
  });
});
