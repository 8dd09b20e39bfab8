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

/** When the current fixed window has less than `neededMs` left, waits for the next one to start. */
export async function awayFromWindowEdge(neededMs: number, windowMs = 60_000): Promise<void> {
  if (neededMs >= windowMs) throw new RangeError(`a burst needing ${neededMs} ms cannot fit a ${windowMs} ms window`);
  const left = windowMs - (Date.now() % windowMs);
  if (left < neededMs) await new Promise((r) => setTimeout(r, left + 50));
}
