// Recording events: the one path every event takes, whether it arrives on
// POST /v1/events or in a webhook delivery. Idempotency under the event's key,
// the user's lock, storage and evaluation (ingestEvent), the stream updates
// (published before commit, under the user's lock) and the dashboard's rollups
// (in the same transaction). Callers see only `{ ctx, input }` → the answer.
import type { UnitOfWork } from '@/db/unit-of-work';
import { eventRollups, writeRollups } from '@/lib/analytics/rollups';
import { getCatalog, type Catalog } from '@/lib/catalog/catalog';
import { AppError } from '@/lib/errors';
import { hashRequest, runIdempotent, type Outcome } from '@/lib/idempotency/run-idempotent';
import type { EngineEvent } from '@/lib/missions/schema';
import { lockUsers } from '@/lib/progress/records';
import { publishUpdates } from '@/lib/updates/publish';
import { ingestEvent } from './ingest-event';

/** The answer to one recorded event, byte for byte what POST /v1/events returns and replays. */
export interface RecordedEvent {
  accepted: true;
  eventId: string;
  missionsUpdated: string[];
}

/** Where an event came from: `/v1/events`, a webhook delivery, or a staff member's test event (inspector). */
export type EventSource = 'api' | 'webhook' | 'test';

/**
 * Standalone: the verb opens, and commits, its own transaction. Joined: it
 * runs in the caller's unit of work, which must have read the catalog before
 * opening its transaction (the embedded database has one connection).
 */
export type EventContext = { appId: string; source: EventSource } & (
  | { uow?: undefined; catalog?: Catalog }
  | { uow: UnitOfWork; catalog: Catalog }
);

export interface RecordEventInput {
  event: EngineEvent;
  /** The caller's key (header or body), without namespace; null for none. */
  idempotencyKey: string | null;
}

export async function recordEvent({ ctx, input }: { ctx: EventContext; input: RecordEventInput }): Promise<Outcome<RecordedEvent>> {
  const { appId, source } = ctx;
  const { event, idempotencyKey } = input;
  const catalog = ctx.catalog ?? (await getCatalog(appId));
  const scope = {
    appId,
    userId: event.userId,
    // Namespaced so that an event key can never collide with a claim's `claim:` key.
    key: idempotencyKey === null ? null : `event:${idempotencyKey}`,
    // The same event under the same key, whichever way it arrived, is the same request.
    requestHash: hashRequest({ userId: event.userId, name: event.name, payload: event.payload, timestamp: event.timestamp }),
  };
  return runIdempotent<RecordedEvent>(
    scope,
    async (uow) => {
      const result = await ingestEvent(uow.tx, { appId, catalog, event, idempotencyKey, source });
      uow.beforeCommit(() => publishUpdates(appId, event.userId, result.updates));
      await writeRollups(uow.tx, { appId, userId: event.userId, at: result.receivedAt, deltas: eventRollups(event.name, result.missionsCompleted) });
      return { status: 200, body: { accepted: true, eventId: result.eventId, missionsUpdated: result.missionsUpdated } };
    },
    { uow: ctx.uow },
  );
}

export interface RecordEventsInput {
  events: Array<RecordEventInput>;
}

/**
 * Records several events in the caller's unit of work, in order, all or
 * nothing. Every user of the batch is locked first, in one global order, so
 * concurrent batches over overlapping users cannot deadlock. A failing event
 * fails the batch; its error message is prefixed with `events[i]`.
 */
export async function recordEvents({
  ctx,
  input,
}: {
  ctx: { appId: string; source: EventSource; uow: UnitOfWork; catalog: Catalog };
  input: RecordEventsInput;
}): Promise<RecordedEvent[]> {
  await lockUsers(ctx.uow.tx, ctx.appId, input.events.map((e) => e.event.userId));
  const results: RecordedEvent[] = [];
  for (const [index, one] of input.events.entries()) {
    try {
      results.push((await recordEvent({ ctx, input: one })).body);
    } catch (err) {
      if (err instanceof AppError) throw new AppError(err.code, `events[${index}]: ${err.message}`, { extra: err.extra, headers: err.headers, cause: err });
      throw err;
    }
  }
  return results;
}
