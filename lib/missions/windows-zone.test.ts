// Windows in a user's own time zone (the `timezone` attribute): calendar
// buckets by Intl, daylight-saving days included.
import { describe, expect, it } from 'vitest';
import { bucketLabel, canonicalTimeZone, nextWindowStart, windowStart } from './windows';

const utc = (y: number, m: number, d: number, h = 0, min = 0) => Date.UTC(y, m - 1, d, h, min);
const H = 3_600_000;

describe('Europe/Berlin across daylight saving', () => {
  const z = 'Europe/Berlin';
  it('spring forward (29 Mar 2026) is one day of 23 hours', () => {
    const start = windowStart('daily', utc(2026, 3, 29, 12), z);
    expect(start).toBe(utc(2026, 3, 28, 23)); // 00:00 CET = 23:00 UTC the day before
    const next = nextWindowStart('daily', start, z);
    expect(next).toBe(utc(2026, 3, 29, 22)); // 00:00 CEST = 22:00 UTC
    expect(next - start).toBe(23 * H);
    // 01:59 and 03:00 local (either side of the skipped hour) are the same day.
    expect(windowStart('daily', utc(2026, 3, 29, 0, 59), z)).toBe(start);
    expect(windowStart('daily', utc(2026, 3, 29, 1, 0), z)).toBe(start);
    expect(windowStart('daily', next - 1, z)).toBe(start);
    expect(windowStart('daily', next, z)).toBe(next);
  });
  it('fall back (25 Oct 2026) is one day of 25 hours', () => {
    const start = windowStart('daily', utc(2026, 10, 25, 12), z);
    expect(start).toBe(utc(2026, 10, 24, 22));
    const next = nextWindowStart('daily', start, z);
    expect(next).toBe(utc(2026, 10, 25, 23));
    expect(next - start).toBe(25 * H);
    // Both 02:30 local times (CEST then CET) are in the same day.
    expect(windowStart('daily', utc(2026, 10, 25, 0, 30), z)).toBe(start);
    expect(windowStart('daily', utc(2026, 10, 25, 1, 30), z)).toBe(start);
  });
  it('names the bucket in the zone', () => {
    expect(bucketLabel('daily', windowStart('daily', utc(2026, 11, 26, 23, 30), z), z)).toBe('27 Nov 2026');
    expect(bucketLabel('daily', windowStart('daily', utc(2026, 11, 26, 23, 30)), 'UTC')).toBe('26 Nov 2026');
  });
});

describe('America/New_York across daylight saving', () => {
  const z = 'America/New_York';
  it('spring forward (8 Mar 2026): 23 hours, 05:00 UTC to 04:00 UTC', () => {
    const start = windowStart('daily', utc(2026, 3, 8, 15), z);
    expect(start).toBe(utc(2026, 3, 8, 5));
    expect(nextWindowStart('daily', start, z)).toBe(utc(2026, 3, 9, 4));
  });
  it('fall back (1 Nov 2026): 25 hours, 04:00 UTC to 05:00 UTC', () => {
    const start = windowStart('daily', utc(2026, 11, 1, 15), z);
    expect(start).toBe(utc(2026, 11, 1, 4));
    expect(nextWindowStart('daily', start, z)).toBe(utc(2026, 11, 2, 5));
    expect(windowStart('daily', utc(2026, 11, 2, 4, 59), z)).toBe(start); // 23:59 EST on 1 Nov
  });
  it('a weekly window across the spring change is 7 days minus an hour', () => {
    const start = windowStart('weekly', utc(2026, 3, 8, 15), z); // Sunday 8 Mar: week of Monday 2 Mar
    expect(start).toBe(utc(2026, 3, 2, 5));
    expect(nextWindowStart('weekly', start, z)).toBe(utc(2026, 3, 9, 4));
  });
});

describe('Asia/Tokyo (UTC+9, no daylight saving)', () => {
  const z = 'Asia/Tokyo';
  it('midnight in Tokyo is 15:00 UTC the day before', () => {
    expect(windowStart('daily', utc(2026, 11, 26, 14, 59), z)).toBe(utc(2026, 11, 25, 15));
    expect(windowStart('daily', utc(2026, 11, 26, 15, 0), z)).toBe(utc(2026, 11, 26, 15));
    expect(nextWindowStart('daily', utc(2026, 11, 25, 15), z)).toBe(utc(2026, 11, 26, 15));
  });
  it('weeks start on Monday 00:00 Tokyo time', () => {
    // Sunday 29 Nov 2026 20:00 UTC is Monday 30 Nov 05:00 in Tokyo.
    expect(windowStart('weekly', utc(2026, 11, 29, 20), z)).toBe(utc(2026, 11, 29, 15));
    expect(windowStart('weekly', utc(2026, 11, 29, 14), z)).toBe(utc(2026, 11, 22, 15));
  });
  it('months start on the 1st, Tokyo time, and a year rolls over', () => {
    expect(windowStart('monthly', utc(2026, 12, 31, 15, 30), z)).toBe(utc(2026, 12, 31, 15)); // 1 Jan 2027 00:30 JST
    expect(windowStart('monthly', utc(2026, 12, 31, 14, 30), z)).toBe(utc(2026, 11, 30, 15));
    expect(nextWindowStart('monthly', utc(2026, 11, 30, 15), z)).toBe(utc(2026, 12, 31, 15));
  });
});

describe('zones whose day does not start at 00:00', () => {
  it('America/Santiago skips midnight in spring: the day starts at 01:00 local', () => {
    // 6 Sep 2026: clocks jump from 00:00 to 01:00 (UTC-4 → UTC-3).
    const z = 'America/Santiago';
    const start = windowStart('daily', utc(2026, 9, 6, 15), z);
    expect(start).toBe(utc(2026, 9, 6, 4));
    expect(windowStart('daily', start - 1, z)).toBe(utc(2026, 9, 5, 4));
    expect(nextWindowStart('daily', start, z)).toBe(utc(2026, 9, 7, 3));
  });
});

describe('canonicalTimeZone', () => {
  it('accepts IANA names (canonical case) and refuses the rest', () => {
    expect(canonicalTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('asia/tokyo')).toBe('Asia/Tokyo');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    for (const bad of ['', 'Mars/Olympus', '+01:00', 'Europe/Berlin ', 'x'.repeat(80)]) expect(canonicalTimeZone(bad)).toBeNull();
  });
});

describe('the UTC default is unchanged', () => {
  it('UTC zone and no zone agree on every window', () => {
    for (const t of [utc(2026, 3, 29, 1), utc(2026, 12, 31, 23, 59), -1, 0]) {
      for (const w of ['daily', 'weekly', 'monthly'] as const) {
        expect(windowStart(w, t, 'UTC')).toBe(windowStart(w, t));
        expect(nextWindowStart(w, t, 'UTC')).toBe(nextWindowStart(w, t));
      }
    }
  });
});
