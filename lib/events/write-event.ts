// The SQL of one event's write (one statement, no transaction of its own);
// what it reads before evaluating is the user's state, read by
// lib/progress/user-state.ts (readForEvent) in one statement from one
// snapshot. The write checks that the sequence
// number is still the one read and bumps it, in the same statement that
// inserts the event row (with its verdicts), the idempotency row, the
// progress rows (one multi-row upsert) and the dashboard's rollups: when another change of the user committed in between
// (an event, a claim, a webhook delivery: every writer of progress bumps the
// number), the write changes nothing and the caller evaluates again. An event
// that changes no progress takes no sequence number; its key row alone makes
// a concurrent duplicate fail. The same statement upserts the user's row of
// app_users (first and last seen, event count: the support desk's search).
import type { DbOrTx } from '@/db/client';
import { runPrepared, type Prepared } from '@/db/prepared';
import { rollupParam, type rollupRows } from '@/lib/analytics/rollups';
import type { ProgressRecord } from '@/lib/missions/schema';
import { STORED_ANSWER, type StoredAnswer } from '@/lib/progress/user-state';

interface Scope {
  appId: string;
  userId: string;
}

/** json/jsonb values come back parsed from node-postgres and PGlite; text when a driver does not. */
function parsed<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

const READ_STORED_ANSWER: Prepared = { name: 'ql_event_stored_v1', text: `select ${STORED_ANSWER} as stored` };

/** The stored answer of a key, read after a write found the key taken. */
export async function readStoredAnswer(db: DbOrTx, s: Scope, key: string): Promise<StoredAnswer | null> {
  const row = (await runPrepared(db, READ_STORED_ANSWER, [s.appId, s.userId, key]))[0];
  return row?.stored === null || row?.stored === undefined ? null : parsed<StoredAnswer>(row.stored);
}

export interface EventWrite {
  eventId: string;
  name: string;
  payload: Record<string, unknown>;
  timestamp: number;
  /** The caller's key as the events table keeps it (without namespace). */
  idempotencyKey: string | null;
  source: 'api' | 'webhook' | 'test';
  receivedAt: number;
  /** The stored key row (namespaced key), when the event has one. */
  keyRow: { key: string; requestHash: string; status: number; response: string } | null;
  /** The verdict of each mission with the event's name (events.outcome). */
  outcome: unknown[];
  /** The dashboard's rollup rows to add to (lib/analytics/rollups.ts rollupRows). */
  rollups: ReturnType<typeof rollupRows>;
  /** Outbound-webhook delivery rows (lib/outbound/outbox.ts), written only with progress rows; empty for an app without endpoints. */
  outbox?: ReadonlyArray<{ id: string; endpoint_id: string; type: string; data: unknown }>;
  /** Progress records to write; non-empty ones need `expectedSeq` (the sequence number read). */
  records: ProgressRecord[];
  expectedSeq: number | null;
}

export type WriteOutcome =
  /** Written; `seq` is the sequence number taken (null when no progress changed). */
  | { kind: 'written'; seq: number | null; /** Outbound-webhook rows written (kick the worker after commit). */ notified: number }
  /** Another change of the user came first: nothing was written, evaluate again. */
  | { kind: 'stale' }
  /** The key is taken: nothing was written, answer from the stored row. `seq` was taken anyway (publish it empty). */
  | { kind: 'key-taken'; seq: number | null };

/** The shape of one write: which parts its statement has (a handful of texts, each prepared once). */
interface WriteShape {
  records: boolean;
  /** The user has no sequence number yet (first change): insert it instead of bumping it. */
  firstSeq: boolean;
  keyed: boolean;
  rollups: boolean;
  /** Outbound-webhook rows to insert (only with records: they hang off the sequence bump). */
  outbox: boolean;
}

const writeStatements = new Map<string, Prepared>();

/**
 * The write's text for a shape. Parameters: $1 app, $2 user, $3 event id,
 * $4 name, $5 payload, $6 timestamp, $7 caller's key, $8 source, $9 received
 * at, $10 verdicts, $11 expected seq, $12 stored key, $13 request hash,
 * $14 stored status, $15 stored answer, $16 records (JSON), $17 rollups (JSON);
 * the parts a shape lacks are sent as null and not referenced.
 */
