// Retention against the real database (PostgreSQL when DATABASE_URL is set,
// else the embedded PGlite): old idempotency rows, events and rollups go in
// batches, recent ones stay. Rows are dated in the far past, so other test
// files sharing the database keep theirs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { closeDb, getDb } from '@/db/client';
import { analyticsRollups, events, idempotencyKeys, staffGrantUsage } from '@/db/schema';
import { bucketOf } from '@/lib/analytics/rollups';
import { prepareTestEnv, uniqueId } from '@/lib/testing/test-env';
import { retentionSettings, runRetention } from './retention';

const DAY = 86_400_000;
// Opening the embedded database (and migrating it) can take a while on a loaded machine.
beforeAll(async () => {
  prepareTestEnv();
  await getDb();
}, 240_000);
afterAll(async () => {
  if (!process.env.DATABASE_URL) await closeDb();
});

describe('retention', () => {
  it('deletes idempotency rows past 24 h, events past the retention period and old rollups, in batches, keeping the rest', async () => {
    const db = await getDb();
    const appId = uniqueId('retain');
    const now = Date.now();
    const ages = [{ age: 0 }, { age: 1 }, { age: 2 }];
    await db.insert(idempotencyKeys).values([
      ...ages.map((a, i) => ({ appId, userId: 'u', key: `old-${i}`, requestHash: 'h', status: 200, response: '{}', createdAt: now - DAY - 60_000 - a.age })),
      { appId, userId: 'u', key: 'fresh', requestHash: 'h', status: 200, response: '{}', createdAt: now - 60_000 },
    ]);
    await db.insert(events).values([
      ...ages.map((a, i) => ({ id: uniqueId(`evt-old-${i}`), appId, userId: 'u', name: 'play', payload: {}, timestamp: 1, source: 'api', receivedAt: now - 91 * DAY - a.age })),
      { id: uniqueId('evt-recent'), appId, userId: 'u', name: 'play', payload: {}, timestamp: 1, source: 'api', receivedAt: now - 89 * DAY },
    ]);
    await db.insert(analyticsRollups).values([
      ...ages.map((a) => ({ appId, bucketStart: bucketOf(now - 401 * DAY) - a.age * 60_000, kind: 'event' as const, key: 'play', shard: 0, count: 1, amount: 0 })),
      { appId, bucketStart: bucketOf(now - 399 * DAY), kind: 'event' as const, key: 'play', shard: 0, count: 1, amount: 0 },
    ]);

    const result = await runRetention(db, { eventDays: 90, analyticsDays: 400, batch: 2 }, now);
    // Other files' rows are recent; at least ours went.
    expect(result.idempotencyKeys).toBeGreaterThanOrEqual(3);
    expect(result.events).toBeGreaterThanOrEqual(3);
    expect(result.rollups).toBeGreaterThanOrEqual(3);

    const left = async (table: typeof idempotencyKeys | typeof events | typeof analyticsRollups) =>
      Number((await db.select({ n: count() }).from(table).where(eq(table.appId, appId)))[0].n);
    expect([await left(idempotencyKeys), await left(events), await left(analyticsRollups)]).toEqual([1, 1, 1]);
    const [kept] = await db.select({ key: idempotencyKeys.key }).from(idempotencyKeys).where(and(eq(idempotencyKeys.appId, appId)));
    expect(kept.key).toBe('fresh');
    // Nothing left to do: a second pass deletes none of ours.
    await runRetention(db, { eventDays: 90, analyticsDays: 400, batch: 2 }, now);
    expect([await left(idempotencyKeys), await left(events), await left(analyticsRollups)]).toEqual([1, 1, 1]);
  }, 120_000);

  it("deletes staff grant usage from before yesterday (UTC), which counts toward no day's grant limit, and keeps yesterday's and today's", async () => {
    const db = await getDb();
    const appId = uniqueId('retain-usage');
    const now = Date.now();
    const today = now - (now % DAY);
    const row = (at: number) => ({ appId, actor: 'staff:ana@example.com', currency: 'gold', amount: 10, at });
    // Three from before yesterday (one a millisecond before it began), one at yesterday's first millisecond, one today.
    await db.insert(staffGrantUsage).values([row(today - 3 * DAY), row(today - 2 * DAY), row(today - DAY - 1), row(today - DAY), row(today)]);
    const result = await runRetention(db, { eventDays: 90, analyticsDays: 400, batch: 2 }, now);
    expect(result.grantUsage).toBeGreaterThanOrEqual(3);
    const left = await db.select({ at: staffGrantUsage.at }).from(staffGrantUsage).where(eq(staffGrantUsage.appId, appId)).orderBy(staffGrantUsage.at);
    expect(left.map((r) => r.at)).toEqual([today - DAY, today]);
  }, 120_000);

  it('reads its settings from the environment, with defaults, and refuses nonsense', () => {
    const saved = { ...process.env };
    try {
      delete process.env.EVENT_RETENTION_DAYS;
      delete process.env.RETENTION_INTERVAL_MS;
      expect(retentionSettings()).toMatchObject({ eventDays: 90, analyticsDays: 400, intervalMs: 3_600_000 });
      process.env.EVENT_RETENTION_DAYS = '30';
      process.env.RETENTION_INTERVAL_MS = '0';
      expect(retentionSettings()).toMatchObject({ eventDays: 30, intervalMs: 0 });
      process.env.EVENT_RETENTION_DAYS = 'soon';
      expect(() => retentionSettings()).toThrow(/EVENT_RETENTION_DAYS/);
    } finally {
      process.env = saved;
    }
  });
});
