// One behaviour for every KV backend: each adapter test runs this suite.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { KV } from './types';
import { sleep } from './testing';

export interface KvHarness {
  kv: KV;
  /** Every key the suite touches starts with this (unique per run). */
  prefix: string;
  /** Closes connections (the suite deletes the keys it wrote). */
  teardown(): Promise<void>;
}

/** Registers the contract's it() blocks; call inside a describe(). */
export function kvContract(setup: () => Promise<KvHarness>): void {
  let h: KvHarness;
  const used = new Set<string>();
  const key = (name: string) => {
    used.add(name);
    return `${h.prefix}${name}`;
  };

  beforeAll(async () => {
    h = await setup();
  });
  afterAll(async () => {
    if (!h) return;
    // Cleaned through the port itself, so even a remote store without a
    // prefix scan (Upstash) is left as it was found.
    for (const name of used) await h.kv.del(key(name));
    await h.teardown();
  });

  it('answers null for a missing key', async () => {
    expect(await h.kv.get(key('missing'))).toBeNull();
    expect(await h.kv.pttl(key('missing'))).toBeNull();
  });

  it('round-trips strings unchanged, JSON-looking ones included', async () => {
    const values = ['{"a":1,"b":[true,null]}', '42', '007', 'true', 'null', '"quoted"', '', '✓ 你好 🎉', 'two\nlines', 'OK'];
    for (const [i, value] of values.entries()) {
      expect(await h.kv.set(key(`v${i}`), value)).toBe(true);
      const back = await h.kv.get(key(`v${i}`));
      expect(typeof back).toBe('string');
      expect(back).toBe(value);
    }
  });

  it('reads several keys in one call, in order, null for missing and expired ones', async () => {
    await h.kv.set(key('m1'), 'one');
    await h.kv.set(key('m3'), '{"three":3}');
    await h.kv.set(key('m4'), 'gone', { ttlMs: 50 });
    await sleep(120);
    expect(await h.kv.mget([key('m1'), key('m2'), key('m3'), key('m4')])).toEqual(['one', null, '{"three":3}', null]);
    expect(await h.kv.mget([])).toEqual([]);
  });

  it('overwrites and deletes', async () => {
    await h.kv.set(key('ow'), 'one');
    await h.kv.set(key('ow'), 'two');
    expect(await h.kv.get(key('ow'))).toBe('two');
    await h.kv.del(key('ow'));
    expect(await h.kv.get(key('ow'))).toBeNull();
    await expect(h.kv.del(key('ow'))).resolves.toBeUndefined();
  });

  it('expires keys after ttlMs and reports the remaining time', async () => {
    await h.kv.set(key('ttl'), 'x', { ttlMs: 300 });
    const left = await h.kv.pttl(key('ttl'));
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(300);
    await sleep(400);
    expect(await h.kv.get(key('ttl'))).toBeNull();
    expect(await h.kv.pttl(key('ttl'))).toBeNull();
  });

  it('has no expiry unless asked, and a plain set clears an old one', async () => {
    await h.kv.set(key('persist'), 'x');
    expect(await h.kv.pttl(key('persist'))).toBeNull();
    await h.kv.set(key('persist'), 'y', { ttlMs: 60_000 });
    expect(await h.kv.pttl(key('persist'))).toBeGreaterThan(59_000);
    await h.kv.set(key('persist'), 'z');
    expect(await h.kv.pttl(key('persist'))).toBeNull();
  });

  it('nx writes only when the key is absent', async () => {
    expect(await h.kv.set(key('nx'), 'first', { nx: true })).toBe(true);
    expect(await h.kv.set(key('nx'), 'second', { nx: true })).toBe(false);
    expect(await h.kv.get(key('nx'))).toBe('first');
    await h.kv.del(key('nx'));
    expect(await h.kv.set(key('nx'), 'third', { nx: true, ttlMs: 5_000 })).toBe(true);
    expect(await h.kv.get(key('nx'))).toBe('third');
    expect(await h.kv.pttl(key('nx'))).toBeGreaterThan(4_000);
  });

  it('nx treats an expired key as absent', async () => {
    await h.kv.set(key('nx-exp'), 'old', { ttlMs: 100 });
    await sleep(150);
    expect(await h.kv.set(key('nx-exp'), 'new', { nx: true })).toBe(true);
    expect(await h.kv.get(key('nx-exp'))).toBe('new');
  });

  it('lets exactly one of many concurrent nx writers win', async () => {
    const wins = await Promise.all(Array.from({ length: 20 }, (_, i) => h.kv.set(key('race'), `w${i}`, { nx: true })));
    expect(wins.filter(Boolean)).toHaveLength(1);
  });

  it('rejects a ttl that is not a positive integer', async () => {
    for (const ttlMs of [0, -5, 1.5, Number.NaN]) {
      await expect(h.kv.set(key('bad-ttl'), 'x', { ttlMs })).rejects.toThrow(RangeError);
    }
    expect(await h.kv.get(key('bad-ttl'))).toBeNull();
  });

  it('accepts keys with spaces, colons and unicode', async () => {
    const odd = key('a b:c/ü✓');
    await h.kv.set(odd, 'v');
    expect(await h.kv.get(odd)).toBe('v');
  });

  it('pings', async () => {
    await expect(h.kv.ping()).resolves.toBeUndefined();
  });
}
