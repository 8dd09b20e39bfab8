// The group read of concurrent events (lib/progress/user-state.ts) answers each
// caller exactly what its own readForEvent answers: the sequence number, the
// stored answer of its key (none for another user's key, or unkeyed), only the
// records of its missions, its attributes; users with nothing stored read as
// new. Direct, with a database (PGlite in process, or PostgreSQL with
// DATABASE_URL), no server.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import { appUsers, idempotencyKeys, progress, userSequences } from '@/db/schema';
import { testServiceContext } from '@/lib/testing/service-context';
import { uniqueId } from '@/lib/testing/test-env';
import { batchedReadForEvent, readForEvent, readForEvents, type EventReadInput } from './user-state';

let db: Db;
const app = uniqueId('app');

beforeAll(async () => {
  db = (await testServiceContext('read-batch')).db;
  const row = (userId: string, missionId: string, currentCount: number, state: unknown = null) => ({
    appId: app, userId, missionId, status: 'active' as const, currentCount, targetCount: 5, windowStart: 0, cycle: 0, updatedAt: 1_000 + currentCount, ...(state ? { state: state as never } : {}),
  });
  await db.insert(progress).values([row('u1', 'm1', 1), row('u1', 'm2', 2), row('u1', 'm3', 3), row('u2', 'm1', 4, { sum: '2.5' }), row('u,3', 'm1', 1)]);
  await db.insert(userSequences).values([{ appId: app, userId: 'u1', seq: 7 }, { appId: app, userId: 'u2', seq: 9 }]);
  await db.insert(appUsers).values([{ appId: app, userId: 'u1', firstSeenAt: 1, lastSeenAt: 2, events: 3, attributes: { timezone: 'Asia/Tokyo', tier: 2 } }]);
  await db.insert(idempotencyKeys).values([
    { appId: app, userId: 'u1', key: 'k "quoted" \\ one', requestHash: 'h1', status: 200, response: '{"accepted":true}', createdAt: 1 },
    { appId: app, userId: 'u2', key: 'NULL', requestHash: 'h2', status: 200, response: '{"accepted":true}', createdAt: 1 },
  ]);
});

const inputs: EventReadInput[] = [
  { scope: { appId: app, userId: 'u1' }, key: 'k "quoted" \\ one', missionIds: ['m1', 'm3'] },
  { scope: { appId: app, userId: 'u2' }, key: 'NULL', missionIds: ['m1', 'm2'] },
  { scope: { appId: app, userId: 'u2' }, key: null, missionIds: ['m2'] },
  { scope: { appId: app, userId: 'nobody' }, key: 'k "quoted" \\ one', missionIds: ['m1'] },
  { scope: { appId: 'other-app', userId: 'u1' }, key: null, missionIds: ['m1', 'm2', 'm3'] },
  { scope: { appId: app, userId: 'u1' }, key: null, missionIds: ['m2'] },
];

describe('the group read of events', () => {
  it('readForEvents answers each input what readForEvent answers it alone', async () => {
    const alone = [];
    for (const r of inputs) alone.push(await readForEvent(db, r.scope, r.key, r.missionIds));
    expect(await readForEvents(db, inputs)).toEqual(alone);
    // What was stored is what comes back (not just the same emptiness twice).
    expect(alone[0]).toMatchObject({ seq: 7, stored: { hash: 'h1', status: 200 }, attributes: { timezone: 'Asia/Tokyo', tier: 2 } });
    expect([...alone[0].records.keys()].sort()).toEqual(['m1', 'm3']);
    expect(alone[1]).toMatchObject({ seq: 9, stored: { hash: 'h2' } });
    expect(alone[1].records.get('m1')).toMatchObject({ userId: 'u2', currentCount: 4, state: { sum: '2.5' } });
    expect(alone[2].stored).toBeNull();
    expect(alone[3]).toEqual({ seq: null, seqAt: null, stored: null, records: new Map(), attributes: {} });
    expect(alone[4].records.size).toBe(0);
  });

  it('a user id with a comma, and reads issued together through the batcher, answer their own rows', async () => {
    const comma = { scope: { appId: app, userId: 'u,3' }, key: null, missionIds: ['m1'] };
    const together = await Promise.all([...inputs, comma].map((r) => batchedReadForEvent(db, r)));
    const alone = [];
    for (const r of [...inputs, comma]) alone.push(await readForEvent(db, r.scope, r.key, r.missionIds));
    expect(together).toEqual(alone);
    expect(together[6].records.get('m1')).toMatchObject({ userId: 'u,3', currentCount: 1 });
  });
});
