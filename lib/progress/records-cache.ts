// The mission list's per-user record cache: a user's progress records as
// last read from the database, with the user's sequence number read in the
// same statement (one snapshot). Every change to a user's progress bumps
// that number in its transaction and hands it to the update log's order
// state after commit (lib/updates/publish.ts), which keeps the highest one
// handed in (UpdateLog.latestSeq). GET /v1/missions reads that number with
// the token checks (the same Redis round trip) and uses the cached records
// only while it equals the cached one; otherwise it reads the database.
//
// So a change committed by any instance is seen as soon as its publisher has
// reached the log (before the writer answers its client). A change whose
// publish failed (Redis unreachable at that moment) is not in the log's
// number: this instance forgets the user's entry when it publishes (or
// fails to), and every entry expires after RECORDS_CACHE_TTL_MS, which bounds
// what another instance can serve in that case.
import type { DbOrTx } from '@/db/client';
import { runPrepared, type Prepared } from '@/db/prepared';
import type { ProgressRecord } from './record';
import { processWide } from '@/lib/process-wide';
import { parseAttributes, type UserAttributes } from '@/lib/users/attributes';

const RECORDS_CACHE_TTL_MS = 10_000;
const RECORDS_CACHE_MAX_USERS = 20_000;

interface Entry {
  seq: number | null;
  records: Map<string, ProgressRecord>;
  /** The user's attributes at `seq` (setting attributes takes a sequence number too). */
  attributes: UserAttributes;
  expires: number;
}

/** A user's records and attributes, one snapshot. */
export interface UserState {
  records: Map<string, ProgressRecord>;
  attributes: UserAttributes;
}

// One per process, not per module copy: a route's forget must reach the copy
// another route reads (lib/process-wide.ts).
const cache = processWide('progress.records-cache', () => new Map<string, Entry>());
const keyOf = (appId: string, userId: string) => `${appId}\u0000${userId}`;

/** $1 app, $2 user: the user's sequence number (null: never changed) and records, one snapshot. */
const USER_RECORDS_WITH_SEQ: Prepared = {
  name: 'ql_user_records_seq_v3',
  text: `select (select seq::text from user_sequences where app_id = $1 and user_id = $2) as seq,
  (select attributes from app_users where app_id = $1 and user_id = $2) as attributes,
  (select json_agg(json_build_array(mission_id, status, current_count, target_count, window_start, cycle, updated_at, state))::text
   from progress where app_id = $1 and user_id = $2) as records`,
};

type Row = [string, ProgressRecord['status'], number, number, number, number, number, ProgressRecord['state'] | null];

async function readWithSeq(db: DbOrTx, appId: string, userId: string): Promise<Entry> {
  const [row] = await runPrepared(db, USER_RECORDS_WITH_SEQ, [appId, userId]);
  const records = new Map<string, ProgressRecord>();
  const text = row?.records;
  const rows = (typeof text === 'string' ? JSON.parse(text) : (text ?? [])) as Row[];
  for (const [missionId, status, currentCount, targetCount, windowStart, cycle, updatedAt, state] of rows) {
    records.set(missionId, { userId, missionId, status, currentCount, targetCount, windowStart, cycle, updatedAt, ...(state === null || state === undefined ? {} : { state }) });
  }
  const seq = row?.seq === null || row?.seq === undefined ? null : Number(row.seq);
  return { seq, records, attributes: parseAttributes(row?.attributes), expires: Date.now() + RECORDS_CACHE_TTL_MS };
}

/**
 * The user's records: from the cache when `latestSeq` (the update log's
 * number, read by the caller) equals the cached number, else from the
 * database (and cached). `latestSeq` undefined: not known (the read failed),
 * so the database answers.
 */
/** ...and the user's attributes, read in the same statement (no extra round trip) and cached with the records. */
export async function userStateAt(db: DbOrTx, appId: string, userId: string, latestSeq: number | null | undefined): Promise<UserState> {
  const key = keyOf(appId, userId);
  const hit = cache.get(key);
  if (hit && latestSeq !== undefined && hit.seq === latestSeq && hit.expires > Date.now()) return hit;
  const entry = await readWithSeq(db, appId, userId);
  cache.delete(key);
  if (cache.size >= RECORDS_CACHE_MAX_USERS) cache.delete(cache.keys().next().value!);
  cache.set(key, entry);
  return entry;
}

/** Drops the user's entry (a change of theirs is being published by this instance). */
export function forgetUserRecords(appId: string, userId: string): void {
  cache.delete(keyOf(appId, userId));
}
