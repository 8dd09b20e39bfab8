// A user's state: the progress records, the attributes (audiences, zone) and
// the sequence number every change of the user bumps. This module is the one
// place that reads it and the one place that caches it.
//
// Reads, each one statement (a statement's socket write is the largest single
// cost of the server's CPU, docs/engineering/benchmarks.md):
// - readForEvent / batchedReadForEvent: what an event reads before it
//   evaluates: the sequence number, the stored answer of its key, the records
//   of its missions and the attributes. Standalone events of different users
//   issued at the same time leave as one statement (group read: the reads
//   issued before the next `setImmediate`, and while 4 batches are out until
//   one comes back). A read is a snapshot outside any transaction; the write
//   that follows checks the sequence number it read, so a stale read costs
//   another attempt. A user's events are one at a time (the per-user queue),
//   so a batch never holds one user twice.
// - userStateAt: every record with the sequence number (the mission list and
//   detail), answered from the cache when it can be.
// - readUserState: every record without the number (the recommendations'
//   refresh after a claim), gathered with other users' reads (2 statements out).
//
// The cache: one entry per user, the state at its sequence number, stored by
// the event path (the records it read, with its write applied) and by the
// full read. How far an entry is trusted depends on who asks:
// - an event (cachedForEvent) takes any entry covering its missions, because
//   its write checks the sequence number it evaluated against
//   (lib/events/write-event.ts) and every writer of progress or attributes
//   bumps it: a stale entry makes the write change nothing, the entry is
//   forgotten and the event reads again. An evaluation that writes no progress
//   row has no such check, so the event path then reads instead;
// - the mission list (userStateAt) takes only an entry holding every record
//   whose number equals the update log's latest (UpdateLog.latestSeq, read
//   with the token checks: a change committed by any instance is seen as soon
//   as its publisher reached the log), and at most RECORDS_TRUST_MS old, which
//   bounds what a change whose publish failed (Redis away) can leave unseen.
// Invalidation is one story: forgetUserState drops the entry (a stale write,
// an outcome not known, an attribute change), and every publication of this
// instance (userChanged, lib/updates/publish.ts) drops an entry older than the
// change published.
import type { DbOrTx } from '@/db/client';
import { batchedReads } from '@/db/gather';
import { runPrepared, textArray, type Prepared } from '@/db/prepared';
import { processWide } from '@/lib/process-wide';
import { parseAttributes, type UserAttributes } from '@/lib/users/attributes';
import type { ProgressRecord } from './record';

/** A user's records and attributes, one snapshot. */
export interface UserState {
  records: Map<string, ProgressRecord>;
  attributes: UserAttributes;
}

/** A user's state with the sequence number it was read (or written) at; null when the user has none yet. */
export interface SequencedState extends UserState {
  seq: number | null;
  /** When change number `seq` committed (user_sequences.changed_at); null when not known. Only the event path's reads know it. */
  seqAt?: number | null;
}

export interface StoredAnswer {
  hash: string;
  status: number;
  /** The response body as stored: a JSON string (see lib/idempotency/run-idempotent.ts). */
  response: unknown;
}

/** What an event reads: the user's state (only the records of its missions) and its key's stored answer. */
export interface EventRead extends SequencedState {
  stored: StoredAnswer | null;
}

interface Scope {
  appId: string;
  userId: string;
}

export interface EventReadInput {
  scope: Scope;
  key: string | null;
  missionIds: string[];
}

/** json/jsonb values come back parsed from node-postgres and PGlite; text when a driver does not. */
function parsed<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/** The stored answer of key $3 of user ($1, $2), as a JSON object (lib/events/write-event.ts reads it alone too). */
export const STORED_ANSWER = `(select json_build_object('hash', request_hash, 'status', status, 'response', response) from idempotency_keys
  where app_id = $1 and user_id = $2 and key = $3::text)`;

const READ_FOR_EVENT: Prepared = {
  name: 'ql_event_read_v3',
  text: `select
    (select seq::text || ' ' || coalesce(changed_at::text, '') from user_sequences where app_id = $1 and user_id = $2) as seq,
    (select attributes from app_users where app_id = $1 and user_id = $2) as attributes,
    ${STORED_ANSWER} as stored,
    (select coalesce(json_agg(json_build_object(
        'missionId', mission_id, 'status', status, 'currentCount', current_count, 'targetCount', target_count,
        'windowStart', window_start, 'cycle', cycle, 'updatedAt', updated_at, 'state', state)), '[]'::json)
     from progress where app_id = $1 and user_id = $2 and mission_id = any($4::text[])) as records`,
};

