// The events table, partitioned by day of received_at (issue 43 §1;
// docs/operations/README.md, "Events partitioned by day").
//
// Layout: `events` is a PostgreSQL declaratively partitioned table (RANGE on
// received_at, Unix ms, UTC days). Its partitions:
// - `events_legacy`: the table as it was before the upgrade, attached for
//   (MINVALUE, B) where B is a UTC midnight (two days after the upgrade), so
//   the upgrade rewrites no row; a new database's (empty) table is dropped
//   instead, and its days start at the day of the upgrade;
// - `events_dYYYYMMDD`: one a day from B on, created ahead by the service
//   (ensureEventPartitions, at start and on every retention run);
// - `events_default`: what no other partition takes (a clock far off, a test's
//   fake clock); normally empty, its rows move into a day's partition when
//   that day's partition is created.
//
// Uniqueness of an event id: a unique index on a partitioned table must
// contain the partition key, so the parent has none; every partition has its
// own primary key on `id`, and every partition but the legacy one a CHECK that
// an id in the service's format (`evt_` + a UUIDv7, lib/events/event-id.ts)
// carries its row's received_at in its first 48 bits. Two rows with one such
// id therefore have one received_at, land in one partition and meet its
// primary key. The legacy partition's ids are UUIDv4 (version 4, never 7) and
// unique under its own primary key.
//
// The upgrade of an existing table (upgradeEventsTable) never holds a lock
// that stops ingestion for longer than a few catalog updates: the range check
// that lets the old table be attached without a scan is added NOT VALID (a
// moment's lock) and validated while inserts go on (SHARE UPDATE EXCLUSIVE),
// then one short transaction renames the table, creates the parent and
// attaches it.
import { sql, type SQL } from 'drizzle-orm';

/** The database or a transaction (db/client.ts DbOrTx, named structurally: client.ts imports this file). */
interface DbOrTx {
  execute(query: SQL): PromiseLike<unknown>;
  transaction<T>(run: (tx: DbOrTx) => Promise<T>): Promise<T>;
}

export const DAY_MS = 86_400_000;
/** Days of partitions kept created ahead of today. */
export const PARTITIONS_AHEAD_DAYS = 7;
const LOCK_TIMEOUT = '5s';
/** Serializes partition maintenance of instances running it together. */
const PARTITION_LOCK = 7_411_562_904;

/** One SQL text run on one connection, answering its rows. */
export type Exec = (text: string) => Promise<Array<Record<string, unknown>>>;

