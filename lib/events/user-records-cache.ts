// The progress records an event last read or wrote for a user, with the
// user's sequence number, kept in this process so that the user's next event
// can skip its read statement (one PostgreSQL round trip of two).
//
// A cached entry may be stale: another instance, a claim or a webhook
// delivery may have changed the user since. That is harmless because the
// event's write checks the sequence number it evaluated against
// (`seq = $expected`, lib/events/write-event.ts) and every writer of progress
// bumps it in the statement that writes (events, claims, resync): a stale
// entry makes the write change nothing, the entry is dropped and the event is
// read and evaluated again from the database. An evaluation that would write
// no progress row has no such check, so recordEvent never trusts the cache
// for it (it reads instead). Entries are answered only for the mission ids
// they were read for; the least recently stored go first beyond MAX_USERS.
import type { ProgressRecord } from '@/lib/missions/schema';
import type { UserAttributes } from '@/lib/users/attributes';
import { processWide } from '@/lib/process-wide';

/** Users kept; each entry holds the few records of the missions its events read. */
const MAX_USERS = 20_000;

interface Entry {
  seq: number | null;
  /** Every mission id read for the user (present or not), and its record when it has one. */
  records: Map<string, ProgressRecord | null>;
  /** The user's attributes at `seq` (a change of attributes bumps the number too, so a stale entry fails the write's check). */
  attributes: UserAttributes;
}

// One per process, not per module copy: the claim route's forget must reach
// the copy the events route reads (lib/process-wide.ts).
const entries = processWide('events.user-records-cache', () => new Map<string, Entry>());

const keyOf = (appId: string, userId: string) => `${appId}\u0000${userId}`;

/** The cached sequence number and records covering every id of `missionIds`; undefined when not known here. */
export function cachedRecords(
  appId: string,
  userId: string,
  missionIds: readonly string[],
): { seq: number | null; records: Map<string, ProgressRecord>; attributes: UserAttributes } | undefined {
  const entry = entries.get(keyOf(appId, userId));
  if (!entry) return undefined;
  const records = new Map<string, ProgressRecord>();
  for (const id of missionIds) {
    const r = entry.records.get(id);
    if (r === undefined) return undefined;
    if (r !== null) records.set(id, r);
  }
  return { seq: entry.seq, records, attributes: entry.attributes };
}

/**
 * Stores what the user's records are at `seq`: `read` (the records of
 * `missionIds` as evaluated against, at `readSeq`) with `written` applied.
 */
export function storeRecords(
  appId: string,
  userId: string,
  at: { readSeq: number | null; seq: number | null },
  missionIds: readonly string[],
  read: ReadonlyMap<string, ProgressRecord>,
  written: readonly ProgressRecord[],
  attributes: UserAttributes,
): void {
  const key = keyOf(appId, userId);
  const previous = entries.get(key);
  // A later state stored meanwhile (a concurrent event of the user) stays.
  if (previous && previous.seq !== null && (at.seq === null || previous.seq > at.seq)) return;
  // Ids known at the sequence number read are still true after the write (it changed only `written`).
  const records = previous && previous.seq === at.readSeq ? previous.records : new Map<string, ProgressRecord | null>();
  for (const id of missionIds) records.set(id, read.get(id) ?? null);
  for (const r of written) records.set(r.missionId, r);
  entries.delete(key);
  entries.set(key, { seq: at.seq, records, attributes });
  if (entries.size > MAX_USERS) entries.delete(entries.keys().next().value as string);
}

/** Forgets the user (a write found the entry stale, or the outcome is not known). */
export function forgetRecords(appId: string, userId: string): void {
  entries.delete(keyOf(appId, userId));
}
