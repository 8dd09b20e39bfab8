// The update log adapters: ids, exclusive reads, retention bounds, and the
// invariant the stream relies on (publish order equals id order).
import { Redis as IORedis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryBus, RedisBus, type Bus } from '@/lib/bus';
import { createTcpRedisClient, type RedisClientHandle } from '@/lib/kv/clients';
import { describeWithRedis, redisReachable, runPrefix, testRedisUrl, waitFor, deleteKeysWithPrefix } from '@/lib/kv/testing';
import { MemoryUpdateLog } from './log-memory';
import { RedisUpdateLog } from './log-redis';
import { compareLogIds, decodeBusMessage, MIN_LOG_ID, resumableId, type UpdateLog } from './log';

const upd = (n: number) => JSON.stringify({ type: 'mission.progress', data: { n } });

describe('log ids', () => {
  it('compare by (ms, seq), not as strings', () => {
    expect(compareLogIds('9-0', '10-0')).toBeLessThan(0);
    expect(compareLogIds('10-2', '10-10')).toBeLessThan(0);
    expect(compareLogIds('10-1', '10-1')).toBe(0);
  });
  it('a resumable id is well formed and not in the future', () => {
    expect(resumableId('1700000000000-3')).toBe('1700000000000-3');
    expect(resumableId('abc')).toBeNull();
    expect(resumableId(`${Date.now() + 3_600_000}-0`)).toBeNull();
    expect(resumableId('')).toBeNull();
  });
});

