// The SQL of one event: what recordEvent reads before evaluating (one
// statement) and the write (one statement), with no transaction of its own.
//
// The read takes the user's sequence number (user_sequences), the stored
// answer of the event's idempotency key and the progress records the event's
// missions need, all from one snapshot. The write checks that the sequence
// number is still the one read and bumps it, in the same statement that
// inserts the event row (with its verdicts), the idempotency row, the
// progress rows (one multi-row upsert) and the dashboard's rollups: when another change of the user committed in between
// (an event, a claim, a webhook delivery: every writer of progress bumps the
// number), the write changes nothing and the caller evaluates again. An event
// that changes no progress takes no sequence number; its key row alone makes
// a concurrent duplicate fail.
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import type { rollupRows } from '@/lib/analytics/rollups';
import type { ProgressRecord } from '@/lib/missions/schema';

export interface StoredAnswer {
  hash: string;
  status: number;
  /** The response body as stored: a JSON string (see lib/idempotency/run-idempotent.ts). */
  response: unknown;
}

export interface EventRead {
  /** The user's sequence number; null when the user has none yet. */
  seq: number | null;
  stored: StoredAnswer | null;
  records: Map<string, ProgressRecord>;
}

interface Scope {
  appId: string;
  userId: string;
}

function rowsOf(result: unknown): Record<string, unknown>[] {
  return ((result as { rows?: Record<string, unknown>[] }).rows ?? []) as Record<string, unknown>[];
}

/** json/jsonb values come back parsed from node-postgres and PGlite; text when a driver does not. */
function parsed<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

const storedAnswerSql = (s: Scope, key: string): SQL =>
  sql`(select json_build_object('hash', request_hash, 'status', status, 'response', response) from idempotency_keys
       where app_id = ${s.appId} and user_id = ${s.userId} and key = ${key})`;

/** One statement: sequence number, stored answer (when keyed) and the records of `missionIds`. */
export async function readForEvent(db: DbOrTx, s: Scope, key: string | null, missionIds: string[]): Promise<EventRead> {
  const ids = missionIds.length > 0 ? sql.join(missionIds.map((id) => sql`${id}`), sql`, `) : sql`null`;
  const result = await db.execute(sql`
    select
      (select seq::text from user_sequences where app_id = ${s.appId} and user_id = ${s.userId}) as seq,
      ${key === null ? sql`null::json` : storedAnswerSql(s, key)} as stored,
      (select coalesce(json_agg(json_build_object(
          'missionId', mission_id, 'status', status, 'currentCount', current_count, 'targetCount', target_count,
          'windowStart', window_start, 'cycle', cycle, 'updatedAt', updated_at)), '[]'::json)
       from progress where app_id = ${s.appId} and user_id = ${s.userId} and mission_id in (${ids})) as records`);
  const row = rowsOf(result)[0] ?? {};
  const records = new Map<string, ProgressRecord>();
  for (const r of parsed<Array<Omit<ProgressRecord, 'userId'>>>(row.records ?? '[]')) {
    records.set(r.missionId, { userId: s.userId, ...r });
  }
  return {
    seq: row.seq === null || row.seq === undefined ? null : Number(row.seq),
    stored: row.stored === null || row.stored === undefined ? null : parsed<StoredAnswer>(row.stored),
    records,
  };
}

/** The stored answer of a key, read after a write found the key taken. */
export async function readStoredAnswer(db: DbOrTx, s: Scope, key: string): Promise<StoredAnswer | null> {
  const row = rowsOf(await db.execute(sql`select ${storedAnswerSql(s, key)} as stored`))[0];
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
  /** Progress records to write; non-empty ones need `expectedSeq` (the sequence number read). */
  records: ProgressRecord[];
  expectedSeq: number | null;
}

export type WriteOutcome =
  /** Written; `seq` is the sequence number taken (null when no progress changed). */
  | { kind: 'written'; seq: number | null }
  /** Another change of the user came first: nothing was written, evaluate again. */
  | { kind: 'stale' }
  /** The key is taken: nothing was written, answer from the stored row. `seq` was taken anyway (publish it empty). */
  | { kind: 'key-taken'; seq: number | null };

