// The events table partitioned by day (db/event-partitions.ts) against the real
// database (PostgreSQL when DATABASE_URL is set, else the embedded PGlite):
// the layout a new database starts with, an event id unique across partitions,
// partitions made ahead (with the default partition's rows moved in), a day
// dropped whole by retention with the other days intact, and the in-place
// upgrade of a table from before partitioning. The days this file makes are
// far in the future, so other files sharing the database keep theirs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, sql } from 'drizzle-orm';
import { closeDb, getDb } from '@/db/client';
import {
  DAY_MS,
  PARTITIONS_AHEAD_DAYS,
  dayStart,
  dropEventPartitionsBefore,
  ensureEventPartitions,
  listEventPartitions,
  partitionName,
  upgradeEventsTable,
  type Exec,
} from '@/db/event-partitions';
import { events } from '@/db/schema';
import { newEventId } from '@/lib/events/event-id';
import { prepareTestEnv, uniqueId } from '@/lib/testing/test-env';

beforeAll(async () => {
  prepareTestEnv();
  await getDb();
}, 240_000);
afterAll(async () => {
  if (!process.env.DATABASE_URL) await closeDb();
});

const row = (appId: string, at: number, id = newEventId(at)) => ({ id, appId, userId: 'u', name: 'play', payload: {}, timestamp: at, source: 'api', receivedAt: at });

function codeOf(err: unknown): string | undefined {
  for (let e = err as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) if (e.code) return e.code;
  return undefined;
}