/** Shared behaviour of every adapter. */
function logContract(make: () => { log: UpdateLog; bus: Bus; prefix: string }) {
  it('ordered appends: a change that arrives before its predecessor waits for it; a late one is dropped', async () => {
    const { log, bus, prefix } = make();
    const key = `${prefix}log:ord`;
    const channel = `${prefix}chan:ord`;
    const stateKey = `${prefix}updseq:ord`;
    const got: string[] = [];
    const unsubscribe = await bus.subscribe(channel, (m) => got.push(m));
    // The user's first change is 1: it goes out at once.
    const first = await log.appendAndPublish(key, channel, [upd(1)], { stateKey, seq: 1 });
    expect(first.status).toBe('published');
    // 3 comes before 2: it waits, and 2 publishes both, in order.
    const third = await log.appendAndPublish(key, channel, [upd(3)], { stateKey, seq: 3 });
    expect(third.status).toBe('pending');
    expect(third).toEqual([]);
    const second = await log.appendAndPublish(key, channel, [upd(2), upd(22)], { stateKey, seq: 2 });
    expect(second.status).toBe('published');
    expect(second).toHaveLength(3);
    // A change with nothing to say still moves the order on.
    expect((await log.appendAndPublish(key, channel, [], { stateKey, seq: 4 })).status).toBe('published');
    // 6 waits for 5, whose publisher never comes: the flush gives up on 5.
    expect((await log.appendAndPublish(key, channel, [upd(6)], { stateKey, seq: 6 })).status).toBe('pending');
    expect(await log.flushThrough(key, channel, { stateKey, seq: 6 })).toHaveLength(1);
    // 5 arriving now is late: dropped, so the stream never goes back.
    const late = await log.appendAndPublish(key, channel, [upd(5)], { stateKey, seq: 5 });
    expect(late.status).toBe('late');
    // Flushing what was already published does nothing.
    expect(await log.flushThrough(key, channel, { stateKey, seq: 6 })).toEqual([]);
    await waitFor(() => got.length === 5, '5 messages');
    const order = got.map((m) => (JSON.parse(decodeBusMessage(m)!.update) as { data: { n: number } }).data.n);
    expect(order).toEqual([1, 2, 22, 3, 6]);
    expect((await log.readAfter(key, null)).map((e) => (JSON.parse(e.update) as { data: { n: number } }).data.n)).toEqual([1, 2, 22, 3, 6]);
    await unsubscribe();
  });

  it('without an order state, a change whose predecessor is settled goes out at once; one whose predecessor may be on its way waits', async () => {
    const { log, bus, prefix } = make();
    const key = `${prefix}log:settled`;
    const channel = `${prefix}chan:settled`;
    const got: string[] = [];
    const unsubscribe = await bus.subscribe(channel, (m) => got.push(m));
    // A user back after the state expired (their 20th change committed long ago): 21 is next.
    const back = await log.appendAndPublish(key, channel, [upd(21)], { stateKey: `${prefix}updseq:settled`, seq: 21, settled: true });
    expect(back.status).toBe('published');
    expect(back).toHaveLength(1);
    // Then 22 follows in order as usual; settled says nothing once a state exists.
    expect((await log.appendAndPublish(key, channel, [upd(23)], { stateKey: `${prefix}updseq:settled`, seq: 23, settled: true })).status).toBe('pending');
    expect((await log.appendAndPublish(key, channel, [upd(22)], { stateKey: `${prefix}updseq:settled`, seq: 22 })).status).toBe('published');
    // Not settled and no state: 8 waits (7 may still be on its way).
    const unsure = await log.appendAndPublish(key, channel, [upd(8)], { stateKey: `${prefix}updseq:unsure`, seq: 8 });
    expect(unsure.status).toBe('pending');
    await waitFor(() => got.length === 3, '3 messages');
    expect(got.map((m) => (JSON.parse(decodeBusMessage(m)!.update) as { data: { n: number } }).data.n)).toEqual([21, 22, 23]);
    await unsubscribe();
  });

  it('erase drops the user’s messages; later ones still get higher ids', async () => {
    const { log, prefix } = make();
    const key = `${prefix}log:erase`;
    const channel = `${prefix}chan:erase`;
    const [before] = await log.appendAndPublish(key, channel, [upd(1)]);
    await log.erase(key);
    expect(await log.readAfter(key, null)).toEqual([]);
    const [after] = await log.appendAndPublish(key, channel, [upd(2)]);
    expect(compareLogIds(after, before)).toBeGreaterThan(0);
    expect((await log.readAfter(key, null)).map((e) => e.id)).toEqual([after]);
    await log.erase(`${prefix}log:never-written`);
  });

  it('answers increasing ids, publishes {id, update} in id order, reads after an id exclusively', async () => {
    const { log, bus, prefix } = make();
    const key = `${prefix}log:a`;
    const channel = `${prefix}chan:a`;
    const got: string[] = [];
    const unsubscribe = await bus.subscribe(channel, (m) => got.push(m));
    // Concurrent writers: publish order must still be id order.
    const batches = await Promise.all(Array.from({ length: 20 }, (_, i) => log.appendAndPublish(key, channel, [upd(i * 2), upd(i * 2 + 1)])));
    const ids = batches.flat();
    await waitFor(() => got.length === 40, '40 messages');
    const published = got.map((m) => decodeBusMessage(m)!);
    expect(published.map((e) => e.id)).toEqual([...ids].sort(compareLogIds));
    for (let i = 1; i < published.length; i++) expect(compareLogIds(published[i - 1].id, published[i].id)).toBeLessThan(0);

    const all = await log.readAfter(key, null);
    expect(all.map((e) => e.id)).toEqual(published.map((e) => e.id));
    expect(all.map((e) => e.update)).toEqual(published.map((e) => e.update));
    const after = await log.readAfter(key, all[9].id);
    expect(after).toEqual(all.slice(10));
    expect(await log.readAfter(key, all[39].id)).toEqual([]);
    expect(await log.readAfter(key, '0-0')).toEqual(all);
    expect(await log.readAfter(`${prefix}log:nobody`, null)).toEqual([]);
    await unsubscribe();
  });

  it('answers the newest id (null for an empty log); MIN_LOG_ID reads everything', async () => {
    const { log, prefix } = make();
    const key = `${prefix}log:last`;
    expect(await log.lastId(key)).toBeNull();
    expect(await log.readAfter(key, MIN_LOG_ID)).toEqual([]);
    const ids = await log.appendAndPublish(key, `${prefix}chan:last`, [upd(1), upd(2), upd(3)]);
    expect(await log.lastId(key)).toBe(ids[2]);
    expect((await log.readAfter(key, MIN_LOG_ID)).map((e) => e.id)).toEqual(ids);
    expect(compareLogIds(MIN_LOG_ID, ids[0])).toBeLessThan(0);
    const [next] = await log.appendAndPublish(key, `${prefix}chan:last`, [upd(4)]);
    expect(await log.readAfter(key, ids[2])).toEqual([{ id: next, update: upd(4) }]);
    expect(await log.lastId(key)).toBe(next);
  });

  it('keeps at least the last 1,000 messages of a user', async () => {
    const { log, prefix } = make();
    const key = `${prefix}log:long`;
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(...(await log.appendAndPublish(key, `${prefix}chan:long`, Array.from({ length: 100 }, (_, j) => upd(i * 100 + j)))));
    const kept = await log.readAfter(key, null);
    expect(kept.length).toBeGreaterThanOrEqual(1000);
    expect(kept.length).toBeLessThan(1200);
    expect(kept.at(-1)!.id).toBe(ids.at(-1));
    // Resuming from a trimmed id replays everything still held.
    expect(await log.readAfter(key, ids[0])).toEqual(kept);
  });
}

