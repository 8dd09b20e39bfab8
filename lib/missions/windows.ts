// Calendar buckets of a mission's counting window (docs/api.md, "Mission
// rules"): UTC days, ISO weeks (Monday first) and calendar months. Pure: every
// time is a parameter, so the same event always lands in the same bucket.
import type { MissionWindow } from './schema';

const DAY_MS = 86_400_000;

/** Start (Unix ms, UTC) of the bucket of `window` that contains `timestampMs`; 0 for lifetime. */
export function windowStart(window: MissionWindow, timestampMs: number): number {
  switch (window) {
    case 'lifetime':
      return 0;
    case 'daily':
      // Math.floor (not truncation) keeps pre-1970 timestamps in the right day.
      return Math.floor(timestampMs / DAY_MS) * DAY_MS;
    case 'weekly': {
      const dayStart = windowStart('daily', timestampMs);
      // getUTCDay: 0 = Sunday … 6 = Saturday; days since Monday in ISO terms.
      const daysSinceMonday = (new Date(dayStart).getUTCDay() + 6) % 7;
      return dayStart - daysSinceMonday * DAY_MS;
    }
    case 'monthly': {
      const d = new Date(timestampMs);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    }
    default:
      return assertNever(window);
  }
}

/**
 * Start of the bucket after the one containing `start` (normally a bucket
 * start itself); Infinity for lifetime, which never ends.
 */
export function nextWindowStart(window: MissionWindow, start: number): number {
  const current = windowStart(window, start);
  switch (window) {
    case 'lifetime':
      return Infinity;
    case 'daily':
      return current + DAY_MS;
    case 'weekly':
      return current + 7 * DAY_MS;
    case 'monthly': {
      const d = new Date(current);
      // Date.UTC rolls month 12 over into January of the next year.
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    }
    default:
      return assertNever(window);
  }
}

function assertNever(value: never): never {
  throw new Error(`unknown mission window: ${String(value)}`);
}
