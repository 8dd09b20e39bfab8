import { describe, it, expect } from 'vitest';
import { nextWindowStart, windowStart } from './windows';
import type { MissionWindow } from './schema';

const utc = (y: number, m: number, d: number, h = 0, min = 0, s = 0, ms = 0) => Date.UTC(y, m - 1, d, h, min, s, ms);
const lastMs = (y: number, m: number, d: number) => utc(y, m, d, 23, 59, 59, 999);

describe('windowStart lifetime', () => {
  it('is 0 for every timestamp (one bucket forever)', () => {
    for (const t of [0, 1, utc(2024, 6, 15, 12), Number.MAX_SAFE_INTEGER]) {
      expect(windowStart('lifetime', t)).toBe(0);
    }
  });
});

describe('windowStart daily (UTC days)', () => {
  it('maps 00:00:00.000 UTC to itself', () => {
    expect(windowStart('daily', utc(2024, 3, 10))).toBe(utc(2024, 3, 10));
  });
  it('keeps the last millisecond of a day (23:59:59.999) in that day', () => {
    expect(windowStart('daily', lastMs(2024, 3, 10))).toBe(utc(2024, 3, 10));
  });
  it('moves the next millisecond into the next day', () => {
    expect(windowStart('daily', lastMs(2024, 3, 10) + 1)).toBe(utc(2024, 3, 11));
  });
  it('uses UTC, not local time', () => {
    expect(windowStart('daily', utc(2024, 3, 10, 23, 30))).toBe(utc(2024, 3, 10));
  });
  it('floors pre-1970 timestamps into their own day', () => {
    expect(windowStart('daily', -1)).toBe(-86_400_000);
  });
});

describe('windowStart weekly (ISO weeks, Monday 00:00 UTC)', () => {
  // 2024-03-04 is a Monday, 2024-03-10 a Sunday.
  it('maps Monday 00:00:00.000 to itself', () => {
    expect(windowStart('weekly', utc(2024, 3, 4))).toBe(utc(2024, 3, 4));
  });
  it('keeps Sunday 23:59:59.999 in the week that started the previous Monday', () => {
    expect(windowStart('weekly', lastMs(2024, 3, 10))).toBe(utc(2024, 3, 4));
  });
  it('starts a new week at the next Monday 00:00:00.000', () => {
    expect(windowStart('weekly', lastMs(2024, 3, 10) + 1)).toBe(utc(2024, 3, 11));
  });
  it('maps every day Monday..Sunday to the same Monday', () => {
    for (let d = 4; d <= 10; d++) expect(windowStart('weekly', utc(2024, 3, d, 12))).toBe(utc(2024, 3, 4));
  });
  it('crosses a year boundary (Wed 2025-01-01 is in the week of Mon 2024-12-30)', () => {
    expect(windowStart('weekly', utc(2025, 1, 1, 8))).toBe(utc(2024, 12, 30));
  });
  it('handles the epoch (Thu 1970-01-01 is in the week of Mon 1969-12-29)', () => {
    expect(windowStart('weekly', 0)).toBe(utc(1969, 12, 29));
  });
});

describe('windowStart monthly (1st of the month 00:00 UTC)', () => {
  it('maps the 1st at 00:00:00.000 to itself', () => {
    expect(windowStart('monthly', utc(2024, 5, 1))).toBe(utc(2024, 5, 1));
  });
  it('keeps 29 February of a leap year (last ms) in February', () => {
    expect(windowStart('monthly', lastMs(2024, 2, 29))).toBe(utc(2024, 2, 1));
    expect(windowStart('monthly', lastMs(2024, 2, 29) + 1)).toBe(utc(2024, 3, 1));
  });
  it('ends February of a common year on the 28th', () => {
    expect(windowStart('monthly', lastMs(2023, 2, 28))).toBe(utc(2023, 2, 1));
    expect(windowStart('monthly', lastMs(2023, 2, 28) + 1)).toBe(utc(2023, 3, 1));
  });
  it('moves from 31 December 23:59:59.999 to 1 January of the next year', () => {
    expect(windowStart('monthly', lastMs(2024, 12, 31))).toBe(utc(2024, 12, 1));
    expect(windowStart('monthly', lastMs(2024, 12, 31) + 1)).toBe(utc(2025, 1, 1));
  });
});

describe('nextWindowStart', () => {
  it('is Infinity for lifetime (the bucket never ends)', () => {
    expect(nextWindowStart('lifetime', 0)).toBe(Infinity);
  });
  it('is the next midnight for daily', () => {
    expect(nextWindowStart('daily', utc(2024, 3, 10))).toBe(utc(2024, 3, 11));
  });
  it('is the next Monday for weekly', () => {
    expect(nextWindowStart('weekly', utc(2024, 3, 4))).toBe(utc(2024, 3, 11));
  });
  it('follows month lengths for monthly (leap February, December → January)', () => {
    expect(nextWindowStart('monthly', utc(2024, 2, 1))).toBe(utc(2024, 3, 1));
    expect(nextWindowStart('monthly', utc(2023, 2, 1))).toBe(utc(2023, 3, 1));
    expect(nextWindowStart('monthly', utc(2024, 12, 1))).toBe(utc(2025, 1, 1));
  });
  it('takes the bucket containing a non-aligned input', () => {
    expect(nextWindowStart('daily', utc(2024, 3, 10, 15))).toBe(utc(2024, 3, 11));
  });
});

describe('bucket invariants over two years of timestamps', () => {
  const windows: MissionWindow[] = ['daily', 'weekly', 'monthly'];
  it('start <= t < next start, and the start is its own bucket', () => {
    const step = 7 * 3_600_000 + 13 * 60_000 + 17; // irregular step hits many hours and days
    for (let t = utc(2023, 1, 1); t < utc(2025, 1, 1); t += step) {
      for (const w of windows) {
        const start = windowStart(w, t);
        expect(start).toBeLessThanOrEqual(t);
        expect(t).toBeLessThan(nextWindowStart(w, start));
        expect(windowStart(w, start)).toBe(start);
        expect(windowStart(w, start - 1)).toBeLessThan(start);
      }
    }
  });
});