function writeStatement(shape: WriteShape): Prepared {
  const id = `${shape.records ? 'r' : ''}${shape.firstSeq ? 'f' : ''}${shape.keyed ? 'k' : ''}${shape.rollups ? 'a' : ''}${shape.outbox ? 'o' : ''}`;
  const known = writeStatements.get(id);
  if (known) return known;
  const parts: string[] = [];
  // The row every later insert selects from: the write happens only if the sequence check passed (and the key was free).
  let gate: string | null = null;
  if (shape.records) {
    parts.push(
      shape.firstSeq
        ? `s as (insert into user_sequences (app_id, user_id, seq, changed_at) values ($1, $2, 1, $9::bigint) on conflict do nothing returning seq)`
        : `s as (update user_sequences set seq = seq + 1, changed_at = $9::bigint where app_id = $1 and user_id = $2 and seq = $11::bigint returning seq)`,
    );
    gate = 's';
  }
  if (shape.keyed) {
    parts.push(`k as (insert into idempotency_keys (app_id, user_id, key, request_hash, status, response, created_at)
      select $1, $2, $12::text, $13::text, $14::integer, to_jsonb($15::text), $9::bigint
      ${gate ? 'from s' : ''} on conflict do nothing returning 1 as one)`);
    gate = 'k';
  }
  parts.push(`e as (insert into "events" (id, app_id, user_id, name, payload, timestamp, idempotency_key, source, received_at, outcome)
    select $3::text, $1, $2, $4::text, $5::jsonb, $6::bigint, $7::text, $8::text, $9::bigint, $10::jsonb
    ${gate ? `from ${gate}` : ''} returning 1 as one)`);
  // The support desk's player search (app_users): one upsert of the user's own row, only when the event was written.
  parts.push(`u as (insert into app_users (app_id, user_id, first_seen_at, last_seen_at, events)
    select $1, $2, $9::bigint, $9::bigint, 1 from e
    on conflict (app_id, user_id) do update set last_seen_at = greatest(app_users.last_seen_at, excluded.last_seen_at), events = app_users.events + 1
    returning 1 as one)`);
  if (shape.records) {
    parts.push(`p as (insert into progress (app_id, user_id, mission_id, status, current_count, target_count, window_start, cycle, updated_at, state)
      select $1, $2, r.mission_id, r.status, r.current_count, r.target_count, r.window_start, r.cycle, r.updated_at, r.state
      from ${gate}, json_to_recordset($16::json) as r(mission_id text, status text, current_count integer, target_count integer, window_start bigint, cycle integer, updated_at bigint, state jsonb)
      on conflict (app_id, user_id, mission_id) do update set status = excluded.status, current_count = excluded.current_count,
        target_count = excluded.target_count, window_start = excluded.window_start, cycle = excluded.cycle, updated_at = excluded.updated_at, state = excluded.state
      returning 1 as one)`);
  }
  if (shape.rollups) {
    parts.push(`a as (insert into analytics_rollups (app_id, bucket_start, kind, key, shard, count, amount)
      select $1, r.bucket_start, r.kind, r.key, r.shard, r.count, r.amount
      from ${gate ?? '(select 1) as g'}, json_to_recordset($17::json) as r(bucket_start bigint, kind text, key text, shard smallint, count bigint, amount bigint)
      on conflict (app_id, bucket_start, kind, key, shard) do update set count = analytics_rollups.count + excluded.count, amount = analytics_rollups.amount + excluded.amount
      returning 1 as one)`);
  }
  if (shape.outbox) {
    parts.push(`o as (insert into webhook_deliveries (id, app_id, endpoint_id, user_id, type, data, status, attempts, next_attempt_at, created_at, retrying_since)
      select x.id, $1, x.endpoint_id, $2, x.type, x.data, 'pending', 0, $9::bigint, $9::bigint, $9::bigint
      from ${gate}, json_to_recordset($18::json) as x(id text, endpoint_id text, type text, data jsonb)
      returning 1 as one)`);
  }
  // Every parameter is referenced (with its type) so that each shape's text prepares with the same parameters (17; 18 with the outbox).
  const unused = [11, 12, 13, 14, 15, 16, 17].filter((n) => !parts.some((p) => p.includes(`$${n}::`)));
  const types: Record<number, string> = { 11: 'bigint', 12: 'text', 13: 'text', 14: 'integer', 15: 'text', 16: 'json', 17: 'json' };
  const mention = unused.map((n) => ` and $${n}::${types[n]} is null`).join('');
  const notified = shape.outbox ? ', (select count(*) from o)::int as notified' : '';
  const seqSelect = shape.records ? '(select seq::text from s)' : 'null::text';
  const statement = {
    name: `ql_event_write_v5_${id || 'plain'}`,
    text: `with ${parts.join(', ')} select ${seqSelect} as seq, (select count(*) from e)::int as written${notified} where true${mention}`,
  };
  writeStatements.set(id, statement);
  return statement;
}

