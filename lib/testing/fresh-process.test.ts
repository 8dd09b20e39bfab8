// The state a worker of the `shared` Vitest project gives back between two
// files (lib/testing/fresh-env.ts): what a module holds from its first import
// starts over in place, other slots are forgotten, timers stop.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getConfig } from '@/lib/config';
import { processWide } from '@/lib/process-wide';
import { prepareTestEnv } from './test-env';
import { advanceClockInProcess } from './rate-window';
import { later } from '@/lib/updates/timers';
import { forgetProcessState, restoreProcessClock, settleProcessWork, stopProcessTimers } from './fresh-process';

afterEach(() => {
  vi.useRealTimers();
});

describe('forgetProcessState', () => {
  it('gives a processWide object its first contents in place: a module holding it (or a collection in it) sees the new state', () => {
    const state = processWide('fresh-process-test.state', () => ({ count: 0, seen: new Map<string, number>(), list: new Set<string>() }));
    const heldMap = state.seen;
    state.count = 5;
    state.seen.set('a', 1);
    state.list.add('x');
    (state as Record<string, unknown>).added = true;
    forgetProcessState();
    expect(processWide('fresh-process-test.state', () => ({ count: 99, seen: new Map(), list: new Set() }))).toBe(state);
    expect(state.count).toBe(0);
    expect(state.seen).toBe(heldMap);
    expect(heldMap.size).toBe(0);
    expect(state.list.size).toBe(0);
    expect('added' in state).toBe(false);
  });

  it('empties a processWide Map in place and forgets a slot made without processWide', () => {
    const map = processWide('fresh-process-test.map', () => new Map<string, number>());
    map.set('k', 1);
    const key = Symbol.for('questline.fresh-process-test.plain');
    (globalThis as unknown as Record<symbol, unknown>)[key] = 42;
    forgetProcessState();
    expect(map.size).toBe(0);
    expect(key in globalThis).toBe(false);
  });

  it('makes the configuration read again from the environment', () => {
    prepareTestEnv();
    const before = process.env.SSE_KEEPALIVE_MS;
    try {
      process.env.SSE_KEEPALIVE_MS = '1000';
      forgetProcessState();
      expect(getConfig().sseKeepAliveMs).toBe(1000);
      process.env.SSE_KEEPALIVE_MS = '2000';
      expect(getConfig().sseKeepAliveMs).toBe(1000); // read once per process
      forgetProcessState();
      expect(getConfig().sseKeepAliveMs).toBe(2000);
    } finally {
      if (before === undefined) delete process.env.SSE_KEEPALIVE_MS;
      else process.env.SSE_KEEPALIVE_MS = before;
      forgetProcessState();
    }
  });
});

describe('stopProcessTimers', () => {
  it('stops an interval held by a slot, by a field of a slot and by a value of a slot that is a Map, and a timeout held in a Set', () => {
    vi.useFakeTimers();
    const ticks = { direct: 0, field: 0, inMap: 0, inSet: 0 };
    const direct = Symbol.for('questline.fresh-process-test.timer');
    (globalThis as unknown as Record<symbol, unknown>)[direct] = setInterval(() => ticks.direct++, 10);
    processWide('fresh-process-test.scheduler', () => ({ timer: setInterval(() => ticks.field++, 10) }));
    processWide('fresh-process-test.wheels', () => new Map([[1, { timer: setInterval(() => ticks.inMap++, 10) }]]));
    processWide('fresh-process-test.pauses', () => new Set([setTimeout(() => ticks.inSet++, 10), setTimeout(() => ticks.inSet++, 50)]));
    vi.advanceTimersByTime(25);
    expect(ticks).toEqual({ direct: 2, field: 2, inMap: 2, inSet: 1 });
    stopProcessTimers();
    vi.advanceTimersByTime(100);
    expect(ticks).toEqual({ direct: 2, field: 2, inMap: 2, inSet: 1 });
    forgetProcessState();
  });
});

describe('restoreProcessClock', () => {
  it("gives back the real Date.now after a file moved it forward (new Date() never moved)", () => {
    const real = Date.now;
    try {
      advanceClockInProcess(90_000);
      advanceClockInProcess(30_000);
      expect(Date.now() - new Date().getTime()).toBeGreaterThanOrEqual(120_000);
      restoreProcessClock();
      expect(Math.abs(Date.now() - new Date().getTime())).toBeLessThan(1_000);
      expect(Date.now).toBe(real);
    } finally {
      Date.now = real;
    }
  });
});

describe('settleProcessWork', () => {
  it('waits for the work a fired timer started, and for the work that work started (a flush, then the repair it asks for)', async () => {
    const done: string[] = [];
    const checks = processWide('fresh-process-test.checks', () => new Map<string, Promise<void>>());
    const step = (ms: number, what: string) => new Promise<void>((resolve) => setTimeout(() => (done.push(what), resolve()), ms));
    later(5, () =>
      step(80, 'flush').then(() => {
        // As repairSoon: the next piece of work is held in a process-wide Map.
        const repair = step(80, 'repair').finally(() => checks.delete('user'));
        checks.set('user', repair);
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 20)); // the timer has fired; its work runs
    await settleProcessWork();
    expect(done).toEqual(['flush', 'repair']);
    forgetProcessState();
  });

  it('gives up after its bound on work that never ends, and says so', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      processWide('fresh-process-test.stuck', () => new Set([new Promise<void>(() => undefined)]));
      const started = Date.now();
      await settleProcessWork(100);
      expect(Date.now() - started).toBeGreaterThanOrEqual(90);
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/still runs after 100 ms \(.*questline\.fresh-process-test\.stuck/));
    } finally {
      warn.mockRestore();
      forgetProcessState();
    }
  });
});
