import { describe, it, expect } from 'vitest';
import { matchesFilter, validateFilter } from './filter';
import type { MissionFilter } from './schema';

const rejects = (filter: unknown, ...fragments: string[]) => {
  const result = validateFilter(filter);
  expect(result.ok).toBe(false);
  if (!result.ok) for (const f of fragments) expect(result.message).toContain(f);
};

describe('validateFilter accepts', () => {
  it('literals of every kind as equality', () => {
    expect(validateFilter({ a: 'x', b: 1, c: true, d: null, 'e.f.g': -2.5 })).toEqual({ ok: true });
  });
  it('every operator with a valid operand', () => {
    expect(
      validateFilter({
        a: { eq: 'x' },
        b: { ne: null },
        c: { gt: 1, lt: 10 },
        d: { gte: 'a', lte: 'z' },
        e: { in: ['x', 1, true, null] },
        f: { nin: [] },
        g: { exists: false },
      }),
    ).toEqual({ ok: true });
  });
  it('an empty filter (no condition, matches every payload)', () => {
    expect(validateFilter({})).toEqual({ ok: true });
  });
});

describe('validateFilter rejects', () => {
  it('a filter that is not an object', () => {
    for (const f of [null, 'x', 1, ['a']]) rejects(f, 'filter must be an object');
  });
  it('an empty path', () => rejects({ '': 1 }, '""'));
  it('an empty segment (leading, trailing or double dot)', () => {
    for (const path of ['.a', 'a.', 'a..b']) rejects({ [path]: 1 }, `"${path}"`);
  });
  it('an unknown operator, naming the path and the operator', () => {
    rejects({ 'item.rarity': { regex: '^a' } }, '"item.rarity"', '"regex"');
  });
  it('a known operator mixed with an unknown one', () => {
    rejects({ level: { gte: 1, $lt: 5 } }, '"level"', '"$lt"');
  });
  it('an empty operator object', () => rejects({ level: {} }, '"level"', 'empty'));
  it('an array as a literal value', () => rejects({ tags: ['a'] }, '"tags"'));
  it('non-finite numbers', () => {
    rejects({ a: Number.NaN }, '"a"');
    rejects({ a: { gt: Infinity } }, '"a"', '"gt"');
  });
  it('eq / ne with an object or array operand', () => {
    rejects({ a: { eq: { b: 1 } } }, '"a"', '"eq"');
    rejects({ a: { ne: [1] } }, '"a"', '"ne"');
  });
  it('gt / gte / lt / lte with a non-number, non-string operand', () => {
    for (const op of ['gt', 'gte', 'lt', 'lte']) {
      rejects({ a: { [op]: true } }, '"a"', `"${op}"`);
      rejects({ a: { [op]: null } }, '"a"', `"${op}"`);
    }
  });
  it('in / nin with a non-array or with a non-literal element', () => {
    rejects({ a: { in: 'x' } }, '"a"', '"in"');
    rejects({ a: { nin: [{ b: 1 }] } }, '"a"', '"nin"');
    rejects({ a: { in: [[1]] } }, '"a"', '"in"');
  });
  it('exists with a non-boolean', () => {
    rejects({ a: { exists: 1 } }, '"a"', '"exists"');
    rejects({ a: { exists: 'true' } }, '"a"', '"exists"');
  });
});

describe('matchesFilter: literals and structure', () => {
  it('matches everything without a filter or with an empty one', () => {
    expect(matchesFilter(undefined, {})).toBe(true);
    expect(matchesFilter({}, { a: 1 })).toBe(true);
  });
  it('literal means strict equality (1 does not equal "1")', () => {
    expect(matchesFilter({ a: 1 }, { a: 1 })).toBe(true);
    expect(matchesFilter({ a: 1 }, { a: '1' })).toBe(false);
    expect(matchesFilter({ a: true }, { a: 1 })).toBe(false);
  });
  it('null literal matches null but not a missing field', () => {
    expect(matchesFilter({ a: null }, { a: null })).toBe(true);
    expect(matchesFilter({ a: null }, {})).toBe(false);
  });
  it('every key must match (AND)', () => {
    const f = { a: 1, b: 'x' };
    expect(matchesFilter(f, { a: 1, b: 'x' })).toBe(true);
    expect(matchesFilter(f, { a: 1, b: 'y' })).toBe(false);
  });
  it('several operators under one key must all match', () => {
    const f = { level: { gte: 5, lt: 10 } };
    expect(matchesFilter(f, { level: 5 })).toBe(true);
    expect(matchesFilter(f, { level: 10 })).toBe(false);
    expect(matchesFilter(f, { level: 4 })).toBe(false);
  });
  it('a dot path reads a nested field', () => {
    const f = { 'item.meta.rarity': 'epic' };
    expect(matchesFilter(f, { item: { meta: { rarity: 'epic' } } })).toBe(true);
    expect(matchesFilter(f, { item: { meta: { rarity: 'common' } } })).toBe(false);
  });
  it('a dot path does not walk into arrays (index segments are a missing field)', () => {
    expect(matchesFilter({ 'items.0': 'a' }, { items: ['a'] })).toBe(false);
    expect(matchesFilter({ 'items.0': { exists: false } }, { items: ['a'] })).toBe(true);
  });
  it('a dot path through a primitive or null is a missing field', () => {
    expect(matchesFilter({ 'a.b': { exists: false } }, { a: 'text' })).toBe(true);
    expect(matchesFilter({ 'a.b': { exists: false } }, { a: null })).toBe(true);
  });
  it('a top-level key containing a dot is not found (paths always split)', () => {
    expect(matchesFilter({ 'a.b': 1 }, { 'a.b': 1 })).toBe(false);
  });
  it('inherited properties are not fields (constructor, __proto__, toString)', () => {
    expect(matchesFilter({ constructor: { exists: true } }, {})).toBe(false);
    expect(matchesFilter({ 'a.toString': { exists: true } }, { a: {} })).toBe(false);
    expect(matchesFilter({ ['__proto__']: { exists: true } }, {})).toBe(false);
  });
  it('a payload object never equals a literal', () => {
    expect(matchesFilter({ a: { eq: 'x' } }, { a: { eq: 'x' } })).toBe(false);
  });
});