/** A progress record as the write statements' JSON rows name its columns. */
function recordRow(r: ProgressRecord) {
  return {
    mission_id: r.missionId,
    status: r.status,
    current_count: r.currentCount,
    target_count: r.targetCount,
    window_start: r.windowStart,
    cycle: r.cycle,
    updated_at: r.updatedAt,
    state: r.state ?? null,
  };
}

/** What a write statement's answer row says of one write: written, stale (records and no sequence number) or key taken. */
function outcomeOf(w: EventWrite, row: Record<string, unknown>, written: boolean): WriteOutcome {
  const seq = row.seq === null || row.seq === undefined ? null : Number(row.seq);
  if (written) return { kind: 'written', seq, notified: Number(row.notified ?? 0) };
  if (w.records.length > 0 && seq === null) return { kind: 'stale' };
  return { kind: 'key-taken', seq };
}

/** One statement: sequence check and bump, key row, event row, the user's app_users row, progress upsert, rollups. */
export async function writeEvent(db: DbOrTx, s: Scope, w: EventWrite): Promise<WriteOutcome> {
  const outbox = w.records.length > 0 && (w.outbox?.length ?? 0) > 0;
  const shape: WriteShape = { records: w.records.length > 0, firstSeq: w.expectedSeq === null, keyed: w.keyRow !== null, rollups: w.rollups.length > 0, outbox };
  const records = shape.records ? JSON.stringify(w.records.map(recordRow)) : null;
  const rollups = shape.rollups ? JSON.stringify(w.rollups.map(rollupParam)) : null;
  const k = w.keyRow;
  const row =
    (
      await runPrepared(db, writeStatement(shape), [
        s.appId,
        s.userId,
        w.eventId,
        w.name,
        JSON.stringify(w.payload),
        w.timestamp,
        w.idempotencyKey,
        w.source,
        w.receivedAt,
        JSON.stringify(w.outcome),
        shape.records && !shape.firstSeq ? w.expectedSeq : null,
        k?.key ?? null,
        k?.requestHash ?? null,
        k?.status ?? null,
        k?.response ?? null,
        records,
        rollups,
        ...(outbox ? [JSON.stringify(w.outbox)] : []),
      ])
    )[0] ?? {};
  return outcomeOf(w, row, Number(row.written) === 1);
}

/**
 * writeEvent of several events of different users in one statement (group
 * commit: one autocommit statement, so all of them commit together or none
 * does). Each row is gated as writeEvent gates its one: the sequence check
 * (or first insert) of a row with records, then its key; a stale or
 * key-taken row writes nothing and does not stop the others. The rollups of
 * the written rows are summed per rollup row and upserted in one sorted order;
 * app_users rows are one per user. The caller never puts one user twice in a
 * group (their rows would share a sequence number row).
 *
 * The sequence rows of the whole group are taken by one upsert in (app, user)
 * order, the order lockUsers (lib/progress/records.ts) takes a webhook
 * delivery's users in, so a group and a delivery that share users queue
 * instead of deadlocking. ON CONFLICT DO UPDATE locks the row it finds even
 * when its WHERE (the expected number) fails, so a stale row is locked in
 * that order too and answers stale. A first change inserts 1 (a row already
 * there means another change came first: stale); a bump whose row has gone
 * inserts 0, which is no sequence number taken (stale), as lockUser's rows
 * start at 0. Before, an UPDATE for the bumps and an INSERT for the first
 * changes took the rows in the query plan's order, and a CI run met the
 * deadlock (docs/engineering/reliability.md).
 */
