// The cold read of concurrent events, several users in one statement (group
// read). Each standalone event of a user whose records are not cached reads
// the user's sequence number, stored answer, records and attributes before
// it evaluates (lib/events/write-event.ts readForEvent). Under load many
// such reads of different users are issued within the same turn of the event
// loop; each was its own statement, and on this machine a statement's socket
// write alone is the largest single cost of the server's CPU
// (docs/engineering/benchmarks.md). Here the reads issued before the next `setImmediate`
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
import { batchedReads } from './gather';
import { readForEvent, readForEvents, type EventRead, type EventReadInput } from './write-event';

/** A bound on one statement's size. */
const MAX_BATCH = 256;

/** readForEvent, gathered with the other users' reads issued at the same time on the same database (4 batches out at once). */
export const batchedReadForEvent: (db: DbOrTx, input: EventReadInput) => Promise<EventRead> = batchedReads<EventReadInput, EventRead>({
  maxInFlight: 4,
  maxBatch: MAX_BATCH,
  // One read alone keeps its own (single-user) statement.
  read: async (db, inputs) => (inputs.length === 1 ? [await readForEvent(db, inputs[0].scope, inputs[0].key, inputs[0].missionIds)] : readForEvents(db, inputs)),
});
