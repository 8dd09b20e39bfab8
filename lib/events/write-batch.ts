// Group commit of concurrent events: the writes of different users issued
// at the same time leave as one statement (write-event.ts writeEvents), which
// commits them together; each caller is answered its own outcome after that
// commit. Like the group read (lib/progress/user-state.ts), what is issued before the
// next `setImmediate` (and, while MAX_IN_FLIGHT groups are out, until one
// comes back) goes together.
//
// The guarantees stay those of one write: every row keeps its own sequence
// check and key (a stale or key-taken row writes nothing and does not stop
// the others); nothing is published before the statement has committed (the
// caller publishes after this answers); a user's events here are one at a
// time (record-event.ts's per-user queue), and a group never holds one user
// twice (a second write of a user waits for the answer of the group that
// holds the first). Locks are taken
// in one order (rows sorted by app, user, key, mission, rollup row), and a
// group that fails as a whole (a deadlock with another instance, a bad row)
// committed nothing: its writes are then sent one by one, so each caller gets
// the answer its own statement gives. A group whose answer never came (the
// database unreachable, a query timeout) may have committed: it is not sent
// again, every caller gets the error (503), as with a statement of its own.
// Writes inside a transaction do not come here.
import type { DbOrTx } from '@/db/client';
import { isUnavailableError } from '@/lib/errors';
import { gatherer, type Pending } from '@/db/gather';
import { writeEvent, writeEvents, type EventWrite, type GroupedWrite, type WriteOutcome } from './write-event';

/** A bound on one statement's size. */
const MAX_GROUP = 128;

type Waiting = Pending<GroupedWrite, WriteOutcome>;

/** Groups written and the writes they held, since the process started (tests, profiling). */
export const groupCommitStats = { groups: 0, writes: 0, fallbacks: 0 };

const userOf = (w: Waiting) => `${w.input.scope.appId}\u0000${w.input.scope.userId}`;

/**
 * Per database handle (as the gatherer's waiting list: a group's return
 * flushes the writes waiting on its own handle), the users with a write in a
 * group out now: their next write waits for that group's answer.
 */
const inFlightByDb = new WeakMap<object, Set<string>>();
function usersInFlight(db: DbOrTx): Set<string> {
  let users = inFlightByDb.get(db);
  if (!users) inFlightByDb.set(db, (users = new Set()));
  return users;
}

/**
 * The next group: up to MAX_GROUP waiting writes, at most one per user and
 * none of a user whose earlier write is in a group still out (groups run side
 * by side on different connections, so a later group could commit first);
 * the others keep their place.
 */
function takeGroup(waiting: Waiting[], db: DbOrTx): { batch: Waiting[]; rest: Waiting[] } {
  const batch: Waiting[] = [];
  const rest: Waiting[] = [];
  const users = new Set<string>();
  const inFlight = usersInFlight(db);
  for (const w of waiting) {
    const user = userOf(w);
    if (batch.length < MAX_GROUP && !users.has(user) && !inFlight.has(user)) {
      inFlight.add(user);
      batch.push(w);
    } else rest.push(w);
    // Seen once: the user's later writes stay behind this one (in the group, or waiting with it).
    users.add(user);
  }
  return { batch, rest };
}

async function runOneByOne(db: DbOrTx, group: Waiting[]): Promise<void> {
  for (const w of group) {
    try {
      w.resolve(await writeEvent(db, w.input.scope, w.input.write));
    } catch (err) {
      w.reject(err);
    }
  }
}

async function runGroup(db: DbOrTx, group: Waiting[]): Promise<void> {
  try {
    await sendGroup(db, group);
  } finally {
    const inFlight = usersInFlight(db);
    for (const w of group) inFlight.delete(userOf(w));
  }
}

async function sendGroup(db: DbOrTx, group: Waiting[]): Promise<void> {
  if (group.length === 1) return runOneByOne(db, group);
  let outcomes: WriteOutcome[];
  try {
    outcomes = await writeEvents(
      db,
      group.map((w) => w.input),
    );
  } catch (err) {
    // The database unreachable, or no answer in time: whether the statement committed is not known, so
    // writing again could store an event twice. Every caller gets the error, as its own statement's would
    // have been (503; a client's retry with its key finds the stored answer).
    if (isUnavailableError(err)) {
      group.forEach((w) => w.reject(err));
      return;
    }
    // Refused as a whole (a deadlock with another instance, a row the database refuses): it committed
    // nothing; each write alone, so each caller gets its own statement's answer (or error).
    groupCommitStats.fallbacks++;
    return runOneByOne(db, group);
  }
  groupCommitStats.groups++;
  groupCommitStats.writes += group.length;
  group.forEach((w, i) => w.resolve(outcomes[i]!));
}

/** 4 groups out at once; the writes issued meanwhile wait for one of them and leave together. */
const gathered = gatherer<GroupedWrite, WriteOutcome>({ maxInFlight: 4, take: takeGroup, run: runGroup });

/** writeEvent of a standalone event, committed together with the other users' writes issued at the same time on the same database. */
export function groupedWriteEvent(db: DbOrTx, scope: GroupedWrite['scope'], write: EventWrite): Promise<WriteOutcome> {
  return gathered(db, { scope, write });
}
