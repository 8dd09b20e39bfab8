// Filling a user's stream from the database, the truth, when the update log
// missed changes or the catalog changed what the user's records read as.
//
// A resync is one change of the user's order like any other: it takes the
// next sequence number (user_sequences, under the user's row lock, so it
// queues behind a concurrent event or claim and a concurrent event's
// optimistic write evaluates again), reads the records it reports in that
// same transaction, and publishes them as the current state: each record as
// `mission.progress` (or `mission.completed` while completed), as
// GET /v1/missions/:id reads it now, and for a repair each balance changed as
// `balance.changed`. Messages are states, not deltas, so a resync after
// messages that were lost leaves the stream's last word per mission and per
// currency equal to the stored state.
//
// When:
// - Repair (the log missed changes: Redis was unreachable when they were
//   published, or their publisher died between commit and publish). Found
//   three ways: (1) a publish that failed puts the user on this process's
//   repair list, retried every second until Redis answers; (2) every stream
//   that opens, and every live stream whose log reads failed and work again,
//   compares the database's sequence number with the last one the log
//   published (checkStreamGap); (3) a publisher that had to give up waiting
//   for a missing predecessor (publishInOrder's flush). The repair reports the
//   records and balances changed in the log's retention (LOG_MAX_AGE_MS).
//   A `reward.granted` is an event, not a state, so it cannot be read back
//   from the records: the publisher whose message failed (or was dropped as
//   late) hands its `reward.granted` to the repair, which sends it first,
//   unless the log already holds it (a publish that timed out after Redis
//   had applied it). A message that waited in the order state for a
//   predecessor is handed over the same way when its flush fails, or finds
//   nothing to publish and the log does not hold it (the state was lost: a
//   Redis that came back empty). Grants are thus announced once: never a
//   second time for a message that reached the log, and once for one that did
//   not, as long as the instance that failed to publish it lives to repair it
//   (and the log still holds what reached it).
// - Catalog edit (a mission's count, window or archived flag changed): every
//   user with a record of the mission gets its new reading
//   (afterCatalogEdit); a second pass after CATALOG_SETTLE_MS covers events
//   that were judged against the catalog as it was when they arrived.
import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import { isDeepStrictEqual } from 'node:util';
import { balances, progress } from '@/db/schema';
import type { Mission } from '@/lib/contract/mission';
import type { SdkUpdate } from '@/lib/contract/updates';
import { serviceNow } from '@/lib/clock';
import { isUnavailableError } from '@/lib/errors';
import { logError, logWarn } from '@/lib/log';
import { processWide } from '@/lib/process-wide';
import { getUpdateLog, LOG_MAX_AGE_MS, userLogKey, userOrderKey } from './log';
import { parseLogId } from './log-ids';
import { GAP_WAIT_MS, publishInOrder } from './publish';
import { streamSources } from './sources';
import { pause } from './timers';

/** What a resync reports: the records of these missions, or everything changed since a time (a repair). */
type ResyncScope = { missionIds: string[] } | { sinceMs: number };

/** A `reward.granted` whose publish failed, and when (the claim committed just before). */
interface LostGrant {
  update: SdkUpdate & { type: 'reward.granted' };
  at: number;
}

/** A repair list's entry keeps at most this many lost grants per user (the oldest go first). */
const MAX_LOST_GRANTS = 100;
/** Clock slack between instances when looking for a grant in the log. */
const LOG_CLOCK_SLACK_MS = 5_000;

/**
 * The `reward.granted` messages among a change's updates, stamped `at` (for
 * noteUnlogged / repairSoon): the time taken before the append was sent, so
 * that an append Redis applied but whose reply timed out (up to
 * REDIS_COMMAND_TIMEOUT_MS later) is still found in the log by notInLog.
 */
export function grantsOf(updates: SdkUpdate[], at: number): LostGrant[] {
  return updates.filter((u): u is LostGrant['update'] => u.type === 'reward.granted').map((update) => ({ update, at }));
}

/**
 * The lost grants the log does not hold: a publish that timed out may have
 * been applied by Redis all the same, and its message must not be sent twice.
 * A log that came back empty holds none of them.
 */