describe('matchesFilter: each operator, true and false', () => {
  const cases: Array<[string, MissionFilter, Record<string, unknown>, boolean]> = [
    ['eq equal', { a: { eq: 'x' } }, { a: 'x' }, true],
    ['eq different', { a: { eq: 'x' } }, { a: 'y' }, false],
    ['ne different', { a: { ne: 'x' } }, { a: 'y' }, true],
    ['ne equal', { a: { ne: 'x' } }, { a: 'x' }, false],
    ['gt above', { a: { gt: 5 } }, { a: 6 }, true],
    ['gt equal', { a: { gt: 5 } }, { a: 5 }, false],
    ['gte equal', { a: { gte: 5 } }, { a: 5 }, true],
    ['gte below', { a: { gte: 5 } }, { a: 4.999 }, false],
    ['lt below', { a: { lt: 5 } }, { a: 4 }, true],
    ['lt equal', { a: { lt: 5 } }, { a: 5 }, false],
    ['lte equal', { a: { lte: 5 } }, { a: 5 }, true],
    ['lte above', { a: { lte: 5 } }, { a: 6 }, false],
    ['gt on strings (code-unit order)', { a: { gt: 'b' } }, { a: 'c' }, true],
    ['lt on strings (code-unit order)', { a: { lt: 'b' } }, { a: 'c' }, false],
    ['gte string vs number operand', { a: { gte: 5 } }, { a: '10' }, false],
    ['lt number vs string operand', { a: { lt: 'z' } }, { a: 1 }, false],
    ['gt boolean payload', { a: { gt: 0 } }, { a: true }, false],
    ['lte null payload', { a: { lte: 0 } }, { a: null }, false],
    ['in member', { a: { in: ['x', 2] } }, { a: 2 }, true],
    ['in not member', { a: { in: ['x', 2] } }, { a: '2' }, false],
    ['in null member', { a: { in: [null] } }, { a: null }, true],
    ['in empty list', { a: { in: [] } }, { a: 1 }, false],
    ['nin not member', { a: { nin: ['x'] } }, { a: 'y' }, true],
    ['nin member', { a: { nin: ['x'] } }, { a: 'x' }, false],
    ['exists true present', { a: { exists: true } }, { a: 0 }, true],
    ['exists true on null (null is present)', { a: { exists: true } }, { a: null }, true],
    ['exists false present', { a: { exists: false } }, { a: false }, false],
  ];
  for (const [name, filter, payload, expected] of cases) {
    it(`${name} → ${expected}`, () => expect(matchesFilter(filter, payload)).toBe(expected));
  }
});

describe('matchesFilter: a missing field', () => {
  const missing = {};
  it('fails literal equality, eq, in and every comparison', () => {
    for (const f of [{ a: 'x' }, { a: { eq: 'x' } }, { a: { in: ['x'] } }, { a: { gt: 0 } }, { a: { gte: 0 } }, { a: { lt: 0 } }, { a: { lte: 0 } }]) {
      expect(matchesFilter(f, missing)).toBe(false);
    }
  });
  it('matches ne and nin (missing is not equal to any literal)', () => {
    expect(matchesFilter({ a: { ne: 'x' } }, missing)).toBe(true);
    expect(matchesFilter({ a: { ne: null } }, missing)).toBe(true);
    expect(matchesFilter({ a: { nin: ['x', null] } }, missing)).toBe(true);
  });
  it('matches exists:false and fails exists:true', () => {
    expect(matchesFilter({ a: { exists: false } }, missing)).toBe(true);
    expect(matchesFilter({ a: { exists: true } }, missing)).toBe(false);
  });
  it('treats an explicit undefined as missing', () => {
    expect(matchesFilter({ a: { exists: true } }, { a: undefined })).toBe(false);
  });
  it('applies to a missing nested field', () => {
    expect(matchesFilter({ 'item.rarity': 'epic' }, { item: {} })).toBe(false);
    expect(matchesFilter({ 'item.rarity': { exists: false } }, {})).toBe(true);
  });
});

describe('matchesFilter never throws at ingestion (unvalidated filters fail closed)', () => {
  it('an unknown operator does not match', () => {
    expect(matchesFilter({ a: { regex: '.*' } }, { a: 'x' })).toBe(false);
  });
  it('an operand of the wrong type does not match', () => {
    expect(matchesFilter({ a: { in: 'x' } }, { a: 'x' })).toBe(false);
    expect(matchesFilter({ a: { nin: 'x' } }, { a: 'y' })).toBe(false);
    expect(matchesFilter({ a: { exists: 'yes' } }, { a: 'x' })).toBe(false);
    expect(matchesFilter({ a: { eq: { b: 1 } } }, { a: { b: 1 } })).toBe(false);
  });
  it('an empty operator object or an array condition does not match', () => {
    expect(matchesFilter({ a: {} }, { a: 1 })).toBe(false);
    expect(matchesFilter({ a: [1] }, { a: [1] })).toBe(false);
  });
  it('NaN in the payload compares false', () => {
    expect(matchesFilter({ a: { gte: 0 } }, { a: Number.NaN })).toBe(false);
  });
});
