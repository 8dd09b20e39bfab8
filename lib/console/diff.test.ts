// The audit log's diff: one row per leaf path, marked by what happened to it.
import { describe, expect, it } from 'vitest';
import { diffRows } from './diff';

describe('diffRows', () => {
  it('marks changed, added, removed and unchanged leaves, walking nested objects', () => {
    const rows = diffRows(
      { title: 'A', criteria: { count: 3, filter: { mode: 'ranked' } }, prerequisites: ['m0'], gone: 1 },
      { title: 'B', criteria: { count: 3, filter: { mode: 'ranked', level: { gte: 3 } } }, prerequisites: ['m0', 'm1'] },
    );
    const byPath = Object.fromEntries(rows.map((r) => [r.path, r]));
    expect(byPath.title).toEqual({ path: 'title', kind: 'changed', before: 'A', after: 'B' });
    expect(byPath['criteria.count'].kind).toBe('unchanged');
    expect(byPath['criteria.filter.level.gte']).toEqual({ path: 'criteria.filter.level.gte', kind: 'added', after: 3 });
    expect(byPath.prerequisites).toMatchObject({ kind: 'changed', before: ['m0'], after: ['m0', 'm1'] });
    expect(byPath.gone).toEqual({ path: 'gone', kind: 'removed', before: 1 });
  });

  it('a creation is all additions; a removal all removals', () => {
    expect(diffRows(null, { a: 1, b: { c: 2 } }).map((r) => r.kind)).toEqual(['added', 'added']);
    expect(diffRows({ a: 1 }, null)).toEqual([{ path: 'a', kind: 'removed', before: 1 }]);
  });
});
