// Reading and writing progress records, and the per-user lock that serializes
// every change to one user's progress and balances (events, claims).
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '@/db/client';
import { progress } from '@/db/schema';
import type { ProgressRecord } from './record';

/**
 * Transaction-scoped lock on (app, user): concurrent writers of one user queue
 * up. It is the row lock of the user's sequence number (user_sequences,
 * created at 0 when missing), so it also stops the optimistic write of a
 * concurrent event (lib/events/write-event.ts) until this transaction ends.
 * Answers the user's sequence number; a writer that changes progress bumps it
 * in the same transaction (bumpUserSequence).
 */
export async function lockUser(tx: Tx, appId: string, userId: string): Promise<number> {
  const result = await tx.execute(
    sql`insert into user_sequences (app_id, user_id, seq) values (${appId}, ${userId}, 0)
        on conflict (app_id, user_id) do update set seq = user_sequences.seq returning seq::text as seq`,
  );
  return Number((result as unknown as { rows: Array<{ seq: string }> }).rows[0].seq);
}

/**
 * Locks several users with the same row locks as lockUser, taken in user id
 * order in one statement: two transactions locking overlapping sets always
 * queue instead of deadlocking, and a single-user writer (lockUser, or the
 * optimistic event write) waits for the whole batch.
 */
export async function lockUsers(tx: Tx, appId: string, userIds: string[]): Promise<void> {
  const ids = [...new Set(userIds)].sort();
  if (ids.length === 0) return;
  const rows = sql.join(
    ids.map((u) => sql`(${appId}::text, ${u}::text, 0::bigint)`),
    sql`, `,
  );
  await tx.execute(
    sql`insert into user_sequences (app_id, user_id, seq)
        select a, u, s from (values ${rows}) as v(a, u, s) order by u
        on conflict (app_id, user_id) do update set seq = user_sequences.seq`,
  );
}

function toRecord(row: typeof progress.$inferSelect): ProgressRecord {
  return {
    userId: row.userId,
    missionId: row.missionId,
    status: row.status,
    currentCount: row.currentCount,
    targetCount: row.targetCount,
    windowStart: row.windowStart,
    cycle: row.cycle,
    updatedAt: row.updatedAt,
    ...(row.state === null ? {} : { state: row.state }),
  };
}

/** The user's records, all of them or those of the given missions. */
export async function readRecords(db: DbOrTx, appId: string, userId: string, missionIds?: string[]): Promise<Map<string, ProgressRecord>> {
  if (missionIds && missionIds.length === 0) return new Map();
  const where = missionIds
    ? and(eq(progress.appId, appId), eq(progress.userId, userId), inArray(progress.missionId, missionIds))
    : and(eq(progress.appId, appId), eq(progress.userId, userId));
  const rows = await db.select().from(progress).where(where);
  return new Map(rows.map((r) => [r.missionId, toRecord(r)]));
}
