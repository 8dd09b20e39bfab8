// Test support: letting time pass for a user's progress records. Events are
// bounded by the server clock (lib/events/event-time.ts) and a late one never
// opens a past window, so "a record from yesterday" is made by moving the
// user's records back, as another writer would: the same statement bumps the
// user's sequence number (an event's cached read fails its check), and this
// process's cached state of the user is dropped (the test server runs here).
import { sql } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { forgetUserState } from '@/lib/progress/user-state';

/** Moves every progress record of the user `ms` back in time (its window and updatedAt). */
export async function moveRecordsBack(appId: string, userId: string, ms: number): Promise<void> {
  const db = await getDb();
  await db.execute(sql`with s as (update user_sequences set seq = seq + 1 where app_id = ${appId} and user_id = ${userId} returning seq)
    update progress set window_start = window_start - ${ms}, updated_at = updated_at - ${ms} from s where app_id = ${appId} and user_id = ${userId}`);
  forgetUserState(appId, userId);
}