describe('MemoryUpdateLog', () => {
  const bus = new MemoryBus();
  logContract(() => ({ log: new MemoryUpdateLog(() => bus, { maxLen: 1000, maxAgeMs: 900_000 }), bus, prefix: 'm:' }));

  it('holds exactly maxLen messages per user and drops messages older than maxAge', async () => {
    let now = 1_000_000;
    const log = new MemoryUpdateLog(() => bus, { maxLen: 3, maxAgeMs: 1_000 }, () => now);
    for (let i = 0; i < 5; i++) await log.appendAndPublish('k', 'c', [upd(i)]);
    expect((await log.readAfter('k', null)).map((e) => JSON.parse(e.update).data.n)).toEqual([2, 3, 4]);
    now += 1_001;
    expect(await log.readAfter('k', null)).toEqual([]);
    expect(log.stats().messages).toBe(0);
  });

  it('bounds the number of users and of messages overall, dropping idle and least recently written users first', async () => {
    let now = 1_000_000;
    const log = new MemoryUpdateLog(() => bus, { maxLen: 10, maxAgeMs: 1_000, maxUsers: 3, maxTotal: 15 }, () => now);
    for (const u of ['a', 'b', 'c', 'd']) await log.appendAndPublish(u, 'c', [upd(1)]);
    expect(log.stats().users).toBe(3);
    expect(await log.readAfter('a', null)).toEqual([]); // least recently written went first
    await log.appendAndPublish('d', 'c', Array.from({ length: 10 }, (_, i) => upd(i)));
    expect(log.stats().messages).toBeLessThanOrEqual(15);
    now += 2_000; // everyone idle
    await log.appendAndPublish('e', 'c', [upd(1)]);
    expect(log.stats()).toEqual({ users: 1, messages: 1 });
    // Ids keep increasing even when the clock goes back.
    const [before] = await log.appendAndPublish('e', 'c', [upd(2)]);
    now -= 10_000;
    const [after] = await log.appendAndPublish('e', 'c', [upd(3)]);
    expect(compareLogIds(before, after)).toBeLessThan(0);
  });
});

const reachable = await redisReachable();
describeWithRedis('RedisUpdateLog (Redis Streams over TCP)', reachable, () => {
  const prefix = runPrefix('updlog');
  let handle: RedisClientHandle;
  let bus: RedisBus;
  let raw: IORedis;
  beforeAll(() => {
    handle = createTcpRedisClient(testRedisUrl);
    bus = new RedisBus(testRedisUrl);
    raw = new IORedis(testRedisUrl);
  });
  afterAll(async () => {
    await deleteKeysWithPrefix(raw, prefix);
    raw.disconnect();
    await bus.close();
    await handle.close();
  });
  logContract(() => ({ log: new RedisUpdateLog(() => handle.client, 'redis', { maxLen: 1000, maxAgeMs: 900_000 }), bus, prefix }));

  it('sets the key to expire after the max age, so idle users cost nothing', async () => {
    const log = new RedisUpdateLog(() => handle.client, 'redis', { maxLen: 1000, maxAgeMs: 900_000 });
    await log.appendAndPublish(`${prefix}ttl`, `${prefix}c`, [upd(1)]);
    const ttl = await raw.pttl(`${prefix}ttl`);
    expect(ttl).toBeGreaterThan(890_000);
    expect(ttl).toBeLessThanOrEqual(900_000);
  });

  it('trims entries older than the max age (MINID)', async () => {
    const log = new RedisUpdateLog(() => handle.client, 'redis', { maxLen: 1000, maxAgeMs: 50 });
    const key = `${prefix}age`;
    await log.appendAndPublish(key, `${prefix}c`, [upd(1)]);
    await new Promise((r) => setTimeout(r, 120));
    await log.appendAndPublish(key, `${prefix}c`, [upd(2)]);
    const left = await log.readAfter(key, null);
    expect(left.map((e) => JSON.parse(e.update).data.n)).toEqual([2]);
  });
});
