// The service's one clock for every decision about time: the event time
// bounds, mission windows (and what later issues add: streaks, schedules),
// claims, the missions and campaigns a user sees. It is the system clock,
// plus an offset that only a server started with QUESTLINE_TEST_CLOCK=1 lets
// a test set (PUT /api/admin/test-clock, lib/http/admin/test-clock.ts), so a
// test can move "today" instead of waiting days. Caches, rate limits, token
// expiry and request timing keep the real clock.
// The offset is process-wide (lib/process-wide.ts): Next.js bundles route handlers
// into separate chunks, each with its own copy of this module. It is per process: a test
// that moves the clock talks to one server process.

import { processWide } from '@/lib/process-wide';

const offset = processWide('testClock', () => ({ ms: 0 }));

/** Now, in milliseconds since the epoch, as the service decides time. */
export function serviceNow(): number {
  return Date.now() + offset.ms;
}

/** Whether this process lets a test move the clock (QUESTLINE_TEST_CLOCK=1; never in a real deployment). */
export function testClockEnabled(): boolean {
  return process.env.QUESTLINE_TEST_CLOCK === '1';
}

/** Sets the service clock to `now` from this moment on (it keeps running), or back to the system clock with null. */
export function setTestClock(now: number | null): void {
  if (!testClockEnabled()) throw new Error('setTestClock needs QUESTLINE_TEST_CLOCK=1');
  offset.ms = now === null ? 0 : now - Date.now();
}
