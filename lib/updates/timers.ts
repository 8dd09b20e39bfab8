// The update log's timers that run once (a waiting message's flush, a gap
// check's wait, a catalog edit's settle time), held process-wide like the
// schedulers' intervals. Unref'd: none holds a process that is shutting down.
// A test worker that gives the next file a fresh process
// (lib/testing/fresh-process.ts) stops them with the intervals, so a previous
// file's flush or second pass never runs against the next file's services.
import { processWide } from '@/lib/process-wide';

const pending = processWide('updates.timers', () => new Set<ReturnType<typeof setTimeout>>());

/** Runs `fn` once after `ms`. */
export function later(ms: number, fn: () => void): void {
  const timer = setTimeout(() => {
    pending.delete(timer);
    fn();
  }, ms);
  timer.unref?.();
  pending.add(timer);
}

/** Resolves after `ms`. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => later(ms, resolve));
}
