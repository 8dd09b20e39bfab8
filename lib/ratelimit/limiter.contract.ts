// One behaviour for every limiter backend (5 per 1 s sliding window).
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { sleep } from '@/lib/kv/testing';
import type { Limiter } from './types';

export interface LimiterHarness {
  /** A fresh limiter with its own key space. */
  make(limit: number, windowMs: number): Limiter;
  teardown(): Promise<void>;
}

const LIMIT = 5;
const WINDOW = 1_000;
const id = () => `user-${randomUUID().slice(0, 8)}`;

/** Sleeps to just after the next window boundary so a burst never straddles two windows. */
async function startOfWindow(): Promise<void> {
  await sleep(WINDOW - (Date.now() % WINDOW) + 20);
}

/** Pins Date (only Date: connection timers keep running) to `ms` into window `n`. */
function pinClock(n: number, ms: number): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(n * WINDOW + ms);
}

export function limiterContract(setup: () => Promise<LimiterHarness>): void {
  let h: LimiterHarness;
  let limiter: Limiter;
  // A window index far from now so pinned-clock tests never meet real keys.
  const base = Math.floor(Date.now() / WINDOW) + 1_000_000 + Math.floor(Math.random() * 1_000_000);

  beforeAll(async () => {
    h = await setup();
  });
  afterAll(async () => {
    await h?.teardown();
  });
  beforeAll(() => {
    limiter = h.make(LIMIT, WINDOW);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('allows `limit` requests, then refuses with remaining 0 and the window end as reset', async () => {
    pinClock(base, 100);
    const user = id();
    const remaining: number[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const r = await limiter.consume(user);
      expect(r.success).toBe(true);
      remaining.push(r.remaining);
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    const sixth = await limiter.consume(user);
    expect(sixth).toEqual({ success: false, limit: LIMIT, remaining: 0, reset: (base + 1) * WINDOW });
  });

  it('keeps identifiers apart', async () => {
    pinClock(base + 10, 100);
    const a = id();
    for (let i = 0; i <= LIMIT; i++) await limiter.consume(a);
    expect((await limiter.consume(a)).success).toBe(false);
    expect(await limiter.consume(id())).toMatchObject({ success: true, remaining: LIMIT - 1 });
  });

  it('weights the previous window by the part of it still in view', async () => {
    const user = id();
    pinClock(base + 20, 900);
    for (let i = 0; i < LIMIT; i++) await limiter.consume(user);
    // 30% into the next window: floor(0.7 * 5) = 3 still count.
    vi.setSystemTime((base + 21) * WINDOW + 300);
    expect(await limiter.consume(user)).toMatchObject({ success: true, remaining: 1 });
    expect(await limiter.consume(user)).toMatchObject({ success: true, remaining: 0 });
    expect(await limiter.consume(user)).toMatchObject({ success: false, remaining: 0 });
    // 70% in: floor(0.3 * 5) = 1 plus the 2 taken in this window.
    vi.setSystemTime((base + 21) * WINDOW + 700);
    expect(await limiter.peek(user)).toMatchObject({ success: true, remaining: 2 });
    // Capacity freed inside the window that refused us: a limiter that
    // caches "blocked until window end" would wrongly refuse here.
    expect(await limiter.consume(user)).toMatchObject({ success: true, remaining: 1 });
  });

  it('peek answers without counting', async () => {
    pinClock(base + 30, 100);
    const user = id();
    for (let i = 0; i < 3; i++) {
      expect(await limiter.peek(user)).toEqual({ success: true, limit: LIMIT, remaining: LIMIT, reset: (base + 31) * WINDOW });
    }
    expect((await limiter.consume(user)).remaining).toBe(4);
    expect((await limiter.peek(user)).remaining).toBe(4);
    for (let i = 0; i < 4; i++) await limiter.consume(user);
    expect(await limiter.peek(user)).toMatchObject({ success: false, remaining: 0 });
  });

  it('allows exactly `limit` of 20 concurrent requests', async () => {
    pinClock(base + 40, 100);
    const user = id();
    const results = await Promise.all(Array.from({ length: 20 }, () => limiter.consume(user)));
    expect(results.filter((r) => r.success)).toHaveLength(LIMIT);
    expect(results.filter((r) => !r.success).every((r) => r.remaining === 0)).toBe(true);
  });

  it('counts several units at once, and refuses units that do not all fit without counting any of them', async () => {
    pinClock(base + 50, 100);
    const user = id();
    expect(await limiter.consume(user, 3)).toEqual({ success: true, limit: LIMIT, remaining: 2, reset: (base + 51) * WINDOW });
    // 3 used: 3 more do not fit, and the refusal takes nothing.
    expect(await limiter.consume(user, 3)).toMatchObject({ success: false, remaining: 2 });
    expect(await limiter.peek(user)).toMatchObject({ success: true, remaining: 2 });
    // Single units and weighted ones share the count.
    expect(await limiter.consume(user)).toMatchObject({ success: true, remaining: 1 });
    expect(await limiter.consume(user, 1)).toMatchObject({ success: true, remaining: 0 });
    expect(await limiter.consume(user, 2)).toMatchObject({ success: false, remaining: 0 });
  });

  it('weights units of the previous window like single requests', async () => {
    const user = id();
    pinClock(base + 60, 900);
    expect(await limiter.consume(user, LIMIT)).toMatchObject({ success: true, remaining: 0 });
    // 40% into the next window: floor(0.6 * 5) = 3 still count, so 2 fit and 3 do not.
    vi.setSystemTime((base + 61) * WINDOW + 400);
    expect(await limiter.consume(user, 3)).toMatchObject({ success: false, remaining: 2 });
    expect(await limiter.consume(user, 2)).toMatchObject({ success: true, remaining: 0 });
  });

  it('never lets concurrent weighted requests exceed the limit', async () => {
    pinClock(base + 70, 100);
    const user = id();
    const results = await Promise.all(Array.from({ length: 10 }, () => limiter.consume(user, 2)));
    expect(results.filter((r) => r.success)).toHaveLength(Math.floor(LIMIT / 2));
    expect(await limiter.peek(user)).toMatchObject({ remaining: LIMIT % 2 });
  });

  it('refuses a unit count that is not a positive integer', async () => {
    await expect(limiter.consume(id(), 0)).rejects.toThrow(RangeError);
    await expect(limiter.consume(id(), 1.5)).rejects.toThrow(RangeError);
  });

  it('gives capacity back once the window has passed (real clock)', async () => {
    await startOfWindow();
    const user = id();
    for (let i = 0; i < LIMIT; i++) await limiter.consume(user);
    const refused = await limiter.consume(user);
    expect(refused.success).toBe(false);
    expect(refused.reset).toBeGreaterThan(Date.now());
    expect(refused.reset).toBeLessThanOrEqual(Date.now() + WINDOW);
    // At `reset` the old window still weighs ~100%; one window later it is out of view.
    await sleep(refused.reset + WINDOW - Date.now() + 20);
    const again = await Promise.all(Array.from({ length: LIMIT }, () => limiter.consume(user)));
    expect(again.every((r) => r.success)).toBe(true);
  });
}
