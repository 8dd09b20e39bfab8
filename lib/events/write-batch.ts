// Group commit of concurrent events: the writes of different users issued
// at the same time leave as one statement (write-event.ts writeEvents), which
// commits them together; each caller is answered its own outcome after that
// commit. Like the group read (./read-batch.ts), what is issued before the
// next `setImmediate` (and, while MAX_IN_FLIGHT groups are out, until one
// comes back) goes together.
//
// The guarantees stay those of one write: every row keeps its own sequence
// check and key (a stale or key-taken row writes nothing and does not stop
// the others); nothing is published before the statement has committed (the
// caller publishes after this answers); a user's events here are one at a
// time (record-event.ts's per-user queue), and a group never holds one user
// twice (a second write of a user waits for the next group). Locks are taken
// in one order (rows sorted by app, user, key, mission, rollup row), and a
// group that fails as a whole (a deadlock with another instance, a bad row)
// committed nothing: its writes are then sent one by one, so each caller gets
// the answer its own statement gives. A group whose answer never came (the
// database unreachable, a query timeout) may have committed: it is not sent
// again, every caller gets the error (503), as with a statement of its own.
// Writes inside a transaction do not come here.
import type { DbOrTx } from '@/db/client';
import { isUnavailableError } from '@/lib/errors';
import { writeEvent, writeEvents, type EventWrite, type GroupedWrite, type WriteOutcome } from './write-event';

/** Groups out at once; the writes issued meanwhile wait for one of them and leave together. */
const MAX_IN_FLIGHT = 4;
/** A bound on one statement's size. */
const MAX_GROUP = 128;

interface Waiting extends GroupedWrite {
  resolve(outcome: WriteOutcome): void;
  reject(err: unknown): void;
}

interface Grouper {
  waiting: Waiting[];
  inFlight: number;
  scheduled: boolean;
}

const groupers = new WeakMap<object, Grouper>();

/** Groups written and the writes they held, since the process started (tests, profiling). */
export const groupCommitStats = { groups: 0, writes: 0, fallbacks: 0 };

function grouperOf(db: DbOrTx): Grouper {
  let g = groupers.get(db);
  if (!g) groupers.set(db, (g = { waiting: [], inFlight: 0, scheduled: false }));
  return g;
}

/** The next group: up to MAX_GROUP waiting writes, at most one per user; the others keep their place. */
function takeGroup(g: Grouper): Waiting[] {
  const group: Waiting[] = [];
  const rest: Waiting[] = [];
  const users = new Set<string>();
  for (const w of g.waiting) {
    const user = `${w.scope.appId}\u0000${w.scope.userId}`;
    if (group.length < MAX_GROUP && !users.has(user)) {
      users.add(user);
      group.push(w);
    } else rest.push(w);
  }
  g.waiting = rest;
  return group;
}

async function runOneByOne(db: DbOrTx, group: Waiting[]): Promise<void> {
  for (const w of group) {
    try {
      w.resolve(await writeEvent(db, w.scope, w.write));
    } catch (err) {
      w.reject(err);
    }
  }
}

async function runGroup(db: DbOrTx, group: Waiting[]): Promise<void> {
  if (group.length === 1) return runOneByOne(db, group);
  let outcomes: WriteOutcome[];
  try {
    outcomes = await writeEvents(db, group);
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

function flush(db: DbOrTx, g: Grouper): void {
  g.scheduled = false;
  while (g.waiting.length > 0 && g.inFlight < MAX_IN_FLIGHT) {
    const group = takeGroup(g);
    g.inFlight++;
    void runGroup(db, group).finally(() => {
      g.inFlight--;
      if (g.waiting.length > 0) flush(db, g);
    });
  }
}

/** writeEvent of a standalone event, committed together with the other users' writes issued at the same time on the same database. */
export function groupedWriteEvent(db: DbOrTx, scope: GroupedWrite['scope'], write: EventWrite): Promise<WriteOutcome> {
  const g = grouperOf(db);
  return new Promise<WriteOutcome>((resolve, reject) => {
    g.waiting.push({ scope, write, resolve, reject });
    if (!g.scheduled && g.inFlight < MAX_IN_FLIGHT) {
      g.scheduled = true;
      setImmediate(() => flush(db, g));
    }
  });
}
