// One queue per user in this process: a player's own burst of events takes
// turns instead of racing for the user's sequence number (each loser of that
// race reads and evaluates again, and enough losses answered 503). Only
// writers on other instances (or a webhook delivery or claim of the same
// user) can still make an event's write lose; recordEvent retries those.

/** The tail of each user's queue: settles when the last queued task has. Deleted when the queue empties. */
const tails = new Map<string, Promise<void>>();

/** Runs `task` after every task queued before it under `key` has settled (resolved or failed); answers its result. */
export function inUserQueue<T>(key: string, task: () => Promise<T>): Promise<T> {
  const before = tails.get(key);
  const result = before ? before.then(task) : task();
  const tail = result.then(
    () => undefined,
    () => undefined,
  );
  tails.set(key, tail);
  void tail.then(() => {
    if (tails.get(key) === tail) tails.delete(key);
  });
  return result;
}

/** How many users have a queue (tasks running or waiting) right now: 0 when idle, so the map never grows. */
export function queuedUsers(): number {
  return tails.size;
}
