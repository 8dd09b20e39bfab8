import { describe, expect, it } from 'vitest';
import { slugOf } from './slug';

describe('slugOf', () => {
  it('turns a title into a lower-case, dash-separated id of at most 64 characters', () => {
    expect(slugOf('Summer Sale!')).toBe('summer-sale');
    expect(slugOf('  --Win 3 Ranked   matches--  ')).toBe('win-3-ranked-matches');
    expect(slugOf('x'.repeat(80))).toHaveLength(64);
    expect(slugOf('!!!')).toBe('');
  });
});