/**
 * READ_FOR_EVENT for several users at once: one row per input, `idx` its
 * place. $1 idx[], $2 app[], $3 user[], $4 key[] (null when unkeyed), $5 the
 * mission ids of each input joined by ',' (ids have no comma: lib/contract/common.ts).
 */
const READ_FOR_EVENTS: Prepared = {
  name: 'ql_event_read_many_v2',
  text: `select i.idx,
    (select seq::text || ' ' || coalesce(changed_at::text, '') from user_sequences where app_id = i.app and user_id = i.usr) as seq,
    (select attributes from app_users where app_id = i.app and user_id = i.usr) as attributes,
    (select json_build_object('hash', request_hash, 'status', status, 'response', response) from idempotency_keys
      where app_id = i.app and user_id = i.usr and key = i.k) as stored,
    (select coalesce(json_agg(json_build_object(
        'missionId', mission_id, 'status', status, 'currentCount', current_count, 'targetCount', target_count,
        'windowStart', window_start, 'cycle', cycle, 'updatedAt', updated_at, 'state', state)), '[]'::json)
     from progress where app_id = i.app and user_id = i.usr and mission_id = any(string_to_array(i.missions, ','))) as records
  from unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[]) as i(idx, app, usr, k, missions)`,
};

/** $1 app, $2 user: the user's sequence number (null: never changed), attributes and every record, one snapshot. */
const USER_RECORDS_WITH_SEQ: Prepared = {
  name: 'ql_user_records_seq_v3',
  text: `select (select seq::text from user_sequences where app_id = $1 and user_id = $2) as seq,
  (select attributes from app_users where app_id = $1 and user_id = $2) as attributes,
  (select json_agg(json_build_array(mission_id, status, current_count, target_count, window_start, cycle, updated_at, state))::text
   from progress where app_id = $1 and user_id = $2) as records`,
};

/** $1 idx[], $2 app[], $3 user[]: every record and the attributes of each user, one row per input, `idx` its place. */
const READ_USER_STATES: Prepared = {
  name: 'ql_user_state_many_v1',
  text: `select i.idx,
    (select attributes from app_users where app_id = i.a and user_id = i.u) as attributes,
    (select coalesce(json_agg(json_build_object(
        'missionId', mission_id, 'status', status, 'currentCount', current_count, 'targetCount', target_count,
        'windowStart', window_start, 'cycle', cycle, 'updatedAt', updated_at, 'state', state)), '[]'::json)
     from progress where app_id = i.a and user_id = i.u) as records
  from unnest($1::int[], $2::text[], $3::text[]) as i(idx, a, u)`,
};

type RecordObject = Omit<ProgressRecord, 'userId' | 'state'> & { state: ProgressRecord['state'] | null };
type RecordArray = [string, ProgressRecord['status'], number, number, number, number, number, ProgressRecord['state'] | null];

/** The records of a row's JSON aggregate of objects (the event and recommendation reads). */
function recordsOf(userId: string, raw: unknown): Map<string, ProgressRecord> {
  const records = new Map<string, ProgressRecord>();
  for (const { state, ...r } of parsed<RecordObject[]>(raw ?? '[]')) {
    records.set(r.missionId, { userId, ...r, ...(state === null || state === undefined ? {} : { state }) });
  }
  return records;
}

const seqOf = (row: Record<string, unknown> | undefined): number | null => (row?.seq === null || row?.seq === undefined ? null : Number(row.seq));

/** The event reads' `seq` column: the number and when it committed, as `<seq> <changed_at>` (changed_at empty when not known). */
function seqAndTimeOf(row: Record<string, unknown>): { seq: number | null; seqAt: number | null } {
  if (row.seq === null || row.seq === undefined) return { seq: null, seqAt: null };
  const [seq, at] = String(row.seq).split(' ');
  return { seq: Number(seq), seqAt: at ? Number(at) : null };
}

