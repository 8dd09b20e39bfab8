// Group commit (write-batch.ts, write-event.ts writeEvents) on a real
// database: writes of different users issued together leave as one
// statement, and each caller gets the outcome its own writeEvent would give:
// written (first sequence number or a bump), stale (sequence moved, or a
// first insert that lost), key-taken (with or without records); a stale or
// key-taken row writes nothing and does not stop the others; rollup rows
// shared by the group are summed; a row that makes the statement fail fails
// alone; one user twice goes in two groups, in order. On PostgreSQL: the
// group takes its users' sequence rows in (app, user) order, whatever order
// its writes came in (the order a webhook delivery locks its users in).
import { and, eq, inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { analyticsRollups, appUsers, events, progress } from '@/db/schema';
import { eventRollups, rollupRows } from '@/lib/analytics/rollups';
import type { ProgressRecord } from '@/lib/missions/schema';
import { createTestApp, startTestServer, uniqueId, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { groupCommitStats, groupedWriteEvent } from './write-batch';
import { writeEvent, writeEvents, type EventWrite } from './write-event';

const postgres = Boolean(process.env.DATABASE_URL?.startsWith('postgres'));

let server: TestServer;
let app: TestApp;

beforeAll(async () => {
  server = await startTestServer();
  app = await createTestApp(server, { missions: [] });
});
afterAll(async () => {
  await server?.close();
});

const AT = Date.now();
const NAME = `grp_${Date.now().toString(36)}`;

function record(userId: string, count: number): ProgressRecord {
  return { userId, missionId: 'm-grp', status: 'active', currentCount: count, targetCount: 10, windowStart: 0, cycle: 1, updatedAt: AT };
}

function write(userId: string, opts: { count?: number; expectedSeq?: number | null; key?: string | null }): EventWrite {
  const key = opts.key ?? null;
  return {
    eventId: `evt_${uniqueId('g')}`,
    name: NAME,
    payload: { userId },
    timestamp: AT,
    idempotencyKey: key,
    source: 'api',
    receivedAt: AT,
    keyRow: key === null ? null : { key: `event:${key}`, requestHash: 'h', status: 200, response: '{"accepted":true}' },
    outcome: [],
    rollups: rollupRows({ appId: app.appId, userId, at: AT, deltas: eventRollups(NAME, []) }),
    records: opts.count === undefined ? [] : [record(userId, opts.count)],
    expectedSeq: opts.expectedSeq ?? null,
  };
}

describe('group commit of concurrent event writes', () => {
  it('answers each write of one group its own outcome and writes only the written ones', async () => {
    const db = await getDb();
    const u = Array.from({ length: 8 }, () => uniqueId('grp'));
    const scope = (userId: string) => ({ appId: app.appId, userId });
    // u1, u2: sequence 1 already; u3 owns the key 'taken'; u5 has sequence 1 (a first insert for it loses).
    for (const userId of [u[1]!, u[2]!, u[5]!]) expect((await writeEvent(db, scope(userId), write(userId, { count: 1 }))).kind).toBe('written');
    expect((await writeEvent(db, scope(u[3]!), write(u[3]!, { key: 'taken' }))).kind).toBe('written');
    const before = { ...groupCommitStats };
    const writes = [
      write(u[0]!, { count: 1, key: 'a' }), // first sequence number, keyed
      write(u[1]!, { count: 2, expectedSeq: 1 }), // a bump
      write(u[2]!, { count: 2, expectedSeq: 7 }), // stale
      write(u[3]!, { key: 'taken' }), // key taken, no records
      write(u[4]!, {}), // nothing to save, no key
      write(u[5]!, { count: 2, expectedSeq: null }), // a first insert that lost: stale
      write(u[6]!, { count: 1, key: 'b' }),
      write(u[7]!, { count: 1 }),
    ];
    const outcomes = await Promise.all(writes.map((w, i) => groupedWriteEvent(db, scope(u[i]!), w)));
    expect(outcomes).toEqual([
      { kind: 'written', seq: 1, notified: 0 },
      { kind: 'written', seq: 2, notified: 0 },
      { kind: 'stale' },
      { kind: 'key-taken', seq: null },
      { kind: 'written', seq: null, notified: 0 },
      { kind: 'stale' },
      { kind: 'written', seq: 1, notified: 0 },
      { kind: 'written', seq: 1, notified: 0 },
    ]);
    expect(groupCommitStats.groups - before.groups).toBe(1);
    expect(groupCommitStats.writes - before.writes).toBe(8);
    const stored = await db.select({ id: events.id }).from(events).where(inArray(events.id, writes.map((w) => w.eventId)));
    expect(stored.map((r) => r.id).sort()).toEqual([0, 1, 4, 6, 7].map((i) => writes[i]!.eventId).sort());
    const rows = await db.select({ userId: progress.userId, n: progress.currentCount }).from(progress).where(and(eq(progress.appId, app.appId), inArray(progress.userId, u)));
    expect(Object.fromEntries(rows.map((r) => [r.userId, r.n]))).toEqual({ [u[0]!]: 1, [u[1]!]: 2, [u[2]!]: 1, [u[5]!]: 1, [u[6]!]: 1, [u[7]!]: 1 });
    const seen = await db.select({ userId: appUsers.userId, n: appUsers.events }).from(appUsers).where(and(eq(appUsers.appId, app.appId), inArray(appUsers.userId, u)));
    expect(Object.fromEntries(seen.map((r) => [r.userId, Number(r.n)]))).toEqual({ [u[0]!]: 1, [u[1]!]: 2, [u[2]!]: 1, [u[3]!]: 1, [u[4]!]: 1, [u[5]!]: 1, [u[6]!]: 1, [u[7]!]: 1 });
    // The event rollups of this name: 4 single writes before, 5 written in the group (summed per rollup row).
    const [{ total }] = await db
      .select({ total: sql<string>`coalesce(sum(${analyticsRollups.count}), 0)` })
      .from(analyticsRollups)
      .where(and(eq(analyticsRollups.appId, app.appId), eq(analyticsRollups.kind, 'event'), eq(analyticsRollups.key, NAME)));
    expect(Number(total)).toBe(9);
  });

  it('fails only the write that makes the group statement fail; the others are written', async () => {
    const db = await getDb();
    const users = Array.from({ length: 4 }, () => uniqueId('gbad'));
    // A payload with a NUL character: PostgreSQL's jsonb refuses it, so the group's statement fails, and so does that write alone.
    const before = { ...groupCommitStats };
    const results = await Promise.allSettled(
      users.map((userId, i) => groupedWriteEvent(db, { appId: app.appId, userId }, { ...write(userId, { count: 1 }), ...(i === 2 ? { payload: { bad: 'a\u0000b' } } : {}) })),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(groupCommitStats.fallbacks - before.fallbacks).toBe(1);
    const rows = await db.select({ userId: progress.userId }).from(progress).where(and(eq(progress.appId, app.appId), inArray(progress.userId, users)));
    expect(rows.map((r) => r.userId).sort()).toEqual([users[0], users[1], users[3]].sort());
  });

  it('puts one user twice in two groups, in order: the second write of the same expected sequence is stale, the same key is taken', async () => {
    const db = await getDb();
    const userId = uniqueId('gtwice');
    const other = uniqueId('gtwice');
    const s = { appId: app.appId, userId };
    const outcomes = await Promise.all([
      groupedWriteEvent(db, s, write(userId, { count: 1, key: 'same' })),
      groupedWriteEvent(db, { appId: app.appId, userId: other }, write(other, { count: 1 })),
      groupedWriteEvent(db, s, write(userId, { count: 1, key: 'same' })),
      groupedWriteEvent(db, s, write(userId, { key: 'same' })),
    ]);
    expect(outcomes).toEqual([{ kind: 'written', seq: 1, notified: 0 }, { kind: 'written', seq: 1, notified: 0 }, { kind: 'stale' }, { kind: 'key-taken', seq: null }]);
  });

  it.skipIf(!postgres)('takes the sequence rows of a group in (app, user) order, not in the order its writes came', async () => {
    const db = await getDb();
    const base = uniqueId('gord');
    const [first, second] = [`${base}-a`, `${base}-b`];
    // `second`'s row is made first, and the group lists it first: the query plan's order (table or input) would take it first.
    for (const userId of [second, first]) expect((await writeEvent(db, { appId: app.appId, userId }, write(userId, { count: 1 }))).kind).toBe('written');
    const blocker = new pg.Client({ connectionString: process.env.DATABASE_URL });
    const watcher = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await Promise.all([blocker.connect(), watcher.connect()]);
    const rowLock = `select 1 from user_sequences where app_id = $1 and user_id = $2 for update`;
    try {
      const blockerPid = (await blocker.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      await blocker.query('begin');
      await blocker.query(rowLock, [app.appId, first]);
      // The group lists `second` before `first`: taken in the order given, `second` would be locked while it waits for `first`.
      const group = writeEvents(db, [
        { scope: { appId: app.appId, userId: second }, write: write(second, { count: 2, expectedSeq: 1 }) },
        { scope: { appId: app.appId, userId: first }, write: write(first, { count: 2, expectedSeq: 1 }) },
      ]);
      const deadline = Date.now() + 60_000;
      for (;;) {
        const { rows } = await watcher.query(`select 1 from pg_stat_activity where datname = current_database() and $1::int = any(pg_blocking_pids(pid))`, [blockerPid]);
        if (rows.length > 0) break;
        if (Date.now() > deadline) throw new Error('timed out waiting for the group to wait on the blocker');
        await new Promise((r) => setTimeout(r, 25));
      }
      // While the group waits for `first`, it holds nothing of `second`: another transaction locks it at once.
      await watcher.query('begin');
      await watcher.query(`${rowLock} nowait`, [app.appId, second]);
      await watcher.query('rollback');
      await blocker.query('commit');
      expect(await group).toEqual([
        { kind: 'written', seq: 2, notified: 0 },
        { kind: 'written', seq: 2, notified: 0 },
      ]);
    } finally {
      await blocker.query('rollback').catch(() => undefined);
      await watcher.query('rollback').catch(() => undefined);
      await Promise.all([blocker.end(), watcher.end()]);
    }
  });
});