describe('events partitioned by day', () => {
  it('starts partitioned (a new database): a default partition and days created a week ahead, no legacy partition', async () => {
    const db = await getDb();
    const parts = await listEventPartitions(db);
    const names = parts.map((p) => p.name);
    expect(names).not.toContain('events_legacy');
    expect(names).toContain('events_default');
    const today = dayStart(Date.now());
    for (let day = today; day <= today + PARTITIONS_AHEAD_DAYS * DAY_MS; day += DAY_MS) {
      expect(parts.some((p) => p.from !== null && p.to !== null && p.from <= day && p.to >= day + DAY_MS), new Date(day).toISOString()).toBe(true);
    }
    // Nothing missing: a second call creates nothing.
    expect(await ensureEventPartitions(db)).toEqual([]);
  });

  it('keeps an event id unique across partitions: the id carries its received_at, and each partition has its primary key', async () => {
    const db = await getDb();
    const appId = uniqueId('evid');
    const at = Date.now();
    const id = newEventId(at);
    expect(id).toMatch(/^evt_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    await db.insert(events).values(row(appId, at, id));
    await expect(db.insert(events).values(row(appId, at, id))).rejects.toSatisfy((e) => codeOf(e) === '23505');
    // The same id with another received_at (another day's partition) is refused by the check.
    await expect(db.insert(events).values(row(appId, at + 3 * DAY_MS, id))).rejects.toSatisfy((e) => codeOf(e) === '23514');
    const [{ n }] = await db.select({ n: count() }).from(events).where(eq(events.appId, appId));
    expect(Number(n)).toBe(1);
  });

  it('creates days ahead (moving the default partition’s rows of that day in), and retention drops a past day whole', async () => {
    const db = await getDb();
    const appId = uniqueId('days');
    // Three days far ahead that no other file writes to.
    const d0 = dayStart(Date.now()) + (400 + Math.floor(Math.random() * 20_000)) * DAY_MS;
    const d1 = d0 + DAY_MS;
    const d2 = d0 + 2 * DAY_MS;
    // Before their partitions exist, rows of those days land in the default partition.
    await db.insert(events).values([row(appId, d0 + 1_000), row(appId, d1 + 2_000), row(appId, d2 + 3_000)]);
    const inDefault = await db.execute(sql`select count(*)::int as n from events_default where app_id = ${appId}`);
    expect((inDefault as unknown as { rows: Array<{ n: number }> }).rows[0].n).toBe(3);
    const created = await ensureEventPartitions(db, d0, 2);
    expect(created).toEqual([partitionName(d0), partitionName(d1), partitionName(d2)]);
    const moved = await db.execute(sql`select count(*)::int as n from events_default where app_id = ${appId}`);
    expect((moved as unknown as { rows: Array<{ n: number }> }).rows[0].n).toBe(0);
    await db.insert(events).values([row(appId, d0 + 5_000), row(appId, d1 + 5_000)]);
    const perDay = async () => {
      const result = await db.execute(sql`select tableoid::regclass::text as part, count(*)::int as n from events where app_id = ${appId} group by 1 order by 1`);
      return (result as unknown as { rows: Array<{ part: string; n: number }> }).rows;
    };
    expect(await perDay()).toEqual([
      { part: partitionName(d0), n: 2 },
      { part: partitionName(d1), n: 2 },
      { part: partitionName(d2), n: 1 },
    ]);

    // Retention past d0's end: d0's partition goes whole; d1 and d2 stay.
    expect(await dropEventPartitionsBefore(db, d1 + 12 * 3_600_000, { from: d0 })).toEqual([partitionName(d0)]);
    expect(await perDay()).toEqual([
      { part: partitionName(d1), n: 2 },
      { part: partitionName(d2), n: 1 },
    ]);
    expect((await listEventPartitions(db)).map((p) => p.name)).not.toContain(partitionName(d0));
    // A row of the dropped day arriving late lands in the default partition, not lost.
    await db.insert(events).values(row(appId, d0 + 9_000));
    const [{ n }] = await db.select({ n: count() }).from(events).where(and(eq(events.appId, appId), eq(events.receivedAt, d0 + 9_000)));
    expect(Number(n)).toBe(1);
    await dropEventPartitionsBefore(db, d2 + DAY_MS, { from: d0 });
  });
});

/** The events table as migrations 0000–0021 left it (no partitions), in a database of its own. */
const OLD_TABLE = [
  `create table events (id text primary key not null, app_id text not null, user_id text not null, name text not null, payload jsonb not null,
    "timestamp" bigint not null, idempotency_key text, source text default 'api' not null, received_at bigint not null, outcome jsonb)`,
  `create index events_user_idx on events using btree (app_id, user_id, "timestamp")`,
  `create index events_app_received_idx on events using btree (app_id, received_at)`,
];

async function scratchDatabase(): Promise<{ exec: Exec; close: () => Promise<void> }> {
  if (process.env.DATABASE_URL) {
    const { default: pg } = await import('pg');
    const schema = `upgrade_${process.pid}_${Date.now()}`;
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.query(`set search_path = ${schema}`);
    return {
      exec: async (text) => (await client.query(text)).rows as Array<Record<string, unknown>>,
      close: async () => {
        await client.query(`drop schema ${schema} cascade`);
        await client.end();
      },
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const client = new PGlite();
  await client.waitReady;
  return { exec: async (text) => (await client.query<Record<string, unknown>>(text)).rows, close: () => client.close() };
}

describe('the upgrade of a table from before partitioning', () => {
  it('attaches the old table as a partition in place (no row rewritten), ids stay unique, new days follow', async () => {
    const { exec, close } = await scratchDatabase();
    try {
      for (const text of OLD_TABLE) await exec(text);
      const now = Date.now();
      // Old rows: UUIDv4 ids over the last 40 days, and one dated past the default boundary (a clock far off).
      await exec(`insert into events (id, app_id, user_id, name, payload, "timestamp", received_at)
        select 'evt_' || gen_random_uuid(), 'a', 'u' || (g % 7), 'play', '{}', ${now} - g::bigint * 3600000, ${now} - g::bigint * 3600000 from generate_series(0, 959) g`);
      await exec(`insert into events (id, app_id, user_id, name, payload, "timestamp", received_at) values ('evt_far', 'a', 'u', 'play', '{}', 1, ${now + 10 * DAY_MS})`);
      const before = await exec(`select ctid::text as c, id from events order by id`);

      const result = await upgradeEventsTable(exec, now);
      expect(result.upgraded).toBe(true);
      // The far row moved the boundary past it.
      expect(result.boundary).toBe(dayStart(now + 10 * DAY_MS) + 2 * DAY_MS);
      expect((await exec(`select relkind::text as k from pg_class where oid = to_regclass('events')`))[0].k).toBe('p');
      // In place: the same rows at the same places, now in the partition events_legacy.
      expect(await exec(`select ctid::text as c, id from events_legacy order by id`)).toEqual(before);
      expect(Number((await exec(`select count(*) as n from events`))[0].n)).toBe(961);
      // The old primary key still refuses an old id again.
      await expect(exec(`insert into events (id, app_id, user_id, name, payload, "timestamp", received_at) values ('${String(before[0].id)}', 'a', 'u', 'play', '{}', 1, ${now})`)).rejects.toSatisfy(
        (e) => codeOf(e) === '23505',
      );
      // Idempotent.
      expect((await upgradeEventsTable(exec, now)).upgraded).toBe(false);
      // Days past the boundary: created, and new events go there.
      const parts = await exec(`select c.relname::text as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = to_regclass('events') order by 1`);
      expect(parts.map((p) => p.name)).toEqual(['events_default', 'events_legacy']);
    } finally {
      await close();
    }
  }, 120_000);

  it('drops an empty table instead of attaching it (a new database): its days start at the upgrade', async () => {
    const { exec, close } = await scratchDatabase();
    try {
      for (const text of OLD_TABLE) await exec(text);
      expect((await upgradeEventsTable(exec)).upgraded).toBe(true);
      const parts = await exec(`select c.relname::text as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = to_regclass('events') order by 1`);
      expect(parts.map((p) => p.name)).toEqual(['events_default']);
      expect(await exec(`select to_regclass('events_legacy')::text as t`)).toEqual([{ t: null }]);
    } finally {
      await close();
    }
  }, 120_000);
});
