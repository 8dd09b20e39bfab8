// Hands a user's updates to the update log after the change that caused them
// is committed: each one gets a per-user increasing id and is published as
// `{id, update}` on the user's bus channel; the stream endpoint fans them out
// to every open stream and replays them on resume (Last-Event-ID).
//
// Changes to a user's progress carry the sequence number their transaction
// took (user_sequences, written in lib/events/write-event.ts and lib/progress/records.ts) and are published in that order
// (publishInOrder), whatever order their publishers reach the log in.
import { logError } from '@/lib/log';
import { isCircuitOpen } from '@/lib/kv/breaker';
import { slotKey } from '@/lib/kv/keys';
import { getUpdateLog, userLogKey, userOrderKey } from './log';
import type { SdkUpdate } from '@/lib/contract/updates';
import { metrics } from '@/lib/metrics';
import { grantsOf, noteUnlogged, reachedLog, repairSoon } from './resync';
import { streamSources } from './sources';
import { later } from './timers';

/** The user's update channel; on a Redis Cluster a shard channel in the slot of the user's log (userLogKey). */
export const userChannel = (appId: string, userId: string) => slotKey('updates', appId, userId);

/**
 * How long a message that came before its predecessor waits for it before
 * the gap is given up on (its publisher died between commit and publish; the
 * client's next read of the API recovers that change).
 */
export const GAP_WAIT_MS = 1_000;

/** Updates outside any user's change order (recommendations). */
export async function publishUpdates(appId: string, userId: string, updates: SdkUpdate[]): Promise<void> {
  if (updates.length === 0) return;
  try {
    await getUpdateLog().appendAndPublish(
      userLogKey(appId, userId),
      userChannel(appId, userId),
      updates.map((u) => JSON.stringify(u)),
    );
  } catch (err) {
    // The change is committed; a lost message is recovered by the client's next read.
    metrics().busErrors.inc({ operation: 'publish' });
    if (!isCircuitOpen(err)) logError('publish failed', err, { appId, userId, types: updates.map((u) => u.type) });
  }
}

/**
 * Publishes the updates of the committed change number `seq` of the user,
 * after every earlier one. Called for every sequence number taken, even with
 * no updates, so that later ones need not wait. `closeGap`: give up at once on
 * earlier numbers that have not arrived (a repair, lib/updates/resync.ts,
 * which reports what they changed). `settled`: the change before `seq`
 * committed long ago (LogOrder.settled), so a user back after the order
 * state expired is not kept waiting for it.
 *
 * A publish that fails (Redis unreachable) puts the user on the repair list,
 * a gap given up after GAP_WAIT_MS is repaired, and so is a waiting message
 * lost with the order state (Redis back empty): the missed changes reach the
 * log from the database (lib/updates/resync.ts), the grants from the publisher.
 */
export async function publishInOrder(
  appId: string,
  userId: string,
  seq: number,
  updates: SdkUpdate[],
  opts: { closeGap?: boolean; settled?: boolean } = {},
): Promise<void> {
  const log = getUpdateLog();
  const logKey = userLogKey(appId, userId);
  const channel = userChannel(appId, userId);
  const order = { stateKey: userOrderKey(appId, userId), seq, ...(opts.settled ? { settled: true } : {}) };
  // This instance's cached state of the user, if older than the change, is stale from now on, whether or not the log is reached.
  streamSources().userChanged(appId, userId, seq);
  // Before the append: a reply that times out may come long after Redis applied it (grantsOf).
  const at = Date.now();
  /**
   * A message that waited in the order state and that the flush did not
   * publish either went out with its predecessor, or was lost with the state
   * (Redis came back empty, or the in-process state was evicted): then the
   * log does not hold it, and the repair sends its grants and the states.
   */
  const unlessLogged = async (): Promise<void> => {
    if (updates.length === 0 || (await reachedLog(appId, userId, updates, at))) return;
    repairSoon(appId, userId, 'a waiting message was lost with the order state', grantsOf(updates, at));
  };
  try {
    const result = await log.appendAndPublish(logKey, channel, updates.map((u) => JSON.stringify(u)), order);
    if (result.status === 'pending') metrics().streamOrderWaits.inc();
    if (result.status === 'late') {
      logError('publish too late: a later change was published first', null, { appId, userId, seq, types: updates.map((u) => u.type) });
      repairSoon(appId, userId, 'publish too late', grantsOf(updates, at));
    } else if (result.status === 'pending' && opts.closeGap) {
      if ((await log.flushThrough(logKey, channel, order)).length === 0) await unlessLogged();
    } else if (result.status === 'pending') {
      // Normally the predecessor's publisher arrives within milliseconds and
      // publishes this one too; the request does not wait for that.
      later(GAP_WAIT_MS, () =>
        log
          .flushThrough(logKey, channel, order)
          .then(async (ids) => {
            // Published by giving up on a predecessor: its change never reached the log.
            if (ids.length > 0) repairSoon(appId, userId, 'gave up waiting for an earlier change');
            else await unlessLogged();
          })
          .catch((err: unknown) => {
            // Whether the message went out before Redis failed is unknown: the repair looks for its grants in the log.
            noteUnlogged(appId, userId, grantsOf(updates, at), 'a waiting message\'s flush failed');
            if (!isCircuitOpen(err)) logError('publish gap flush failed', err, { appId, userId, seq });
          }),
      );
    }
  } catch (err) {
    metrics().busErrors.inc({ operation: 'publish' });
    // Its reward.granted, if any, is an event, not a state: the repair re-sends it as is.
    noteUnlogged(appId, userId, grantsOf(updates, at));
    if (!isCircuitOpen(err)) logError('publish failed', err, { appId, userId, seq, types: updates.map((u) => u.type) });
  }
}
