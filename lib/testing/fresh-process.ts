// The process state a new process would have, given back between two test
// files of one worker (lib/testing/fresh-env.ts). Vitest runs the files that
// start no process of their own (the `shared` project in vitest.config.mts,
// the in-process test servers among them) one after another in one worker,
// without a new process per file, so their modules are imported once per
// worker instead of once per file. What a
// process keeps lives on globalThis under `Symbol.for('questline.…')`: the
// db, kv, bus and boot slots, read where they are used, and the objects of
// lib/process-wide.ts, which modules hold from their first import (the
// configuration read once, the catalog cache, the schedulers and their
// timers, the stream wheels). Stopping the timers, then giving each
// processWide object its first contents in place and forgetting the other
// slots, makes the next file's server read its own configuration, open its
// own database and boot again.
import { processWideCreators } from '@/lib/process-wide';

// The process's own Date.now, taken when this module is first evaluated (the
// first setup file, before any test file's code): lib/testing/rate-window.ts
// moves Date.now forward for an in-process server, and a later file must find
// the real clock, as a new process would.
const REAL_NOW = Symbol.for('vitest.questline.date-now');
const clock = globalThis as typeof globalThis & { [REAL_NOW]?: () => number };
clock[REAL_NOW] ??= Date.now;

const PREFIX = 'questline.';

type Slots = Record<symbol, unknown>;

function questlineSlots(): symbol[] {
  return Object.getOwnPropertySymbols(globalThis).filter((key) => Symbol.keyFor(key)?.startsWith(PREFIX));
}

function isTimer(value: unknown): value is ReturnType<typeof setInterval> {
  return typeof value === 'object' && value !== null && typeof (value as { hasRef?: unknown }).hasRef === 'function' && typeof (value as { refresh?: unknown }).refresh === 'function';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/**
 * Stops every timer a process-wide slot holds (the schedulers, the outbound
 * worker, retries, stream wheels, the stream repair's pauses), so none fires
 * into the next file: the slot itself, a field of it, or a value of a Map or Set.
 */
export function stopProcessTimers(): void {
  const slots = globalThis as unknown as Slots;
  for (const key of questlineSlots()) {
    const value = slots[key];
    const held = value instanceof Map || value instanceof Set ? [...value.values()] : [value];
    for (const item of held) {
      const fields = !isTimer(item) && isPlainObject(item) ? Object.values(item) : [item];
      for (const field of fields) if (isTimer(field)) clearInterval(field);
    }
  }
}

const isThenable = (value: unknown): value is PromiseLike<unknown> => typeof (value as { then?: unknown } | null)?.then === 'function';

/**
 * Waits (at most `boundMs`) for the work a previous file left running in the
 * background: the promises a process-wide Map or Set holds (a stream repair
 * in progress, a fired timer's work such as a waiting message's flush, a
 * recommendation being computed). Such work, resumed after the state was
 * given back, read the configuration from the reset environment: the next
 * file's server then kept that configuration (another admin key: every call
 * 401) and the work opened an embedded database in the working directory
 * (seen with three Vitest workers). Settling can start more (a flush starts a
 * repair), so it looks again until none is left.
 */
export async function settleProcessWork(boundMs = 10_000): Promise<void> {
  const slots = globalThis as unknown as Slots;
  const deadline = Date.now() + boundMs;
  for (;;) {
    const holders: string[] = [];
    const held: PromiseLike<unknown>[] = [];
    for (const key of questlineSlots()) {
      const value = slots[key];
      const found = value instanceof Map || value instanceof Set ? [...value.values()].filter(isThenable) : [];
      if (found.length === 0) continue;
      holders.push(Symbol.keyFor(key)!);
      held.push(...found);
    }
    if (held.length === 0) return;
    const left = deadline - Date.now();
    if (left <= 0) {
      console.warn(`fresh-env: the previous file's background work still runs after ${boundMs} ms (${holders.join(', ')}); going on`);
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.allSettled(held), new Promise((resolve) => (timer = setTimeout(resolve, left)))]);
    clearTimeout(timer);
  }
}

/** Gives the process its first state back (call after the database, store and bus are closed). */
export function forgetProcessState(): void {
  const slots = globalThis as unknown as Slots;
  const creators = processWideCreators();
  for (const key of questlineSlots()) {
    const value = slots[key];
    const create = creators.get(key);
    if (create && (value instanceof Map || value instanceof Set)) value.clear();
    else if (create && value instanceof WeakMap) continue; // keyed by objects of the old process: never found again
    else if (create && isPlainObject(value)) {
      // Field by field: a collection is emptied where it is (a module may hold it: `const cache = state.cache`).
      const first = create() as Record<string, unknown>;
      for (const field of Object.keys(value)) if (!(field in first)) delete value[field];
      for (const [field, initial] of Object.entries(first)) {
        const held = value[field];
        if ((held instanceof Map && initial instanceof Map) || (held instanceof Set && initial instanceof Set)) held.clear();
        else value[field] = initial;
      }
    } else delete slots[key];
  }
}

/**
 * Gives the process its real clock back: a previous file's forward moves of
 * Date.now (lib/testing/rate-window.ts) add up in a shared worker otherwise,
 * and only Date.now moves, not `new Date()`: jose checks a token's expiry with
 * `new Date()`, so a token that expired a minute before the moved clock was
 * accepted once the moves passed a minute.
 */
export function restoreProcessClock(): void {
  Date.now = clock[REAL_NOW]!;
}