async function notInLog(appId: string, userId: string, grants: LostGrant[]): Promise<LostGrant[]> {
  if (grants.length === 0) return grants;
  const since = Math.min(...grants.map((g) => g.at)) - LOG_CLOCK_SLACK_MS;
  const logged = (await getUpdateLog().readAfter(userLogKey(appId, userId), `${Math.max(0, since)}-0`))
    .map((e) => ({ ms: parseLogId(e.id)?.[0] ?? 0, update: JSON.parse(e.update) as SdkUpdate }))
    .filter((e) => e.update.type === 'reward.granted');
  return grants.filter((g) => {
    const i = logged.findIndex((e) => e.ms >= g.at - LOG_CLOCK_SLACK_MS && isDeepStrictEqual(e.update, g.update));
    if (i < 0) return true;
    logged.splice(i, 1); // one logged message accounts for one grant
    return false;
  });
}

/**
 * Whether the log holds every one of `updates` (sent as one change, its append
 * started at `at`): a message that waited for a predecessor was published by
 * that predecessor's publisher, or was lost with the order state.
 */
export async function reachedLog(appId: string, userId: string, updates: SdkUpdate[], at: number): Promise<boolean> {
  const since = Math.max(0, at - LOG_CLOCK_SLACK_MS);
  const logged = new Set((await getUpdateLog().readAfter(userLogKey(appId, userId), `${since}-0`)).map((e) => e.update));
  return updates.every((u) => logged.has(JSON.stringify(u)));
}

/** After a catalog edit, how long before the second pass (events in flight judged against the old catalog). */
const CATALOG_SETTLE_MS = 2_000;
/** Users on a process's repair list at most (beyond it, the next stream open or change repairs them). */
const MAX_REPAIR_LIST = 10_000;
/** Resyncs of one catalog edit run this many at a time. */
const FAN_OUT = 4;

const figures = processWide('resync.figures', () => ({ repairs: 0, catalogResyncs: 0, catalogEdits: 0, catalogEditsDone: 0 }));

/**
 * Repairs and catalog resyncs (users) done in this process, and catalog edits
 * handed to afterCatalogEdit and those whose passes are over (tests, docs/engineering/reliability.md).
 */
export function resyncFigures(): { repairs: number; catalogResyncs: number; catalogEdits: number; catalogEditsDone: number; repairsPending: number } {
  // Users on the repair list, checks and repairs running, and a drain of the list in progress.
  return { ...figures, repairsPending: repairList.users.size + checks.size + (repairList.draining ? 1 : 0) };
}

function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/**
 * Publishes the current state of what `scope` selects as the user's next
 * change. Answers the number of messages sent (0 also when the user has no
 * sequence number yet: nothing of theirs was ever published).
 */
async function resyncUser(appId: string, userId: string, scope: ResyncScope, lostGrants: LostGrant[] = []): Promise<number> {
  // Before the transaction: the embedded database has one connection, and a
  // log read that fails must not leave a sequence number taken and unpublished.
  const sources = streamSources();
  const readProgress = await sources.progressReader(appId, userId);
  const grants = await notInLog(appId, userId, lostGrants);
  const db = await sources.db();
  const read = await db.transaction(async (tx) => {
    const bumped = rowsOf<{ seq: string }>(
      await tx.execute(sql`update user_sequences set seq = seq + 1, changed_at = ${Date.now()} where app_id = ${appId} and user_id = ${userId} returning seq::text as seq`),
    )[0];
    if (!bumped) return null;
    const where =
      'missionIds' in scope
        ? and(eq(progress.appId, appId), eq(progress.userId, userId), inArray(progress.missionId, scope.missionIds))
        : and(eq(progress.appId, appId), eq(progress.userId, userId), gte(progress.updatedAt, scope.sinceMs));
    const records = scope && 'missionIds' in scope && scope.missionIds.length === 0 ? [] : await tx.select().from(progress).where(where);
    const money =
      'sinceMs' in scope
        ? await tx
            .select()
            .from(balances)
            .where(and(eq(balances.appId, appId), eq(balances.userId, userId), gte(balances.updatedAt, scope.sinceMs)))
        : [];
    return { seq: Number(bumped.seq), records, money };
  });
  if (!read) return 0;
  const now = serviceNow();
  // Lost grants first: the record's claimed state and the balance follow, as after a claim.
  const updates: SdkUpdate[] = grants.map((g) => g.update);
  for (const row of [...read.records].sort((a, b) => a.updatedAt - b.updatedAt)) {
    const update = readProgress(row, now);
    if (update) updates.push(update);
  }
  for (const row of [...read.money].sort((a, b) => a.updatedAt - b.updatedAt)) updates.push(sources.balanceUpdate(row));
  // A repair closes the gap before it at once (the missed changes are what it reports).
  await publishInOrder(appId, userId, read.seq, updates, { closeGap: 'sinceMs' in scope });
  return updates.length;
}

