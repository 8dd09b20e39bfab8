// POST /v1/events – ingest one event and answer which missions it advanced
import { eventSchema } from '@/lib/contract/v1';
import { AppError } from '@/lib/errors';
import { recordEvent } from '@/lib/events/record-event';
import { checkKey } from '@/lib/idempotency/run-idempotent';
import { eventsLimiter } from '@/lib/ratelimit/policies';
import { readJsonBody } from '../body';
import { userRoute } from '../handler';
import { idempotentJson } from '../respond';
import { parseWith } from '../validate';
import { metrics } from '@/lib/metrics';

export const postEvent = userRoute({ limiter: eventsLimiter }, async ({ req, auth }) => {
  const { value } = await readJsonBody(req, { invalidCode: 'invalid_event' });
  const body = parseWith(eventSchema, value, { code: 'invalid_event' });
  if (body.userId !== auth.userId) throw new AppError('user_mismatch', 'Body userId differs from the token subject');
  const idempotencyKey = checkKey(req.headers.get('idempotency-key') ?? body.idempotencyKey, 'invalid_event');
  const event = { userId: body.userId, name: body.name, payload: body.payload, timestamp: body.timestamp };
  const outcome = await recordEvent({ ctx: { appId: auth.appId, source: 'api' }, input: { event, idempotencyKey } });
  if (outcome.replay === null) metrics().eventsIngested.inc({ source: 'api' });
  return idempotentJson(outcome);
});
