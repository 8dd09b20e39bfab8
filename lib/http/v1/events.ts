// POST /v1/events – ingest one event and answer which missions it advanced
import { eventSchema } from '@/lib/contract/v1';
import { AppError } from '@/lib/errors';
import { eventKey } from '@/lib/events/recording';
import { recordEvent } from '@/lib/services/events/record-event';
import { checkKey, idempotencyCacheKey, usableKey } from '@/lib/idempotency/run-idempotent';
import { eventsLimiter } from '@/lib/ratelimit/policies';
import { readJsonBody } from '../body';
import { userRoute } from '../handler';
import { idempotentJson } from '../respond';
import { parseWith } from '../validate';
import { userServiceContext } from '../service-context';
import { metrics } from '@/lib/metrics';

export const postEvent = userRoute(
  {
    limiter: eventsLimiter,
    // The cached answer of a header key is read in the token checks' MGET (one command).
    storedKeys: (req, auth) => {
      const key = usableKey(req.headers.get('idempotency-key'));
      return key === null ? [] : [idempotencyCacheKey(auth.appId, auth.userId, eventKey(key))];
    },
  },
  async ({ req, auth, stored, requestId }) => {
    const { value } = await readJsonBody(req, { invalidCode: 'invalid_event' });
    const body = parseWith(eventSchema, value, { code: 'invalid_event' });
    if (body.userId !== auth.userId) throw new AppError('user_mismatch', 'Body userId differs from the token subject');
    const header = req.headers.get('idempotency-key');
    const idempotencyKey = checkKey(header ?? body.idempotencyKey, 'invalid_event');
    const event = { userId: body.userId, name: body.name, payload: body.payload, timestamp: body.timestamp };
    // The stored answer read with the token checks belongs to the header's key (the header wins over the body's).
    const cachedAnswer = header !== null ? stored?.[0] : undefined;
    // Recording bounds the event's time by the server's clock (400 invalid_event, before anything is stored).
    const ctx = await userServiceContext(auth, requestId);
    const outcome = await recordEvent({ ctx, input: { event, idempotencyKey, cachedAnswer, source: 'api' } });
    if (outcome.replay === null) metrics().eventsIngested.inc({ source: 'api' });
    return idempotentJson(outcome);
  },
);