export function dayStart(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

export function partitionName(day: number): string {
  return `events_d${new Date(day).toISOString().slice(0, 10).replaceAll('-', '')}`;
}

/** An id in the service's format carries its received_at (lib/events/event-id.ts); other ids are not checked. */
const ID_TIME_CHECK = `id !~ '^evt_[0-9a-f]{8}-[0-9a-f]{4}-7' or received_at = ('x' || substr(id, 5, 8) || substr(id, 14, 4))::bit(48)::bigint`;

export interface EventPartition {
  name: string;
  /** Inclusive lower bound (ms); -Infinity for MINVALUE; null for the default partition. */
  from: number | null;
  /** Exclusive upper bound (ms); null for the default partition. */
  to: number | null;
}

async function rowsOf(db: DbOrTx, text: string): Promise<Array<Record<string, unknown>>> {
  const result = (await db.execute(sql.raw(text))) as unknown as { rows?: Array<Record<string, unknown>> };
  return result.rows ?? [];
}

function execOf(db: DbOrTx): Exec {
  return (text) => rowsOf(db, text);
}

function bound(text: string): number {
  const t = text.replaceAll("'", '').trim();
  return t === 'MINVALUE' ? -Infinity : Number(t);
}

/** Is `events` partitioned (relkind p)? null when the table does not exist. */
async function eventsIsPartitioned(exec: Exec): Promise<boolean | null> {
  const [row] = await exec(`select relkind::text as kind from pg_class where oid = to_regclass('events')`);
  return row ? row.kind === 'p' : null;
}

/** The partitions of `events` with their bounds. */
export async function listEventPartitions(db: DbOrTx | Exec): Promise<EventPartition[]> {
  const exec = typeof db === 'function' ? db : execOf(db);
  const rows = await exec(`select c.relname::text as name, pg_get_expr(c.relpartbound, c.oid) as bound
    from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = to_regclass('events') order by 1`);
  return rows.map((r) => {
    const text = String(r.bound);
    const m = /FROM \((.+?)\) TO \((.+?)\)/.exec(text);
    return m ? { name: String(r.name), from: bound(m[1]), to: bound(m[2]) } : { name: String(r.name), from: null, to: null };
  });
}

/**
 * Turns an unpartitioned `events` (a database from before issue 43, or one the
 * migrations just created) into the partitioned layout; does nothing when it
 * is partitioned already. `exec` must run every text on one connection (it
 * opens a transaction) without a short statement timeout (the check's
 * validation reads the whole table). Answers what it did with its timings.
 */
export async function upgradeEventsTable(
  exec: Exec,
  now = Date.now(),
): Promise<{ upgraded: boolean; boundary?: number; validateMs?: number; swapMs?: number }> {
  if ((await eventsIsPartitioned(exec)) !== false) return { upgraded: false };
  let boundary = dayStart(now) + 2 * DAY_MS;
  // 1. The range check, added NOT VALID (a moment's ACCESS EXCLUSIVE lock) and
  //    validated while inserts go on. A row dated past the boundary (a clock
  //    far off) moves the boundary past it.
  const validateStart = performance.now();
  for (let attempt = 0; ; attempt++) {
    await exec(`alter table events drop constraint if exists events_legacy_range`);
    await exec(`set lock_timeout = '${LOCK_TIMEOUT}'`);
    try {
      await exec(`alter table events add constraint events_legacy_range check (received_at < ${boundary}) not valid`);
    } finally {
      await exec(`reset lock_timeout`);
    }
    try {
      await exec(`alter table events validate constraint events_legacy_range`);
      break;
    } catch (err) {
      if (attempt > 0 || (err as { code?: string }).code !== '23514') throw err;
      const [row] = await exec(`select max(received_at)::text as last from events`);
      boundary = dayStart(Number(row.last)) + 2 * DAY_MS;
    }
  }
  const validateMs = performance.now() - validateStart;
  // 2. One short transaction: catalog changes only (the attach finds the
  //    validated check and the old indexes, so it neither scans nor builds).
  const swapStart = performance.now();
  await exec('begin');
  try {
    await exec(`set local lock_timeout = '${LOCK_TIMEOUT}'`);
    await exec(`alter table events rename to events_legacy`);
    await exec(`alter table events_legacy rename constraint events_pkey to events_legacy_pkey`);
    await exec(`alter index events_user_idx rename to events_legacy_user_idx`);
    await exec(`alter index events_app_received_idx rename to events_legacy_app_received_idx`);
    await exec(`create table events (like events_legacy including defaults) partition by range (received_at)`);
    await exec(`create index events_user_idx on events using btree (app_id, user_id, "timestamp")`);
    await exec(`create index events_app_received_idx on events using btree (app_id, received_at)`);
    // An empty table (a new database) needs no legacy partition: past days then get day partitions like any other.
    if ((await exec(`select 1 from events_legacy limit 1`)).length > 0) {
      await exec(`alter table events attach partition events_legacy for values from (minvalue) to (${boundary})`);
    } else {
      await exec(`drop table events_legacy`);
    }
    await exec(`create table events_default (like events including defaults)`);
    await exec(`alter table events_default add primary key (id), add constraint events_default_id_time check (${ID_TIME_CHECK})`);
    await exec(`alter table events attach partition events_default default`);
    await exec('commit');
  } catch (err) {
    await exec('rollback').catch(() => undefined);
    throw err;
  }
  return { upgraded: true, boundary, validateMs, swapMs: performance.now() - swapStart };
}

/**
 * Creates the day partitions from `now`'s day to `aheadDays` ahead that are
 * missing (and that the legacy partition does not cover). Rows the default
 * partition holds for such a day move into it in the same transaction. A
 * seed of past days calls it with its first day and the number of days.
 * Answers the names created.
 */
export async function ensureEventPartitions(db: DbOrTx, now = Date.now(), aheadDays = PARTITIONS_AHEAD_DAYS): Promise<string[]> {
  const parts = await listEventPartitions(db);
  if (parts.length === 0) return [];
  const covered = (day: number) => parts.some((p) => p.from !== null && p.to !== null && p.from < day + DAY_MS && p.to > day);
  const created: string[] = [];
  for (let day = dayStart(now); day <= dayStart(now) + aheadDays * DAY_MS; day += DAY_MS) {
    if (covered(day)) continue;
    const name = partitionName(day);
    const to = day + DAY_MS;
    await db.transaction(async (tx) => {
      const exec = execOf(tx);
      await exec(`select pg_advisory_xact_lock(${PARTITION_LOCK})`);
      await exec(`set local lock_timeout = '${LOCK_TIMEOUT}'`);
      // Another instance may have made it meanwhile.
      if ((await exec(`select 1 from pg_class where oid = to_regclass('${name}')`)).length > 0) return;
      // Created apart and attached (SHARE UPDATE EXCLUSIVE on the parent: inserts go on).
      await exec(`create table ${name} (like events including defaults)`);
      await exec(`alter table ${name} add primary key (id), add constraint ${name}_id_time check (${ID_TIME_CHECK}),
        add constraint ${name}_range check (received_at >= ${day} and received_at < ${to})`);
      const hasDefault = parts.some((p) => p.name === 'events_default');
      if (hasDefault) {
        // No insert into the default partition from here to the attach: one that came between the move and the attach would fail it.
        await exec(`lock table events_default in share row exclusive mode`);
        await exec(`with moved as (delete from events_default where received_at >= ${day} and received_at < ${to} returning *)
          insert into ${name} select * from moved`);
      }
      await exec(`alter table events attach partition ${name} for values from (${day}) to (${to})`);
      // The range check only spared the attach a scan; the partition's bound says the same.
      await exec(`alter table ${name} drop constraint ${name}_range`);
    });
    created.push(name);
  }
  return created;
}

/**
 * Drops every partition whose whole range is older than `before` (Unix ms):
 * the day partitions and, once its range is past, the legacy one. Each is
 * first detached (a catalog change: the only moment that locks `events`),
 * then dropped in a transaction of its own (removing its files locks nothing
 * that ingestion or a read waits for). A partition detached by a run that
 * stopped before the drop is dropped by the next one. Answers the names
 * dropped. Rows older than `before` in a partition that also holds newer ones
 * stay until their partition goes (at most a day longer). `from` keeps every
 * partition that starts before it.
 */
export async function dropEventPartitionsBefore(
  db: DbOrTx,
  before: number,
  opts: { from?: number; timings?: Array<{ name: string; detachMs: number; dropMs: number }> } = {},
): Promise<string[]> {
  const dropped: string[] = [];
  for (const p of await listEventPartitions(db)) {
    if (p.to === null || p.to > before) continue;
    // A test drops only the days it made (the database is shared with other files).
    if (opts.from !== undefined && (p.from === null || p.from < opts.from)) continue;
    const start = performance.now();
    await db.transaction(async (tx) => {
      const exec = execOf(tx);
      await exec(`set local lock_timeout = '${LOCK_TIMEOUT}'`);
      await exec(`alter table events detach partition ${p.name}`);
    });
    const detached = performance.now();
    await rowsOf(db, `drop table if exists ${p.name}`);
    opts.timings?.push({ name: p.name, detachMs: detached - start, dropMs: performance.now() - detached });
    dropped.push(p.name);
  }
  if (opts.from === undefined) {
    // Detached by a run that stopped before its drop: an events_d… or events_legacy table that is no partition.
    for (const r of await rowsOf(
      db,
      `select c.relname::text as name from pg_class c where c.relkind = 'r' and (c.relname ~ '^events_d[0-9]{8}$' or c.relname = 'events_legacy')
        and c.relnamespace = (select relnamespace from pg_class where oid = to_regclass('events'))
        and not exists (select 1 from pg_inherits i where i.inhrelid = c.oid)`,
    )) {
      await rowsOf(db, `drop table if exists ${String(r.name)}`);
      dropped.push(String(r.name));
    }
  }
  return dropped;
}
