import { afterEach, describe, expect, it, vi } from 'vitest';
import { backoffCeiling, backoffDelay } from './backoff';
import { createCore } from './http';
import { subscribe } from './subscription';
import type { StreamTransport } from './transports';

describe('backoff', () => {
  it('doubles from 1 s and caps at 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10, 100].map((n) => backoffCeiling(n))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000, 30000,
    ]);
  });

  it('keeps jitter within bounds', () => {
    for (let attempt = 0; attempt < 8; attempt++) {
      const ceiling = backoffCeiling(attempt);
      for (const r of [0, 0.25, 0.5, 0.999999]) {
        const equal = backoffDelay(attempt, { random: () => r });
        expect(equal).toBeGreaterThanOrEqual(ceiling / 2);
        expect(equal).toBeLessThanOrEqual(ceiling);
        const full = backoffDelay(attempt, { jitter: 'full', random: () => r });
        expect(full).toBeGreaterThanOrEqual(0);
        expect(full).toBeLessThanOrEqual(ceiling);
      }
      expect(backoffDelay(attempt, { jitter: 'none' })).toBe(ceiling);
    }
  });
});

describe('reconnect schedule (fake timers)', () => {
  afterEach(() => vi.useRealTimers());

  it('retries after 1, 2, 4, 8, 16, 30, 30 s, polls after 5 failures, and leaves no timer on close', async () => {
    vi.useFakeTimers();
    const attempts: number[] = [];
    const lastIds: (string | null)[] = [];
    const failing: StreamTransport = ({ lastEventId, handlers }) => {
      attempts.push(Date.now());
      lastIds.push(lastEventId);
      queueMicrotask(() => handlers.onClose(new Error('refused')));
    };
    const polls: string[] = [];
    const fakeFetch = async (url: string) => {
      polls.push(new URL(url).pathname);
      const body = url.includes('/v1/missions') ? { missions: [], progress: {}, nextCursor: null } : { balances: [] };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    };
    const core = createCore({ baseUrl: 'http://sdk.invalid', token: 't', fetch: fakeFetch });
    const states: string[] = [];
    const sub = subscribe(core, () => undefined, {
      transport: failing,
      lastEventId: 'resume-from-here',
      backoff: { jitter: 'none' },
      pollIntervalMs: 5000,
      onStateChange: (s) => states.push(s),
    });
    const start = Date.now();
    await vi.advanceTimersByTimeAsync(1000 + 2000 + 4000 + 8000 + 16000 + 30000 + 30000 + 1);
    expect(attempts.map((t) => t - start)).toEqual([0, 1000, 3000, 7000, 15000, 31000, 61000, 91000]);
    expect(lastIds.every((id) => id === 'resume-from-here')).toBe(true);
    expect(states).toEqual(['reconnecting', 'polling']);
    expect(polls.filter((p) => p === '/v1/balance').length).toBeGreaterThan(10);
    sub.close();
    expect(sub.state).toBe('closed');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('uses equal jitter by default: every delay within [d/2, d]', async () => {
    vi.useFakeTimers();
    const attempts: number[] = [];
    const failing: StreamTransport = ({ handlers }) => {
      attempts.push(Date.now());
      queueMicrotask(() => handlers.onClose(new Error('refused')));
    };
    const core = createCore({ baseUrl: 'http://sdk.invalid', token: 't', fetch: async () => new Response('{}', { status: 503 }) });
    const sub = subscribe(core, () => undefined, { transport: failing, failuresBeforePolling: 100 });
    await vi.advanceTimersByTimeAsync(200_000);
    sub.close();
    const gaps = attempts.slice(1).map((t, i) => t - attempts[i]);
    gaps.forEach((gap, i) => {
      const ceiling = backoffCeiling(i);
      expect(gap).toBeGreaterThanOrEqual(ceiling / 2);
      expect(gap).toBeLessThanOrEqual(ceiling);
    });
    expect(vi.getTimerCount()).toBe(0);
  });
});