const WRITE_EVENTS: Prepared = {
  name: 'ql_event_write_many_v3',
  text: `with i as (
    select * from json_to_recordset($1::json) as x(ord integer, a text, u text, eid text, name text, payload jsonb, ts bigint, ikey text, src text,
      at bigint, outcome jsonb, recs json, first boolean, exp bigint, k text, h text, st integer, resp text, rolls json, outbox json)),
  sq as (insert into user_sequences as us (app_id, user_id, seq, changed_at)
    select a, u, case when first then 1 else 0 end, at from i where recs is not null order by a, u
    on conflict (app_id, user_id) do update set seq = us.seq + 1, changed_at = excluded.changed_at
      where us.seq = (select i2.exp from i i2 where i2.a = us.app_id and i2.u = us.user_id and not i2.first)
    returning us.app_id, us.user_id, us.seq),
  s as (select i.ord, x.seq from i join sq x on x.app_id = i.a and x.user_id = i.u where x.seq > 0),
  g1 as (select i.*, s.seq from i left join s on s.ord = i.ord where i.recs is null or s.seq is not null),
  k as (insert into idempotency_keys (app_id, user_id, key, request_hash, status, response, created_at)
    select a, u, k, h, st, to_jsonb(resp), at from g1 where k is not null order by a, u, k on conflict do nothing returning app_id, user_id, key),
  g as (select g1.* from g1 left join k on k.app_id = g1.a and k.user_id = g1.u and k.key = g1.k where g1.k is null or k.key is not null),
  e as (insert into "events" (id, app_id, user_id, name, payload, timestamp, idempotency_key, source, received_at, outcome)
    select eid, a, u, name, payload, ts, ikey, src, at, outcome from g returning id),
  au as (insert into app_users (app_id, user_id, first_seen_at, last_seen_at, events)
    select a, u, min(at), max(at), count(*) from g group by a, u order by a, u
    on conflict (app_id, user_id) do update set last_seen_at = greatest(app_users.last_seen_at, excluded.last_seen_at), events = app_users.events + excluded.events
    returning 1 as one),
  p as (insert into progress (app_id, user_id, mission_id, status, current_count, target_count, window_start, cycle, updated_at, state)
    select g.a, g.u, r.mission_id, r.status, r.current_count, r.target_count, r.window_start, r.cycle, r.updated_at, r.state
    from g, json_to_recordset(g.recs) as r(mission_id text, status text, current_count integer, target_count integer, window_start bigint, cycle integer, updated_at bigint, state jsonb)
    where g.recs is not null order by g.a, g.u, r.mission_id
    on conflict (app_id, user_id, mission_id) do update set status = excluded.status, current_count = excluded.current_count,
      target_count = excluded.target_count, window_start = excluded.window_start, cycle = excluded.cycle, updated_at = excluded.updated_at, state = excluded.state
    returning 1 as one),
  ar as (insert into analytics_rollups (app_id, bucket_start, kind, key, shard, count, amount)
    select g.a, r.bucket_start, r.kind, r.key, r.shard, sum(r.count)::bigint, sum(r.amount)::bigint
    from g, json_to_recordset(g.rolls) as r(bucket_start bigint, kind text, key text, shard smallint, count bigint, amount bigint)
    where g.rolls is not null group by g.a, r.bucket_start, r.kind, r.key, r.shard order by 1, 2, 3, 4, 5
    on conflict (app_id, bucket_start, kind, key, shard) do update set count = analytics_rollups.count + excluded.count, amount = analytics_rollups.amount + excluded.amount
    returning 1 as one),
  o as (insert into webhook_deliveries (id, app_id, endpoint_id, user_id, type, data, status, attempts, next_attempt_at, created_at, retrying_since)
    select x.id, g.a, x.endpoint_id, g.u, x.type, x.data, 'pending', 0, g.at, g.at, g.at
    from g, json_to_recordset(g.outbox) as x(id text, endpoint_id text, type text, data jsonb)
    where g.recs is not null and g.outbox is not null returning app_id, user_id)
  select i.ord, s.seq::text as seq, (g.ord is not null) as written,
    (select count(*) from o where o.app_id = i.a and o.user_id = i.u)::int as notified
  from i left join s on s.ord = i.ord left join g on g.ord = i.ord`,
};

export interface GroupedWrite {
  scope: Scope;
  write: EventWrite;
}

/** The outcome of each write of a group, in the inputs' order (see WRITE_EVENTS). */
export async function writeEvents(db: DbOrTx, writes: readonly GroupedWrite[]): Promise<WriteOutcome[]> {
  const input = writes.map(({ scope: s, write: w }, ord) => {
    const hasRecords = w.records.length > 0;
    return {
      ord,
      a: s.appId,
      u: s.userId,
      eid: w.eventId,
      name: w.name,
      payload: w.payload,
      ts: w.timestamp,
      ikey: w.idempotencyKey,
      src: w.source,
      at: w.receivedAt,
      outcome: w.outcome,
      recs: hasRecords ? w.records.map(recordRow) : null,
      first: w.expectedSeq === null,
      exp: hasRecords ? w.expectedSeq : null,
      k: w.keyRow?.key ?? null,
      h: w.keyRow?.requestHash ?? null,
      st: w.keyRow?.status ?? null,
      resp: w.keyRow?.response ?? null,
      rolls: w.rollups.length > 0 ? w.rollups.map(rollupParam) : null,
      outbox: hasRecords && (w.outbox?.length ?? 0) > 0 ? w.outbox : null,
    };
  });
  const rows = await runPrepared(db, WRITE_EVENTS, [JSON.stringify(input)]);
  const byOrd = new Map(rows.map((row) => [Number(row.ord), row]));
  return writes.map(({ write: w }, ord) => {
    const row = byOrd.get(ord) ?? {};
    return outcomeOf(w, row, row.written === true);
  });
}