function eventReadOf(s: Scope, row: Record<string, unknown>): EventRead {
  return {
    ...seqAndTimeOf(row),
    stored: row.stored === null || row.stored === undefined ? null : parsed<StoredAnswer>(row.stored),
    records: recordsOf(s.userId, row.records),
    attributes: parseAttributes(row.attributes),
  };
}

/** One statement: sequence number, stored answer (when keyed), the records of `missionIds` and the attributes. */
export async function readForEvent(db: DbOrTx, s: Scope, key: string | null, missionIds: string[]): Promise<EventRead> {
  const row = (await runPrepared(db, READ_FOR_EVENT, [s.appId, s.userId, key, textArray(missionIds)]))[0] ?? {};
  return eventReadOf(s, row);
}

/** readForEvent of several users in one statement, the answers in the inputs' order. */
export async function readForEvents(db: DbOrTx, inputs: readonly EventReadInput[]): Promise<EventRead[]> {
  const rows = await runPrepared(db, READ_FOR_EVENTS, [
    `{${inputs.map((_, i) => i).join(',')}}`,
    textArray(inputs.map((r) => r.scope.appId)),
    textArray(inputs.map((r) => r.scope.userId)),
    `{${inputs.map((r) => (r.key === null ? 'NULL' : `"${r.key.replace(/[\\"]/g, (c) => `\\${c}`)}"`)).join(',')}}`,
    textArray(inputs.map((r) => r.missionIds.join(','))),
  ]);
  const byIdx = new Map(rows.map((row) => [Number(row.idx), row]));
  return inputs.map((r, i) => eventReadOf(r.scope, byIdx.get(i) ?? {}));
}

/** A bound on one gathered statement's size. */
const MAX_BATCH = 256;

/** readForEvent, gathered with the other users' reads issued at the same time on the same database (4 batches out at once). */
export const batchedReadForEvent: (db: DbOrTx, input: EventReadInput) => Promise<EventRead> = batchedReads<EventReadInput, EventRead>({
  maxInFlight: 4,
  maxBatch: MAX_BATCH,
  // One read alone keeps its own (single-user) statement.
  read: async (db, inputs) => (inputs.length === 1 ? [await readForEvent(db, inputs[0].scope, inputs[0].key, inputs[0].missionIds)] : readForEvents(db, inputs)),
});

/** Every record and the attributes of several users in one statement, in the inputs' order. */
export async function readUserStates(db: DbOrTx, scopes: readonly Scope[]): Promise<UserState[]> {
  const rows = await runPrepared(db, READ_USER_STATES, [
    `{${scopes.map((_, i) => i).join(',')}}`,
    textArray(scopes.map((s) => s.appId)),
    textArray(scopes.map((s) => s.userId)),
  ]);
  const byIdx = new Map(rows.map((row) => [Number(row.idx), row]));
  return scopes.map((s, i) => {
    const row = byIdx.get(i);
    return { records: recordsOf(s.userId, row?.records), attributes: parseAttributes(row?.attributes) };
  });
}

/** One user's records and attributes, read together with the other users' reads issued at the same time on the same database (2 statements out at once). */
export const readUserState: (db: DbOrTx, scope: Scope) => Promise<UserState> = batchedReads<Scope, UserState>({
  maxInFlight: 2,
  maxBatch: MAX_BATCH,
  read: readUserStates,
});

async function readWithSeq(db: DbOrTx, appId: string, userId: string): Promise<SequencedState> {
  const [row] = await runPrepared(db, USER_RECORDS_WITH_SEQ, [appId, userId]);
  const records = new Map<string, ProgressRecord>();
  for (const [missionId, status, currentCount, targetCount, windowStart, cycle, updatedAt, state] of parsed<RecordArray[]>(row?.records ?? [])) {
    records.set(missionId, { userId, missionId, status, currentCount, targetCount, windowStart, cycle, updatedAt, ...(state === null || state === undefined ? {} : { state }) });
  }
  return { seq: seqOf(row), records, attributes: parseAttributes(row?.attributes) };
}

// ---- The cache ----

/** How long the mission list trusts an entry whose number matches the log's (a change whose publish failed is not in the log). */
const RECORDS_TRUST_MS = 10_000;
/** Users kept; the least recently stored go first. */
const MAX_USERS = 20_000;

