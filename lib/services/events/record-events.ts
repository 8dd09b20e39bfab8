// recordEvents: several events recorded in the caller's unit of work, in
// order, all or nothing (a webhook delivery): every event's time checked
// first, the users locked in one order, the rollups upserted once at the end
// (lib/events/recording.ts recordBatch).
import { recordBatch, type EventSource, type RecordEventInput, type RecordedEvent } from '@/lib/events/recording';
import type { TxContext } from '../context';

export interface RecordEventsInput {
  events: readonly RecordEventInput[];
  source: EventSource;
}

export async function recordEvents({ ctx, input }: { ctx: TxContext; input: RecordEventsInput }): Promise<RecordedEvent[]> {
  if (!ctx.catalog) throw new Error('recordEvents needs ctx.catalog, read before the transaction');
  const { uow, catalog } = ctx;
  return recordBatch({ appId: ctx.appId, source: input.source, db: uow.tx, uow, catalog, now: () => ctx.now() }, input.events);
}