/** A repair: the lost grants handed over, then the records and balances changed within the log's retention. */
async function repair(appId: string, userId: string, why: string, lostGrants: LostGrant[] = []): Promise<void> {
  const sent = await resyncUser(appId, userId, { sinceMs: Date.now() - LOG_MAX_AGE_MS }, lostGrants);
  figures.repairs += 1;
  logWarn('stream: log repaired from the database', { appId, userId, why, messages: sent });
}

/** The user's sequence number in the database (0 when none). */
async function storedSeq(appId: string, userId: string): Promise<number> {
  const db = await streamSources().db();
  const row = rowsOf<{ seq: string }>(
    await db.execute(sql`select seq::text as seq from user_sequences where app_id = ${appId} and user_id = ${userId}`),
  )[0];
  return row ? Number(row.seq) : 0;
}

/**
 * True when the log published fewer of the user's changes than the database
 * holds, and still so after publishers in flight had time to arrive.
 */
async function hasGap(appId: string, userId: string): Promise<boolean> {
  const stored = await storedSeq(appId, userId);
  if (stored === 0) return false;
  const log = getUpdateLog();
  const key = userOrderKey(appId, userId);
  const behind = async () => ((await log.publishedThrough(key)) ?? 0) < stored;
  if (!(await behind())) return false;
  await pause(2 * GAP_WAIT_MS);
  return behind();
}

const checks = processWide('resync.checks', () => new Map<string, Promise<void>>());

/**
 * In the background: repairs the user's log if it is missing changes the
 * database holds (stream opened, or its log reads work again). One check per
 * user at a time in a process.
 */
export function checkStreamGap(appId: string, userId: string): void {
  inBackground(appId, userId, async () => {
    if (await hasGap(appId, userId)) await repair(appId, userId, 'stream found the log behind the database');
  });
}

/**
 * In the background: repairs the user's log now, without comparing numbers: a
 * publisher gave up waiting for a predecessor, or came after a later change
 * was published (its message was dropped).
 */
export function repairSoon(appId: string, userId: string, why: string, lostGrants: LostGrant[] = []): void {
  // A check already running for the user would drop the grants: they go on the repair list instead.
  if (lostGrants.length > 0) return noteUnlogged(appId, userId, lostGrants, why);
  inBackground(appId, userId, () => repair(appId, userId, why));
}

function inBackground(appId: string, userId: string, work: () => Promise<void>): void {
  const key = `${appId}\u0000${userId}`;
  if (checks.has(key)) return;
  const run = work()
    .catch((err: unknown) => {
      if (!isUnavailableError(err)) logError('stream: log gap check failed', err, { appId, userId });
    })
    .finally(() => checks.delete(key));
  checks.set(key, run);
}

// Users whose publish failed in this process: repaired once Redis answers.
// `draining`: a drain of the list is in progress (one at a time in a process,
// whichever chunk's copy of this module the timer or a reader belongs to).
type RepairEntry = { appId: string; userId: string; lostGrants: LostGrant[]; why: string };
const repairList = processWide('resync.repairList', () => ({
  users: new Map<string, RepairEntry>(),
  timer: null as ReturnType<typeof setInterval> | null,
  draining: false,
}));

