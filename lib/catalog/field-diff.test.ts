import { describe, expect, it } from 'vitest';
import { fieldDiffs } from './field-diff';

describe('fieldDiffs', () => {
  it('names each changed leaf by its path; a reward is one value', () => {
    const a = { id: 'm', title: 'Play 5', criteria: { eventName: 'play', count: 5, window: 'lifetime' }, reward: { kind: 'currency', currency: 'coins', amount: 100 }, iconUrl: null };
    const b = { ...a, criteria: { ...a.criteria, count: 3 }, reward: { kind: 'currency', currency: 'coins', amount: 10_000 }, iconUrl: 'https://x/y.png' };
    expect(fieldDiffs(a, b)).toEqual([
      { path: 'criteria.count', before: 5, after: 3 },
      { path: 'iconUrl', before: null, after: 'https://x/y.png' },
      { path: 'reward', before: a.reward, after: b.reward },
    ]);
    expect(fieldDiffs(a, { ...a })).toEqual([]);
  });

  it('compares a campaign budget per currency (added, lowered, removed); leaves the derived missionIds out', () => {
    const a = { id: 'c', title: 'C', missionIds: ['x'], budget: [{ currency: 'gems', amount: 500 }, { currency: 'coins', amount: 10 }] };
    const b = { id: 'c', title: 'C', missionIds: ['x', 'y'], budget: [{ currency: 'gems', amount: 50 }, { currency: 'stars', amount: 5 }] };
    expect(fieldDiffs(a, b)).toEqual([
      { path: 'budget.coins', before: 10, after: null },
      { path: 'budget.gems', before: 500, after: 50 },
      { path: 'budget.stars', before: null, after: 5 },
    ]);
    expect(fieldDiffs({ id: 'c', title: 'C' }, { id: 'c', title: 'C', budget: [{ currency: 'gems', amount: 1 }] })).toEqual([{ path: 'budget.gems', before: null, after: 1 }]);
  });

  it('an added item lists every field against null; a removed one every field to null; key order does not matter', () => {
    expect(fieldDiffs(null, { id: 'n', title: 'New', criteria: { count: 1 } })).toEqual([
      { path: 'criteria.count', before: null, after: 1 },
      { path: 'title', before: null, after: 'New' },
    ]);
    expect(fieldDiffs({ id: 'n', title: 'Gone' }, null)).toEqual([{ path: 'title', before: 'Gone', after: null }]);
    expect(fieldDiffs({ id: 'n', audience: { a: 1, b: 2 } }, { id: 'n', audience: { b: 2, a: 1 } })).toEqual([]);
  });

  it('walks any section item the same way (a currency definition of the economy)', () => {
    expect(fieldDiffs({ id: 'gems', name: 'Gems', maxBalance: 1000 }, { id: 'gems', name: 'Gems', maxBalance: 100 })).toEqual([{ path: 'maxBalance', before: 1000, after: 100 }]);
  });
});
