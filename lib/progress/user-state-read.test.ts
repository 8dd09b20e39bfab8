// The recommendation refresh's one read (user-state.ts readUserState): every record of
// the user and the user's attributes, as reading them apart
// (readRecords, readAttributes) answers them; reads of several users
// issued together leave as one statement and each gets its own rows. Direct,
// with a database (PGlite in process, or PostgreSQL with DATABASE_URL), no
// server.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import { appUsers, progress } from '@/db/schema';
import { readRecords } from './records';
import { testServiceContext } from '@/lib/testing/service-context';
import { uniqueId } from '@/lib/testing/test-env';
import { readAttributes } from '@/lib/users/attributes';
import { readUserState, readUserStates } from './user-state';

let db: Db;
const app = uniqueId('app');

beforeAll(async () => {
  db = (await testServiceContext('read-user-state')).db;
  const row = (userId: string, missionId: string, currentCount: number, state: unknown = null) => ({
    appId: app, userId, missionId, status: 'active' as const, currentCount, targetCount: 5, windowStart: 3_000_000_000_000, cycle: 2, updatedAt: 1_000 + currentCount, ...(state ? { state: state as never } : {}),
  });
  await db.insert(progress).values([row('u1', 'm1', 1), row('u1', 'm2', 2, { days: ['2026-11-27'] }), row('u,2', 'm1', 4)]);
  await db.insert(progress).values([{ ...row('other', 'm1', 5), appId: 'other-app' }]);
  await db.insert(appUsers).values([{ appId: app, userId: 'u1', firstSeenAt: 1, lastSeenAt: 2, events: 3, attributes: { timezone: 'Asia/Tokyo', tier: 2 } }]);
});

const scopes = [
  { appId: app, userId: 'u1' },
  { appId: app, userId: 'u,2' },
  { appId: app, userId: 'nobody' },
  { appId: app, userId: 'other' },
];

async function alone(scope: { appId: string; userId: string }) {
  return { records: await readRecords(db, scope.appId, scope.userId), attributes: await readAttributes(db, scope.appId, scope.userId) };
}

describe("the recommendation refresh's read of a user", () => {
  it('answers each user what readRecords and readAttributes answer', async () => {
    const expected = [];
    for (const s of scopes) expected.push(await alone(s));
    expect(await readUserStates(db, scopes)).toEqual(expected);
    // What was stored comes back (not the same emptiness twice).
    expect([...expected[0]!.records.keys()].sort()).toEqual(['m1', 'm2']);
    expect(expected[0]!.records.get('m2')).toMatchObject({ userId: 'u1', currentCount: 2, windowStart: 3_000_000_000_000, cycle: 2, state: { days: ['2026-11-27'] } });
    expect(expected[0]!.attributes).toEqual({ timezone: 'Asia/Tokyo', tier: 2 });
    expect(expected[1]!.records.get('m1')).toMatchObject({ userId: 'u,2', currentCount: 4 });
    expect(expected[2]).toEqual({ records: new Map(), attributes: {} });
    expect(expected[3]!.records.size).toBe(0);
  });

  it('reads issued together through the batcher answer their own rows', async () => {
    const together = await Promise.all([...scopes, scopes[0]!].map((s) => readUserState(db, s)));
    const expected = [];
    for (const s of [...scopes, scopes[0]!]) expected.push(await alone(s));
    expect(together).toEqual(expected);
  });
});
