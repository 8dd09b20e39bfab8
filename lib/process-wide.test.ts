// Next.js compiles the instrumentation hook and each route into chunks with
// their own copy of every module (and class). vi.resetModules() gives the
// same situation in one process: "chunk A" builds the process-wide objects
// at boot, "chunk B" (a route) uses them. Nothing may depend on class
// identity or module state across the two.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { describeWithRedis, redisReachable, testRedisUrl } from '@/lib/kv/testing';
import { waitUntil } from '@/lib/testing/faults';

const reachable = await redisReachable();

describeWithRedis('process-wide objects across module copies (Next.js chunks) on Redis', reachable, () => {
  beforeAll(() => {
    process.env.REDIS_URL = testRedisUrl;
  });
  afterAll(async () => {
    const { closeKv } = await import('@/lib/kv');
    await closeKv();
  });

  it('a limiter resolved in one chunk counts in Redis even though another chunk built the key-value store', async () => {
    vi.resetModules();
    const chunkA = await import('@/lib/kv');
    const kv = chunkA.getKv(); // the boot (instrumentation chunk) builds the store first
    expect(kv.kind).toBe('redis');
    vi.resetModules();
    const chunkB = await import('@/lib/ratelimit');
    const chunkBKv = await import('@/lib/kv');
    // Two copies, as in a Next.js build: same store object, different classes.
    expect(chunkBKv.getKv()).toBe(kv);
    expect(chunkBKv.UpstashKv).not.toBe(chunkA.UpstashKv);

    const name = `test-chunks-${randomUUID().slice(0, 8)}`;
    const limiter = chunkB.createLimiter({ name, limit: 3, windowMs: 60_000 });
    const results = [];
    for (let i = 0; i < 5; i++) results.push((await limiter.consume('one-token')).success);
    expect(results).toEqual([true, true, true, false, false]);

    // The counts are in Redis, where every instance sees them: a limiter on a connection of its own agrees.
    const { createTcpRedisClient } = await import('@/lib/kv/clients');
    const own = createTcpRedisClient(testRedisUrl);
    try {
      const elsewhere = new chunkB.UpstashLimiter({ redis: own.client, limit: 3, windowMs: 60_000, prefix: `rl:${name}` });
      expect((await elsewhere.peek('one-token')).remaining).toBe(0);
    } finally {
      await own.close();
    }
  });
});

describe('process-wide objects across module copies (Next.js chunks), in process', () => {
  it('processWide answers every copy of the module the same object (configuration, streams, catalog cache, warm-up use it)', async () => {
    vi.resetModules();
    const a = await import('@/lib/process-wide');
    vi.resetModules();
    const b = await import('@/lib/process-wide');
    expect(a.processWide).not.toBe(b.processWide);
    const made = { created: 1 };
    expect(a.processWide('test-slot', () => made)).toBe(made);
    expect(b.processWide('test-slot', () => ({ created: 2 }))).toBe(made);
  });
});

describe('record caches across module copies (Next.js chunks)', () => {
  it("a forget from one route's copy clears the entry another route's copy would answer", async () => {
    vi.resetModules();
    const eventsRoute = await import('@/lib/progress/user-state');
    vi.resetModules();
    const claimRoute = await import('@/lib/progress/user-state');
    expect(claimRoute.forgetUserState).not.toBe(eventsRoute.forgetUserState);
    const user = `chunks-${randomUUID()}`;
    eventsRoute.rememberEventState('app', user, { readSeq: 1, seq: 1, seqAt: null }, ['m1'], new Map(), [], {});
    expect(eventsRoute.cachedForEvent('app', user, ['m1'])).toBeDefined();
    claimRoute.forgetUserState('app', user);
    expect(eventsRoute.cachedForEvent('app', user, ['m1'])).toBeUndefined();
  });
});

describe('the repair list across module copies (Next.js chunks)', () => {
  afterAll(async () => {
    vi.restoreAllMocks();
    const { closeKv } = await import('@/lib/kv');
    await closeKv();
  });

  it("a drain started by one chunk's copy is pending in another's figures until it is over", async () => {
    vi.resetModules();
    const publisher = await import('@/lib/updates/resync');
    const log = (await import('@/lib/updates/log')).getUpdateLog();
    // The drain's first step (is Redis back?) waits until the test lets it go.
    let release: (err: Error) => void = () => {};
    const held = new Promise<never>((_, reject) => (release = reject));
    const asked = vi.spyOn(log, 'publishedThrough').mockImplementation(() => held);
    publisher.noteUnlogged('chunks-app', `chunks-${randomUUID()}`);
    await waitUntil(() => asked.mock.calls.length > 0, 'the drain to start', 30_000);

    vi.resetModules();
    const reader = await import('@/lib/updates/resync');
    expect(reader.resyncFigures).not.toBe(publisher.resyncFigures);
    // The user is off the list and no check runs: only the drain in progress is pending.
    expect(reader.resyncFigures().repairsPending).toBe(1);

    // Not an outage: the repair of the user is given up (logged), and the drain ends.
    release(new Error('test: repair given up'));
    await waitUntil(() => reader.resyncFigures().repairsPending === 0, 'the drain to end', 30_000);
    expect(publisher.resyncFigures().repairsPending).toBe(0);
    expect(asked).toHaveBeenCalledTimes(1);
  });
});
