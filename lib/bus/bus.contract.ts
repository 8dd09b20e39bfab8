// One behaviour for every bus backend: each adapter test runs this suite.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { runPrefix, waitFor } from '@/lib/kv/testing';
import type { Bus } from './types';

export interface BusHarness {
  bus: Bus;
  /** A second instance on the same broker (another process, in production). */
  peer?: Bus;
  /** Broker-side subscriber count of a channel (PUBSUB NUMSUB). */
  numsub?: (channel: string) => Promise<number>;
  teardown(): Promise<void>;
}

/** Collects what a subscription receives. */
function inbox() {
  const got: string[] = [];
  return { got, on: (m: string) => void got.push(m), has: (m: string) => () => got.includes(m) };
}

export function busContract(setup: () => Promise<BusHarness>): void {
  let h: BusHarness;
  const prefix = runPrefix('bus');
  let n = 0;
  const channel = () => `${prefix}${n++}`;

  beforeAll(async () => {
    h = await setup();
  });
  afterAll(async () => {
    await h?.teardown();
  });

  it('delivers to a subscriber as soon as subscribe() resolved', async () => {
    const c = channel();
    const box = inbox();
    const off = await h.bus.subscribe(c, box.on);
    await h.bus.publish(c, 'hello');
    await waitFor(box.has('hello'), 'hello');
    expect(box.got).toEqual(['hello']);
    await off();
  });

  it('gives each of two subscribers every message exactly once', async () => {
    const c = channel();
    const a = inbox();
    const b = inbox();
    const offs = await Promise.all([h.bus.subscribe(c, a.on), h.bus.subscribe(c, b.on)]);
    if (h.numsub) expect(await h.numsub(c)).toBe(1); // one shared connection
    await h.bus.publish(c, 'm1');
    await h.bus.publish(c, 'm2');
    await waitFor(() => a.got.includes('m2') && b.got.includes('m2'), 'm2 at both');
    expect(a.got).toEqual(['m1', 'm2']);
    expect(b.got).toEqual(['m1', 'm2']);
    await Promise.all(offs.map((off) => off()));
  });

  it('keeps channels apart', async () => {
    const [c1, c2] = [channel(), channel()];
    const one = inbox();
    const two = inbox();
    const offs = [await h.bus.subscribe(c1, one.on), await h.bus.subscribe(c2, two.on)];
    await h.bus.publish(c1, 'for-one');
    // Delivery is ordered, so once two has its message, one's would have come.
    await h.bus.publish(c2, 'for-two');
    await waitFor(two.has('for-two'), 'for-two');
    expect(two.got).toEqual(['for-two']);
    expect(one.got).toEqual(['for-one']);
    await Promise.all(offs.map((off) => off()));
  });

  it('stops delivery on unsubscribe and releases the channel with the last listener', async () => {
    const c = channel();
    const gone = inbox();
    const stays = inbox();
    const offGone = await h.bus.subscribe(c, gone.on);
    const offStays = await h.bus.subscribe(c, stays.on);
    await offGone();
    await offGone(); // idempotent: must not drop the other listener
    if (h.numsub) expect(await h.numsub(c)).toBe(1);
    await h.bus.publish(c, 'after');
    await waitFor(stays.has('after'), 'after');
    expect(gone.got).toEqual([]);
    await offStays();
    if (h.numsub) expect(await h.numsub(c)).toBe(0);
  });

  it('can subscribe again right after the last listener left', async () => {
    const c = channel();
    await (await h.bus.subscribe(c, () => {}))();
    const box = inbox();
    const off = await h.bus.subscribe(c, box.on);
    await h.bus.publish(c, 'back');
    await waitFor(box.has('back'), 'back');
    await off();
  });

  it('treats the same callback subscribed twice as two subscriptions', async () => {
    const c = channel();
    const box = inbox();
    const first = await h.bus.subscribe(c, box.on);
    const second = await h.bus.subscribe(c, box.on);
    await h.bus.publish(c, 'x');
    await waitFor(() => box.got.length === 2, 'two copies');
    await first();
    await h.bus.publish(c, 'y');
    await waitFor(box.has('y'), 'y');
    expect(box.got).toEqual(['x', 'x', 'y']);
    await second();
  });

  it('keeps delivering to others when a listener throws', async () => {
    const c = channel();
    const box = inbox();
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const offs = [await h.bus.subscribe(c, () => { throw new Error('boom'); }), await h.bus.subscribe(c, box.on)];
      await h.bus.publish(c, 'still');
      await waitFor(box.has('still'), 'still');
      await Promise.all(offs.map((off) => off()));
    } finally {
      quiet.mockRestore();
    }
  });

  it('preserves the order of 100 messages', async () => {
    const c = channel();
    const box = inbox();
    const off = await h.bus.subscribe(c, box.on);
    const sent = Array.from({ length: 100 }, (_, i) => JSON.stringify({ i }));
    for (const m of sent) await h.bus.publish(c, m);
    await waitFor(() => box.got.length === 100, '100 messages');
    expect(box.got).toEqual(sent);
    await off();
  });

  it('reaches subscribers on another instance', async (ctx) => {
    if (!h.peer) return ctx.skip(); // memory: there is no other instance
    const c = channel();
    const box = inbox();
    const off = await h.peer.subscribe(c, box.on);
    await h.bus.publish(c, 'across');
    await waitFor(box.has('across'), 'across');
    await off();
  });

  it('refuses use after close', async () => {
    const extra = await setup();
    await extra.bus.close();
    await expect(extra.bus.publish(channel(), 'x')).rejects.toThrow(/closed/);
    await extra.teardown();
  });
}
