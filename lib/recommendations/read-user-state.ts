// What a user's recommendations are computed from: every progress record of
// the user and the user's attributes (audiences, zone), in one statement, and
// the reads of different users issued at the same time gathered into one
// statement (as the events' group read, lib/events/read-batch.ts).
//
// Why: every first claim refreshes the claimer's recommendations in the
// background (docs/decisions: "recommendation messages"), and those reads
// were two of the claim path's three statements per claim; on this machine a
// statement's socket write is the largest single cost of the server's CPU
// (docs/engineering/benchmarks.md, "Claims: the recommendation refresh's reads
// gathered"). A read is a snapshot outside any transaction, as the two
// statements it replaces were.
import type { DbOrTx } from '@/db/client';
import { runPrepared, textArray, type Prepared } from '@/db/prepared';
import { batchedReads } from '@/lib/events/gather';
import type { ProgressRecord } from '@/lib/progress/record';
import { parseAttributes, type UserAttributes } from '@/lib/users/attributes';

export interface UserState {
  records: Map<string, ProgressRecord>;
  attributes: UserAttributes;
}

interface Scope {
  appId: string;
  userId: string;
}

/** $1 idx[], $2 app[], $3 user[]: one row per input, `idx` its place. */
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

type RecordRow = Omit<ProgressRecord, 'userId' | 'state'> & { state: ProgressRecord['state'] | null };

function stateOf(userId: string, row: Record<string, unknown> | undefined): UserState {
  const raw = row?.records ?? '[]';
  const rows = (typeof raw === 'string' ? JSON.parse(raw) : raw) as RecordRow[];
  const records = new Map<string, ProgressRecord>();
  for (const { state, ...r } of rows) records.set(r.missionId, { userId, ...r, ...(state === null || state === undefined ? {} : { state }) });
  return { records, attributes: parseAttributes(row?.attributes) };
}

/** The state of several users in one statement, in the inputs' order. */
export async function readUserStates(db: DbOrTx, scopes: readonly Scope[]): Promise<UserState[]> {
  const rows = await runPrepared(db, READ_USER_STATES, [
    `{${scopes.map((_, i) => i).join(',')}}`,
    textArray(scopes.map((s) => s.appId)),
    textArray(scopes.map((s) => s.userId)),
  ]);
  const byIdx = new Map(rows.map((row) => [Number(row.idx), row]));
  return scopes.map((s, i) => stateOf(s.userId, byIdx.get(i)));
}

/** A bound on one statement's size. */
const MAX_BATCH = 256;

/** One user's records and attributes, read together with the other users' reads issued at the same time on the same database (2 statements out at once). */
export const readUserState: (db: DbOrTx, scope: Scope) => Promise<UserState> = batchedReads<Scope, UserState>({
  maxInFlight: 2,
  maxBatch: MAX_BATCH,
  read: readUserStates,
});
