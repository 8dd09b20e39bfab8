// How far an event's `timestamp` may stray from the server's clock before it
// is refused (docs/api.md, "Event time"). The client's clock is trusted only
// within these bounds: a device a few minutes fast still gets in, an event
// dated next week (a farm of daily rewards) or in 1970 (seconds sent instead
// of milliseconds) does not. Inside them, the engine decides what a late
// event counts for (lib/missions/engine.ts, outside_current_window).
// Recording checks it (lib/events/recording.ts), whatever the event's way in.
import { AppError } from '@/lib/errors';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** An event at most this far ahead of the server's clock is accepted (device clocks run fast); further is refused. */
const MAX_FUTURE_SKEW_MS = 5 * MINUTE_MS;

/**
 * The oldest event accepted, by where it arrives: a game client's
 * POST /v1/events sends as it plays (24 h covers a device that queued events
 * offline overnight); a game backend's signed webhook (and a staff member's
 * test event) may deliver what it buffered during an outage of up to 7 days.
 */
export const MAX_EVENT_AGE_MS = { api: 24 * HOUR_MS, webhook: 7 * 24 * HOUR_MS, test: 7 * 24 * HOUR_MS } as const;

/** Below this a timestamp in ms is before March 1973, but read as seconds it is any date up to the year 5138. */
const SECONDS_LIKE_BELOW = 100_000_000_000;

function describeAge(ms: number): string {
  return ms >= 48 * HOUR_MS && ms % (24 * HOUR_MS) === 0 ? `${ms / (24 * HOUR_MS)} days` : `${ms / HOUR_MS} hours`;
}

/**
 * Why an event at `timestamp` is refused at `now` (the server's clock), or
 * null when it is within the bounds. The sentence, naming the field
 * (`timestamp: …`), is the error message the client sees.
 */
function eventTimeProblem(timestamp: number, now: number, source: keyof typeof MAX_EVENT_AGE_MS): string | null {
  if (timestamp > 0 && timestamp < SECONDS_LIKE_BELOW) {
    return `timestamp: ${timestamp} looks like Unix seconds: send Unix milliseconds (e.g. ${timestamp * 1000})`;
  }
  if (timestamp > now + MAX_FUTURE_SKEW_MS) {
    return `timestamp: ${new Date(timestamp).toISOString()} is more than 5 minutes ahead of the server clock (${new Date(now).toISOString()}); send the time of the event in Unix milliseconds`;
  }
  const maxAge = MAX_EVENT_AGE_MS[source];
  if (timestamp < now - maxAge) {
    return `timestamp: ${new Date(timestamp).toISOString()} is more than ${describeAge(maxAge)} before the server clock (${new Date(now).toISOString()}); events are accepted up to ${describeAge(maxAge)} late (Unix milliseconds)`;
  }
  return null;
}

/**
 * Refuses an event out of bounds: 400 `invalid_event` on POST /v1/events,
 * `validation_error` for a webhook delivery or a test event; the message is
 * the sentence of eventTimeProblem, after `at` (a batch's `events[i].`).
 */
export function checkEventTime(timestamp: number, now: number, source: keyof typeof MAX_EVENT_AGE_MS, at = ''): void {
  const problem = eventTimeProblem(timestamp, now, source);
  if (problem) throw new AppError(source === 'api' ? 'invalid_event' : 'validation_error', at + problem);
}
