// A stored event as the staff stream sends it (event.recorded): the row's
// fields with its verdicts on every mission of the current catalog, the same
// as the inspection's recent events (./event-verdicts.ts). Reads only the
// catalog (in memory); nothing is written.
import type { RecordedEventData } from '@/lib/contract/inspector';
import type { StoredEventMessage } from '@/lib/updates/staff';
import type { ServiceContext } from '../context';
import { eventVerdicts } from './event-verdicts';

export async function describeRecordedEvent({ ctx, input }: { ctx: ServiceContext; input: { event: StoredEventMessage } }): Promise<RecordedEventData> {
  const { event } = input;
  const catalog = await ctx.deps.catalog(ctx.appId);
  return {
    id: event.id,
    userId: event.userId,
    name: event.name,
    payload: event.payload,
    timestamp: event.timestamp,
    receivedAt: event.receivedAt,
    source: event.source,
    verdicts: eventVerdicts({ ctx, input: { catalog, event } }),
  };
}