/** One statement: sequence check and bump, key row, event row, progress upsert. */
export async function writeEvent(db: DbOrTx, s: Scope, w: EventWrite): Promise<WriteOutcome> {
  const parts: SQL[] = [];
  // The row every later insert selects from: the write happens only if the sequence check passed (and the key was free).
  let gate: SQL | null = null;
  if (w.records.length > 0) {
    parts.push(
      w.expectedSeq === null
        ? sql`s as (insert into user_sequences (app_id, user_id, seq) values (${s.appId}, ${s.userId}, 1) on conflict do nothing returning seq)`
        : sql`s as (update user_sequences set seq = seq + 1 where app_id = ${s.appId} and user_id = ${s.userId} and seq = ${w.expectedSeq} returning seq)`,
    );
    gate = sql`s`;
  }
  if (w.keyRow) {
    const k = w.keyRow;
    parts.push(sql`k as (insert into idempotency_keys (app_id, user_id, key, request_hash, status, response, created_at)
      select ${s.appId}, ${s.userId}, ${k.key}, ${k.requestHash}, ${k.status}, to_jsonb(${k.response}::text), ${w.receivedAt}
      ${gate ? sql`from s` : sql``} on conflict do nothing returning 1 as one)`);
    gate = sql`k`;
  }
  const from = gate ? sql`from ${gate}` : sql``;
  parts.push(sql`e as (insert into "events" (id, app_id, user_id, name, payload, timestamp, idempotency_key, source, received_at, outcome)
    select ${w.eventId}, ${s.appId}, ${s.userId}, ${w.name}, ${JSON.stringify(w.payload)}::jsonb, ${w.timestamp}, ${w.idempotencyKey}, ${w.source}, ${w.receivedAt}, ${JSON.stringify(w.outcome)}::jsonb
    ${from} returning 1 as one)`);
  if (w.records.length > 0) {
    const json = JSON.stringify(
      w.records.map((r) => ({
        mission_id: r.missionId,
        status: r.status,
        current_count: r.currentCount,
        target_count: r.targetCount,
        window_start: r.windowStart,
        cycle: r.cycle,
        updated_at: r.updatedAt,
      })),
    );
    parts.push(sql`p as (insert into progress (app_id, user_id, mission_id, status, current_count, target_count, window_start, cycle, updated_at)
      select ${s.appId}, ${s.userId}, r.mission_id, r.status, r.current_count, r.target_count, r.window_start, r.cycle, r.updated_at
      from ${gate!}, json_to_recordset(${json}::json) as r(mission_id text, status text, current_count integer, target_count integer, window_start bigint, cycle integer, updated_at bigint)
      on conflict (app_id, user_id, mission_id) do update set status = excluded.status, current_count = excluded.current_count,
        target_count = excluded.target_count, window_start = excluded.window_start, cycle = excluded.cycle, updated_at = excluded.updated_at
      returning 1 as one)`);
  }
  if (w.rollups.length > 0) {
    const rows = JSON.stringify(w.rollups.map((r) => ({ bucket_start: r.bucketStart, kind: r.kind, key: r.key, shard: r.shard, count: r.count, amount: r.amount })));
    parts.push(sql`a as (insert into analytics_rollups (app_id, bucket_start, kind, key, shard, count, amount)
      select ${s.appId}, r.bucket_start, r.kind, r.key, r.shard, r.count, r.amount
      from ${gate ?? sql`(select 1) as g`}, json_to_recordset(${rows}::json) as r(bucket_start bigint, kind text, key text, shard smallint, count bigint, amount bigint)
      on conflict (app_id, bucket_start, kind, key, shard) do update set count = analytics_rollups.count + excluded.count, amount = analytics_rollups.amount + excluded.amount
      returning 1 as one)`);
  }
  const seqSelect = w.records.length > 0 ? sql`(select seq::text from s)` : sql`null::text`;
  const result = await db.execute(sql`with ${sql.join(parts, sql`, `)} select ${seqSelect} as seq, (select count(*) from e)::int as written`);
  const row = rowsOf(result)[0] ?? {};
  const seq = row.seq === null || row.seq === undefined ? null : Number(row.seq);
  if (Number(row.written) === 1) return { kind: 'written', seq };
  if (w.records.length > 0 && seq === null) return { kind: 'stale' };
  return { kind: 'key-taken', seq };
}
