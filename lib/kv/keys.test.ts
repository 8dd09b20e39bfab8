import { describe, expect, it } from 'vitest';
import { kvKey } from './keys';

describe('kvKey', () => {
  it('keeps parts apart: a separator inside a part cannot shift the boundary', () => {
    expect(kvKey('idem', 'a', 'b:c', 'd')).not.toBe(kvKey('idem', 'a:b', 'c', 'd'));
    expect(kvKey('idem', 'a', 'b', 'c:d')).not.toBe(kvKey('idem', 'a', 'b:c', 'd'));
    expect(kvKey('idem', 'a', 'b', 'c')).toBe('idem:a:b:c');
  });
});
