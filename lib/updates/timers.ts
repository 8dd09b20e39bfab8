// The update log's timers that run once (a waiting message's flush, a gap
// check's wait, a catalog edit's settle time), held process-wide like the
// schedulers' intervals. Unref'd: none holds a process that is shutting down.
// A test worker that gives the next file a fresh process
// (lib/testing/fresh-process.ts) stops them with the intervals, so a previous
// file's flush or second pass never runs against the next file's services.
import { processWide } from '@/lib/process-wide';

const pending = processWide('updates.timers', () => new Set<ReturnType<typeof setTimeout>>());
// The work a fired timer started, until it settles: a test worker waits for it
// before the next file (lib/testing/fresh-env.ts), so that none of it reads the
// configuration or opens a database after the process state was given back.
const running = processWide('updates.timers.running', () => new Set<Promise<unknown>>());

/** Runs `fn` once after `ms`; what it returns (a promise) is held until it settles. */
export function later(ms: number, fn: () => unknown): void {
  const timer = setTimeout(() => {
    pending.delete(timer);
    const work = fn();
    if (typeof (work as PromiseLike<unknown> | undefined)?.then === 'function') {
      const held: Promise<unknown> = Promise.resolve(work).finally(() => running.delete(held));
      running.add(held);
    }
  }, ms);
  timer.unref?.();
  pending.add(timer);
}

/** Resolves after `ms`. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => later(ms, resolve));
}
