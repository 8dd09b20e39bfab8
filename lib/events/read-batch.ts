// The cold read of concurrent events, several users in one statement (group
// read). Each standalone event of a user whose records are not cached reads
// the user's sequence number, stored answer, records and attributes before
// it evaluates (lib/events/write-event.ts readForEvent). Under load many
// such reads of different users are issued within the same turn of the event
// loop; each was its own statement, and on this machine a statement's socket
// write alone is the largest single cost of the server's CPU
// (docs/benchmarks.md). Here the reads issued before the next `setImmediate`
// (and, while MAX_IN_FLIGHT batches are out, until one comes back) leave as
// one statement; each caller gets its own answer.
//
// Correct by construction: a read is a snapshot taken outside any
// transaction, and the write that follows checks the sequence number it read
// (a stale read costs another attempt, as before). A user's events are
// already one at a time (record-event.ts's per-user queue), so one batch
// never holds the same user twice. Reads inside a transaction (a webhook
// delivery's batch) do not come here.
import type { DbOrTx } from '@/db/client';
import { readForEvent, readForEvents, type EventRead, type EventReadInput } from './write-event';

/** Batches out at once; the reads issued meanwhile wait for one of them and leave together. */
const MAX_IN_FLIGHT = 4;
/** A bound on one statement's size. */
const MAX_BATCH = 256;

interface Waiting extends EventReadInput {
  resolve(read: EventRead): void;
  reject(err: unknown): void;
}

interface Batcher {
  waiting: Waiting[];
  inFlight: number;
  scheduled: boolean;
}

const batchers = new WeakMap<object, Batcher>();

function batcherOf(db: DbOrTx): Batcher {
  let b = batchers.get(db);
  if (!b) batchers.set(db, (b = { waiting: [], inFlight: 0, scheduled: false }));
  return b;
}

function flush(db: DbOrTx, b: Batcher): void {
  b.scheduled = false;
  while (b.waiting.length > 0 && b.inFlight < MAX_IN_FLIGHT) {
    const batch = b.waiting.splice(0, MAX_BATCH);
    b.inFlight++;
    // One read alone keeps its own (single-user) statement.
    const run = batch.length === 1 ? readForEvent(db, batch[0].scope, batch[0].key, batch[0].missionIds).then((r) => [r]) : readForEvents(db, batch);
    run.then(
      (reads) => batch.forEach((w, i) => w.resolve(reads[i])),
      (err: unknown) => batch.forEach((w) => w.reject(err)),
    ).finally(() => {
      b.inFlight--;
      if (b.waiting.length > 0) flush(db, b);
    });
  }
}

/** readForEvent, gathered with the other users' reads issued at the same time on the same database. */
export function batchedReadForEvent(db: DbOrTx, input: EventReadInput): Promise<EventRead> {
  const b = batcherOf(db);
  return new Promise<EventRead>((resolve, reject) => {
    b.waiting.push({ ...input, resolve, reject });
    if (!b.scheduled && b.inFlight < MAX_IN_FLIGHT) {
      b.scheduled = true;
      setImmediate(() => flush(db, b));
    }
  });
}
