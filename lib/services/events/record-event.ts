// recordEvent: one event recorded, the path of POST /v1/events (standalone:
// statements of its own, group read and group commit) and of a staff member's
// test event (joined: in the caller's transaction). The event-time bound, the
// idempotency key, evaluation and the write: lib/events/recording.ts.
import { recordOne, type EventSource, type RecordEventInput, type RecordedEvent } from '@/lib/events/recording';
import type { Outcome } from '@/lib/idempotency/run-idempotent';
import type { ServiceContext } from '../context';

export interface RecordEventVerbInput extends RecordEventInput {
  /** Where the event came from: its time bound (lib/events/event-time.ts) and the stored event's `source`. */
  source: EventSource;
}

export async function recordEvent({ ctx, input }: { ctx: ServiceContext; input: RecordEventVerbInput }): Promise<Outcome<RecordedEvent>> {
  // Joined, the catalog must have been read before the transaction opened (the embedded database has one connection).
  if (ctx.uow && !ctx.catalog) throw new Error('recordEvent in a unit of work needs ctx.catalog, read before the transaction');
  const catalog = ctx.catalog ?? (await ctx.deps.catalog(ctx.appId));
  return recordOne({ appId: ctx.appId, source: input.source, db: ctx.deps.db, uow: ctx.uow, catalog, now: () => ctx.now() }, input);
}
