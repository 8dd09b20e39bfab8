import { describe, expect, it } from 'vitest';
import { isDeadlock } from './errors';

describe('isDeadlock', () => {
  it('finds SQLSTATE 40P01 on the error or along its cause chain (drizzle wraps the driver error), and nothing else', () => {
    const pgError = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    expect(isDeadlock(pgError)).toBe(true);
    expect(isDeadlock(new Error('Failed query: insert …', { cause: pgError }))).toBe(true);
    expect(isDeadlock(Object.assign(new Error('could not serialize access'), { code: '40001' }))).toBe(false);
    expect(isDeadlock(new Error('Failed query', { cause: new Error('connection terminated') }))).toBe(false);
    expect(isDeadlock(undefined)).toBe(false);
    expect(isDeadlock('40P01')).toBe(false);
  });
});
