// POST /v1/events – ingest one event and answer which missions it advanced
import { recordDataPoint } from '@/lib/analytics/record-data-point';
import { eventSchema, type EventResponse } from '@/lib/contract/v1';
import { AppError } from '@/lib/errors';
import { ingestEvent } from '@/lib/events/ingest-event';
import { getCatalog } from '@/lib/catalog/catalog';
import { checkKey, hashRequest, runIdempotent } from '@/lib/idempotency/run-idempotent';
import { eventsLimiter } from '@/lib/ratelimit/policies';
import { publishUpdates } from '@/lib/updates/publish';
import { readJsonBody } from '../body';
import { userRoute } from '../handler';
import { idempotentJson } from '../respond';
import { parseWith } from '../validate';

export const postEvent = userRoute({ limiter: eventsLimiter }, async ({ req, auth }) => {
  const { value } = await readJsonBody(req, { invalidCode: 'invalid_event' });
  const body = parseWith(eventSchema, value, { code: 'invalid_event' });
  if (body.userId !== auth.userId) throw new AppError('user_mismatch', 'Body userId differs from the token subject');
  const key = checkKey(req.headers.get('idempotency-key') ?? body.idempotencyKey, 'invalid_event');
  const { idempotencyKey: _bodyKey, ...request } = body;
  const event = { userId: body.userId, name: body.name, payload: body.payload, timestamp: body.timestamp };

  const catalog = await getCatalog(auth.appId);
  const outcome = await runIdempotent<EventResponse>(
    // Namespaced so that an event key can never collide with a claim's `claim:` key.
    { appId: auth.appId, userId: auth.userId, key: key === null ? null : `event:${key}`, requestHash: hashRequest(request) },
    async (tx) => {
      const result = await ingestEvent(tx, { appId: auth.appId, catalog, event, idempotencyKey: key, source: 'api' });
      return {
        status: 200,
        body: { accepted: true, eventId: result.eventId, missionsUpdated: result.missionsUpdated },
        // Under the user's lock, so this user's updates are published in commit order.
        beforeCommit: () => publishUpdates(auth.appId, auth.userId, result.updates),
        afterCommit: async () => {
          await recordDataPoint({
            appId: auth.appId,
            userId: auth.userId,
            kind: 'event',
            name: event.name,
            properties: { eventId: result.eventId, missionsUpdated: result.missionsUpdated },
          });
        },
      };
    },
  );
  return idempotentJson(outcome);
});