interface Entry {
  seq: number | null;
  /** When change number `seq` committed, when known (an event's write, or its read). */
  seqAt?: number | null;
  /** Every mission id known for the user at `seq` (present or not), and its record when it has one. */
  records: Map<string, ProgressRecord | null>;
  /** Every record of the user is in `records` (a full read, or an event's write applied to one). */
  complete: boolean;
  /** The user's attributes at `seq` (setting attributes takes a sequence number too). */
  attributes: UserAttributes;
  /** When the state was read or written (Date.now()): the mission list trusts it RECORDS_TRUST_MS. */
  at: number;
}

// One per process, not per module copy: a forget from one route must reach
// the copy another route reads (lib/process-wide.ts).
const entries = processWide('progress.user-state', () => new Map<string, Entry>());
const keyOf = (appId: string, userId: string) => `${appId}\u0000${userId}`;

/** Stores `entry` unless a later state stored meanwhile (a concurrent change of the user) is there. */
function store(key: string, entry: Entry): void {
  const previous = entries.get(key);
  if (previous && previous.seq !== null && (entry.seq === null || previous.seq > entry.seq)) return;
  entries.delete(key);
  entries.set(key, entry);
  if (entries.size > MAX_USERS) entries.delete(entries.keys().next().value as string);
}

/** The event path's read from the cache: the state covering every id of `missionIds`; undefined when not known here. */
export function cachedForEvent(appId: string, userId: string, missionIds: readonly string[]): SequencedState | undefined {
  const entry = entries.get(keyOf(appId, userId));
  if (!entry) return undefined;
  const records = new Map<string, ProgressRecord>();
  for (const id of missionIds) {
    const r = entry.records.get(id);
    if (r === undefined && !entry.complete) return undefined;
    if (r) records.set(id, r);
  }
  return { seq: entry.seq, seqAt: entry.seqAt ?? null, records, attributes: entry.attributes };
}

/**
 * Stores what an event leaves the user's state at `seq`: `read` (the records
 * of `missionIds` evaluated against, at `readSeq`) with `written` applied.
 */
export function rememberEventState(
  appId: string,
  userId: string,
  at: { readSeq: number | null; seq: number | null; seqAt: number | null },
  missionIds: readonly string[],
  read: ReadonlyMap<string, ProgressRecord>,
  written: readonly ProgressRecord[],
  attributes: UserAttributes,
): void {
  const key = keyOf(appId, userId);
  const previous = entries.get(key);
  // What was known at the sequence number read is still true after the write (it changed only `written`).
  const same = previous !== undefined && previous.seq === at.readSeq;
  const records = same ? previous.records : new Map<string, ProgressRecord | null>();
  for (const id of missionIds) records.set(id, read.get(id) ?? null);
  for (const r of written) records.set(r.missionId, r);
  store(key, { seq: at.seq, seqAt: at.seqAt, records, complete: same && previous.complete, attributes, at: Date.now() });
}

/**
 * Every record and the attributes of the user: from the cache when
 * `latestSeq` (the update log's number, read by the caller) equals the entry's
 * number and the entry is recent, else from the database (and cached).
 * `latestSeq` undefined: not known, so the database answers.
 */
export async function userStateAt(db: DbOrTx, appId: string, userId: string, latestSeq: number | null | undefined): Promise<UserState> {
  const key = keyOf(appId, userId);
  const hit = entries.get(key);
  if (hit && hit.complete && latestSeq !== undefined && hit.seq === latestSeq && hit.at + RECORDS_TRUST_MS > Date.now()) {
    const records = new Map<string, ProgressRecord>();
    for (const [id, r] of hit.records) if (r) records.set(id, r);
    return { records, attributes: hit.attributes };
  }
  const state = await readWithSeq(db, appId, userId);
  store(key, { seq: state.seq, records: new Map(state.records), complete: true, attributes: state.attributes, at: Date.now() });
  return state;
}

/** Forgets the user (a write found the entry stale, its outcome is not known, or the attributes changed). */
export function forgetUserState(appId: string, userId: string): void {
  entries.delete(keyOf(appId, userId));
}

/** This instance publishes the user's change number `seq` (or fails to): an entry older than it is stale from now on. */
export function userChanged(appId: string, userId: string, seq: number): void {
  const key = keyOf(appId, userId);
  const entry = entries.get(key);
  if (entry && (entry.seq === null || entry.seq < seq)) entries.delete(key);
}
