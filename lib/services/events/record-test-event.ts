// A test event sent by staff as a player (the inspector): recorded like any
// event (source "test", published, counted) with its audit row, in one
// transaction.
import { recordAudit } from '@/lib/audit';
import type { RecordedEvent } from '@/lib/events/recording';
import type { EngineEvent } from '@/lib/missions/schema';
import { actorLabel, withTransaction, type ServiceContext } from '../context';
import { userTarget } from '../_shared/staff-write';
import { recordEvent } from './record-event';

export async function recordTestEvent({ ctx, input }: { ctx: ServiceContext; input: { event: EngineEvent } }): Promise<RecordedEvent> {
  const { appId } = ctx;
  const { event } = input;
  // The catalog is read before the transaction (the embedded database has one connection).
  const catalog = await ctx.deps.catalog(appId);
  return withTransaction({ ...ctx, catalog }, async (tx) => {
    const { uow } = tx;
    // Refused (validation_error) when the event's time is out of the bound of a test event (lib/events/event-time.ts).
    const outcome = await recordEvent({ ctx: tx, input: { event, idempotencyKey: null, source: 'test' } });
    await recordAudit(uow.tx, { actor: actorLabel(ctx.actor), action: 'user.test_event', appId, target: userTarget(event.userId), after: { eventId: outcome.body.eventId, ...event } });
    return outcome.body;
  });
}
