// The one cache of a user's state (lib/progress/user-state.ts): how far each
// reader trusts an entry, and the one invalidation story. Direct, with a
// database (PGlite in process, or PostgreSQL with DATABASE_URL), no server.
import { beforeAll, describe, expect, it } from 'vitest';
import { eq, and } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { progress, userSequences } from '@/db/schema';
import { testServiceContext } from '@/lib/testing/service-context';
import { uniqueId } from '@/lib/testing/test-env';
import type { ProgressRecord } from './record';
import { cachedForEvent, forgetUserState, rememberEventState, userChanged, userStateAt } from './user-state';

let db: Db;
const app = uniqueId('app');

const record = (userId: string, missionId: string, currentCount: number): ProgressRecord => ({
  userId, missionId, status: 'active', currentCount, targetCount: 5, windowStart: 0, cycle: 0, updatedAt: 1_000 + currentCount,
});

beforeAll(async () => {
  db = (await testServiceContext('user-state-cache')).db;
});

async function store(userId: string, seq: number, records: ProgressRecord[]): Promise<void> {
  await db.insert(userSequences).values({ appId: app, userId, seq });
  await db.insert(progress).values(records.map((r) => ({ appId: app, ...r, state: null })));
}

/** Changes a stored count behind the cache's back, without bumping the number (what no real writer does). */
async function changeQuietly(userId: string, missionId: string, currentCount: number): Promise<void> {
  await db.update(progress).set({ currentCount }).where(and(eq(progress.appId, app), eq(progress.userId, userId), eq(progress.missionId, missionId)));
}

describe("the event path's trust", () => {
  it('an entry covering the missions answers; one missing a mission does not', () => {
    const user = uniqueId('u');
    rememberEventState(app, user, { readSeq: 1, seq: 2, seqAt: null }, ['m1', 'm2'], new Map([['m1', record(user, 'm1', 1)]]), [record(user, 'm1', 2)], { tier: 1 });
    const hit = cachedForEvent(app, user, ['m1', 'm2']);
    expect(hit).toEqual({ seq: 2, seqAt: null, records: new Map([['m1', record(user, 'm1', 2)]]), attributes: { tier: 1 } });
    expect(cachedForEvent(app, user, ['m1', 'm3'])).toBeUndefined();
  });

  it("a full read answers every mission, those without a record as none", async () => {
    const user = uniqueId('u');
    await store(user, 4, [record(user, 'm1', 3)]);
    await userStateAt(db, app, user, undefined);
    expect(cachedForEvent(app, user, ['m1', 'never'])).toEqual({ seq: 4, seqAt: null, records: new Map([['m1', record(user, 'm1', 3)]]), attributes: {} });
  });
});

describe("the mission list's trust", () => {
  it('answers from the cache only while the number matches the update log’s', async () => {
    const user = uniqueId('u');
    await store(user, 7, [record(user, 'm1', 1)]);
    expect((await userStateAt(db, app, user, undefined)).records.get('m1')?.currentCount).toBe(1);
    await changeQuietly(user, 'm1', 2);
    // Same number: the cached state (the quiet change is invisible, which proves the cache answered).
    expect((await userStateAt(db, app, user, 7)).records.get('m1')?.currentCount).toBe(1);
    // Another number, or none known: the database.
    expect((await userStateAt(db, app, user, 8)).records.get('m1')?.currentCount).toBe(2);
    await changeQuietly(user, 'm1', 3);
    expect((await userStateAt(db, app, user, undefined)).records.get('m1')?.currentCount).toBe(3);
  });

  it("does not take an event's entry that holds only some records", async () => {
    const user = uniqueId('u');
    await store(user, 3, [record(user, 'm1', 1), record(user, 'm2', 4)]);
    rememberEventState(app, user, { readSeq: 2, seq: 3, seqAt: null }, ['m1'], new Map(), [record(user, 'm1', 1)], {});
    expect([...(await userStateAt(db, app, user, 3)).records.keys()].sort()).toEqual(['m1', 'm2']);
  });

  it("keeps a full entry full through an event's write at the number it was read at", async () => {
    const user = uniqueId('u');
    await store(user, 5, [record(user, 'm1', 1), record(user, 'm2', 4)]);
    await userStateAt(db, app, user, undefined);
    rememberEventState(app, user, { readSeq: 5, seq: 6, seqAt: null }, ['m1'], new Map([['m1', record(user, 'm1', 1)]]), [record(user, 'm1', 2)], {});
    await changeQuietly(user, 'm2', 0);
    const state = await userStateAt(db, app, user, 6);
    expect(state.records.get('m1')?.currentCount).toBe(2);
    expect(state.records.get('m2')?.currentCount).toBe(4);
  });
});

describe('invalidation', () => {
  it("a publication of this instance drops an entry older than its change and keeps one at or past it", () => {
    const user = uniqueId('u');
    rememberEventState(app, user, { readSeq: 1, seq: 2, seqAt: null }, ['m1'], new Map(), [record(user, 'm1', 1)], {});
    userChanged(app, user, 2);
    expect(cachedForEvent(app, user, ['m1'])).toBeDefined();
    userChanged(app, user, 1);
    expect(cachedForEvent(app, user, ['m1'])).toBeDefined();
    userChanged(app, user, 3);
    expect(cachedForEvent(app, user, ['m1'])).toBeUndefined();
  });

  it('forgetUserState drops the entry for every reader', async () => {
    const user = uniqueId('u');
    await store(user, 2, [record(user, 'm1', 1)]);
    await userStateAt(db, app, user, undefined);
    await changeQuietly(user, 'm1', 5);
    forgetUserState(app, user);
    expect(cachedForEvent(app, user, ['m1'])).toBeUndefined();
    expect((await userStateAt(db, app, user, 2)).records.get('m1')?.currentCount).toBe(5);
  });

  it('an older state stored after a newer one does not replace it', () => {
    const user = uniqueId('u');
    rememberEventState(app, user, { readSeq: 4, seq: 5, seqAt: null }, ['m1'], new Map(), [record(user, 'm1', 5)], {});
    rememberEventState(app, user, { readSeq: 2, seq: 3, seqAt: null }, ['m1'], new Map(), [record(user, 'm1', 3)], {});
    expect(cachedForEvent(app, user, ['m1'])?.seq).toBe(5);
  });
});
