// Calendar buckets of a mission's counting window (docs/api.md, "Mission
// rules"): days, ISO weeks (Monday first) and calendar months, in UTC or in
// the user's own IANA time zone (the reserved `timezone` attribute). Pure:
// every time is a parameter, so the same event always lands in the same
// bucket. Zones use Intl only: a bucket starts at the first instant of its
// local calendar day, so a daylight-saving day of 23 or 25 hours is one day.
import { UTC_ZONE } from '@/lib/contract/attributes';
import type { MissionWindow } from './schema';

export { UTC_ZONE };

const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

export { canonicalTimeZone } from '@/lib/contract/attributes';

interface LocalTime {
  y: number;
  m: number; // 0-based month
  d: number;
  /** Milliseconds the zone is ahead of UTC at that instant. */
  offset: number;
}

function localTime(zone: string, t: number): LocalTime {
  const parts: Record<string, number> = {};
  for (const p of formatterOf(zone).formatToParts(t)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const wallSeconds = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  // Whole seconds: Intl drops the milliseconds.
  const offset = wallSeconds - (t - (((t % 1000) + 1000) % 1000));
  return { y: parts.year, m: parts.month - 1, d: parts.day, offset };
}

/** The first instant (Unix ms) of the local calendar day y-m-d in `zone` (Date.UTC normalisation: d may overflow). */
function localDayStart(zone: string, y: number, m: number, d: number): number {
  const wallMidnight = Date.UTC(y, m, d);
  const day = new Date(wallMidnight);
  const target = { y: day.getUTCFullYear(), m: day.getUTCMonth(), d: day.getUTCDate() };
  // Two rounds settle the offset in force at local midnight.
  let t = wallMidnight - localTime(zone, wallMidnight).offset;
  t = wallMidnight - localTime(zone, t).offset;
  // A zone whose clocks skip midnight (the day starts at 01:00): the first instant
  // of the day is the transition, found by stepping forward from before it.
  const local = localTime(zone, t);
  if (local.y !== target.y || local.m !== target.m || local.d !== target.d) {
    const sameDay = (l: LocalTime) => l.y === target.y && l.m === target.m && l.d === target.d;
    let lo = t - 2 * 3_600_000;
    let hi = t + 3 * 3_600_000;
    while (!sameDay(localTime(zone, hi))) hi += 3_600_000;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      const l = localTime(zone, mid);
      if (sameDay(l) || Date.UTC(l.y, l.m, l.d) > wallMidnight) hi = mid;
      else lo = mid;
    }
    t = hi;
  }
  return t;
}

function isUtc(zone: string): boolean {
  return zone === UTC_ZONE;
}

interface Bucket {
  start: number;
  /** The next bucket's start. */
  end: number;
}

// The last bucket computed per (window, zone): Intl's formatToParts costs
// microseconds a call and a zoned bucket takes several, while the events of
// one zone mostly fall in the bucket just computed (a zoned player's event
// cost ~160 µs in the engine before this cache). Bounded: cleared when full.
const lastBuckets = new Map<string, Bucket>();
const MAX_CACHED_BUCKETS = 2_000;

/** The bucket of `window` (not lifetime) in the non-UTC `zone` that contains `t`. */
function zonedBucket(window: Exclude<MissionWindow, 'lifetime'>, t: number, zone: string): Bucket {
  const key = `${window}|${zone}`;
  const last = lastBuckets.get(key);
  if (last && last.start <= t && t < last.end) return last;
  const { y, m, d } = localTime(zone, t);
  let bucket: Bucket;
  switch (window) {
    case 'daily':
      bucket = { start: localDayStart(zone, y, m, d), end: localDayStart(zone, y, m, d + 1) };
      break;
    case 'weekly': {
      const monday = d - ((new Date(Date.UTC(y, m, d)).getUTCDay() + 6) % 7);
      bucket = { start: localDayStart(zone, y, m, monday), end: localDayStart(zone, y, m, monday + 7) };
      break;
    }
    case 'monthly':
      bucket = { start: localDayStart(zone, y, m, 1), end: localDayStart(zone, y, m + 1, 1) };
      break;
    default:
      return assertNever(window);
  }
  if (lastBuckets.size >= MAX_CACHED_BUCKETS) lastBuckets.clear();
  lastBuckets.set(key, bucket);
  return bucket;
}

/** Start (Unix ms) of the bucket of `window` in `zone` (default UTC) that contains `timestampMs`; 0 for lifetime. */
export function windowStart(window: MissionWindow, timestampMs: number, zone: string = UTC_ZONE): number {
  if (window === 'lifetime') return 0;
  if (isUtc(zone)) return utcWindowStart(window, timestampMs);
  return zonedBucket(window, timestampMs, zone).start;
}

function utcWindowStart(window: MissionWindow, timestampMs: number): number {
  switch (window) {
    case 'lifetime':
      return 0;
    case 'daily':
      // Math.floor (not truncation) keeps pre-1970 timestamps in the right day.
      return Math.floor(timestampMs / DAY_MS) * DAY_MS;
    case 'weekly': {
      const dayStart = utcWindowStart('daily', timestampMs);
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
 * start itself), in `zone` (default UTC); Infinity for lifetime, which never ends.
 */
export function nextWindowStart(window: MissionWindow, start: number, zone: string = UTC_ZONE): number {
  if (window === 'lifetime') return Infinity;
  const current = windowStart(window, start, zone);
  if (isUtc(zone)) {
    switch (window) {
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
  return zonedBucket(window, current, zone).end;
}

/**
 * The start, in `toZone`, of the calendar period (day, week, month) after the
 * one of `window` that contains `start` in `fromZone`: the 28th after a 27th,
 * wherever the 27th was counted. After a zone change this is when the new
 * zone's calendar reaches the period after a record's own (docs/api.md,
 * "What a zone change does"). In one zone it is nextWindowStart.
 */
export function nextPeriodStart(window: MissionWindow, start: number, fromZone: string, toZone: string): number {
  if (fromZone === toZone) return nextWindowStart(window, start, toZone);
  if (window === 'lifetime') return Infinity;
  const { y, m, d } = localTime(fromZone, windowStart(window, start, fromZone));
  const [ny, nm, nd] = window === 'daily' ? [y, m, d + 1] : window === 'weekly' ? [y, m, d + 7] : [y, m + 1, 1];
  return isUtc(toZone) ? Date.UTC(ny, nm, nd) : localDayStart(toZone, ny, nm, nd);
}

/** What a record whose window is bucketed in `zone` keeps of it (progress.state.zone): nothing for UTC and lifetime. */
export function zoneStamp(window: MissionWindow, zone: string): { zone: string } | undefined {
  return isUtc(zone) || window === 'lifetime' ? undefined : { zone };
}

/** "27 Nov" (daily), "week of 23 Nov" (weekly), "Nov 2026" (monthly) of the bucket starting at `start` in `zone`, for verdicts. */
export function bucketLabel(window: MissionWindow, start: number, zone: string = UTC_ZONE): string {
  if (window === 'lifetime') return 'lifetime';
  const { y, m, d } = localTime(zone, start);
  const date = new Date(Date.UTC(y, m, d));
  const day = date.toLocaleDateString('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short' });
  if (window === 'daily') return `${day} ${y}`;
  if (window === 'weekly') return `week of ${day} ${y}`;
  return date.toLocaleDateString('en-GB', { timeZone: 'UTC', month: 'short', year: 'numeric' });
}

function assertNever(value: never): never {
  throw new Error(`unknown mission window: ${String(value)}`);
}
