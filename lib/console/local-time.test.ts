import { describe, expect, it } from 'vitest';
import { fromLocalInput, toLocalInput } from './local-time';

describe('datetime-local values', () => {
  it('a time written in the reader’s zone reads back as the same minute', () => {
    const ms = new Date(2026, 10, 24, 9, 5).getTime();
    expect(toLocalInput(ms)).toBe('2026-11-24T09:05');
    expect(fromLocalInput(toLocalInput(ms))).toBe(ms);
  });

  it('no time is an empty field, and an empty field is no time', () => {
    expect(toLocalInput(null)).toBe('');
    expect(toLocalInput(undefined)).toBe('');
    expect(toLocalInput(Number.NaN)).toBe('');
    expect(fromLocalInput('  ')).toBeNull();
  });

  it('text that is not a time reads as NaN, so the schema names the field', () => {
    expect(fromLocalInput('next tuesday')).toBeNaN();
  });
});