/** A publish of the user's change failed: repair their log once Redis is back, with the change's lost grants. */
export function noteUnlogged(appId: string, userId: string, lostGrants: LostGrant[] = [], why = 'publish failed'): void {
  const key = `${appId}\u0000${userId}`;
  const entry = repairList.users.get(key);
  if (entry) {
    entry.lostGrants = [...entry.lostGrants, ...lostGrants].slice(-MAX_LOST_GRANTS);
  } else {
    if (repairList.users.size >= MAX_REPAIR_LIST) return;
    repairList.users.set(key, { appId, userId, lostGrants: lostGrants.slice(-MAX_LOST_GRANTS), why });
  }
  if (repairList.timer) return;
  repairList.timer = setInterval(() => void drainRepairList(), 1_000);
  repairList.timer.unref?.();
}

async function drainRepairList(): Promise<void> {
  if (repairList.draining) return;
  repairList.draining = true;
  try {
    for (const [key, entry] of [...repairList.users]) {
      repairList.users.delete(key);
      try {
        // Throws while Redis is still away (the user goes back on the list); the failed publish needs no other proof.
        await getUpdateLog().publishedThrough(userOrderKey(entry.appId, entry.userId));
        await repair(entry.appId, entry.userId, entry.why, entry.lostGrants);
      } catch (err) {
        if (!isUnavailableError(err)) {
          logError('stream: log repair failed', err, { appId: entry.appId, userId: entry.userId });
          continue;
        }
        // Back on the list, before whatever failed for the user meanwhile.
        const meanwhile = repairList.users.get(key);
        if (meanwhile) meanwhile.lostGrants = [...entry.lostGrants, ...meanwhile.lostGrants].slice(-MAX_LOST_GRANTS);
        else repairList.users.set(key, entry);
        // Redis (or the database) still away: try again on the next round.
        break;
      }
    }
  } finally {
    repairList.draining = false;
    if (repairList.users.size === 0 && repairList.timer) {
      clearInterval(repairList.timer);
      repairList.timer = null;
    }
  }
}

/** What a mission's stream message depends on in its definition. */
function streamedDefinition(m: Pick<Mission, 'criteria' | 'archived'>): string {
  return JSON.stringify([m.criteria.count, m.criteria.window ?? 'lifetime', m.archived ?? false]);
}

/** The ids of missions whose count, window or archived flag differs between `before` and `after`. */
export function streamedChanges(before: Map<string, Pick<Mission, 'id' | 'criteria' | 'archived'>>, after: Array<Pick<Mission, 'id' | 'criteria' | 'archived'>>): string[] {
  return after.filter((m) => before.has(m.id) && streamedDefinition(before.get(m.id)!) !== streamedDefinition(m)).map((m) => m.id);
}

async function resyncHolders(appId: string, missionIds: string[], sinceMs: number | null): Promise<void> {
  const db = await streamSources().db();
  const where = sinceMs === null
    ? and(eq(progress.appId, appId), inArray(progress.missionId, missionIds))
    : and(eq(progress.appId, appId), inArray(progress.missionId, missionIds), gte(progress.updatedAt, sinceMs));
  const users = [...new Set((await db.selectDistinct({ userId: progress.userId }).from(progress).where(where)).map((r) => r.userId))];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(FAN_OUT, users.length) }, async () => {
      while (next < users.length) {
        const userId = users[next++];
        await resyncUser(appId, userId, { missionIds }).catch((err: unknown) => logError('stream: catalog resync failed', err, { appId, userId }));
        figures.catalogResyncs += 1;
      }
    }),
  );
}

/**
 * After a committed catalog edit: in the background, every user with a record
 * of a changed mission gets the mission's new reading on their stream; a
 * second pass after CATALOG_SETTLE_MS re-sends it to users whose record was
 * written since the edit began (an event judged against the previous catalog).
 */
export function afterCatalogEdit(appId: string, missionIds: string[], editStartedAt: number): Promise<void> {
  figures.catalogEdits += 1;
  if (missionIds.length === 0) return Promise.resolve().then(() => void (figures.catalogEditsDone += 1));
  return (async () => {
    await resyncHolders(appId, missionIds, null);
    await pause(CATALOG_SETTLE_MS);
    await resyncHolders(appId, missionIds, editStartedAt - CATALOG_SETTLE_MS);
  })()
    .catch((err: unknown) => logError('stream: catalog resync failed', err, { appId, missionIds }))
    .finally(() => void (figures.catalogEditsDone += 1));
}
