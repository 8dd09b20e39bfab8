// Test support: keeping a burst of requests inside one fixed window of the
// rate limiters (not a test file).
//
// The limiters are sliding windows over fixed 60 s windows (lib/ratelimit):
// once a burst crosses a window boundary, the previous window counts with a
// weight just under 1, floored, so `RateLimit-Remaining` is one more than the
// burst's own count and the 429 comes one request late. A test asserting exact
// counts must finish its burst inside the window it started in. How long a
// burst takes depends on the machine: on the shared 2-core machine with
// several suites and builds beside it (load average 15-25), a request that
// takes 20 ms alone took up to 1-2 s, so `neededMs` is generous.
// Waiting for the next window costs up to `neededMs` of real time per burst
// (webhook-limits.test.ts took 103 s, most of it such waits): a server in the
// test's own process skips ahead instead (freshWindowInProcess); a server in
// another process (two-instances, scripts/start.test.ts) still waits
// (awayFromWindowEdge).

/** When the current fixed window has less than `neededMs` left, waits for the next one to start. */
export async function awayFromWindowEdge(neededMs: number, windowMs = 60_000): Promise<void> {
  if (neededMs >= windowMs) throw new RangeError(`a burst needing ${neededMs} ms cannot fit a ${windowMs} ms window`);
  const left = windowMs - (Date.now() % windowMs);
  if (left < neededMs) await new Promise((r) => setTimeout(r, left + 50));
}

/**
 * For a server in this process (lib/testing/test-server.ts): when the current
 * fixed window has less than `neededMs` left, moves this process's `Date.now`
 * (which the limiters, the service clock, tokens and the test all read) forward
 * to just after the next window's start instead of waiting up to a minute for
 * it. The clock then keeps running at the real pace, shifted; it is never moved
 * back, so ids, logs and windows stay in order for the rest of the file. The
 * next file of a worker of the `shared` project (vitest.config.mts) finds the
 * real clock again (lib/testing/fresh-env.ts). Only `Date.now` moves: code
 * that reads `new Date()` (jose's expiry check) keeps the real time. Not for
 * a server in another process.
 */
export function freshWindowInProcess(neededMs: number, windowMs = 60_000): void {
  if (neededMs >= windowMs) throw new RangeError(`a burst needing ${neededMs} ms cannot fit a ${windowMs} ms window`);
  const left = windowMs - (Date.now() % windowMs);
  if (left >= neededMs) return;
  advanceClockInProcess(left + 50);
}

/**
 * Moves this process's `Date.now` forward by `ms` (never back), for a pause
 * measured by that clock that a test would otherwise wait out in real time
 * (the Redis breaker's REDIS_BREAKER_MS in lib/kv/upstash-faults.test.ts).
 * Timers (`setTimeout`) are not moved. Same conditions as freshWindowInProcess.
 */
export function advanceClockInProcess(ms: number): void {
  if (!(ms >= 0)) throw new RangeError(`the clock only moves forward (${ms} ms)`);
  const before = Date.now;
  Date.now = () => before() + ms;
}
