// POST /v1/webhook/incoming – a signed delivery of 1 to 100 events from an app's backend
//
// Checks in this order, each refusing before anything is written:
//   headers and timestamp (401) → body size (413) → signature over the raw
//   bytes (401) → X-Webhook-Id (400) → body and every event (400, naming
//   events[i]) → each event's timestamp within 5 min ahead and 7 days back of
//   the server clock (400, naming events[i]; checked by recording) → replay from the cache (200 + X-Idempotent-Replay: hit, not
//   counted) → rate limit, counting events (429) → the delivery, in one
//   transaction (200, or 422 naming events[i] for a reused event key).
import { serviceNow } from '@/lib/clock';
import { z } from 'zod';
import { MAX_DELIVERY_EVENTS, MAX_DELIVERY_USERS, webhookEventSchema, webhookUserSchema } from '@/lib/contract/v1';
import { AppError } from '@/lib/errors';
import { hashRequest, MAX_KEY_LENGTH } from '@/lib/idempotency/run-idempotent';
import { webhookLimiter } from '@/lib/ratelimit/policies';
import { acceptDelivery } from '@/lib/services/webhook/accept-delivery';
import { checkSignedHeaders, verifySignature } from '@/lib/webhook/verify-signature';
import { parseJsonText, readRawBytes } from '../body';
import { publicRoute } from '../handler';
import { appServiceContext, systemServiceContext } from '../service-context';
import { rateLimitedError, rateLimitHeaders } from '../rate-limit';
import { idempotentJson } from '../respond';
import { describeIssues } from '@/lib/contract/describe-issues';
import { noteApp } from '../observe';
import { metrics } from '@/lib/metrics';

const envelopeSchema = z
  .object({
    events: z.array(z.unknown()).min(1).max(MAX_DELIVERY_EVENTS).optional(),
    users: z.array(z.unknown()).min(1).max(MAX_DELIVERY_USERS).optional(),
  })
  .refine((d) => d.events !== undefined || d.users !== undefined, { message: 'give events, users or both', path: ['events'] });

type Delivery = { events: Array<z.infer<typeof webhookEventSchema>>; users?: Array<z.infer<typeof webhookUserSchema>> };

/** The body, validated whole: the first invalid event (or user update) is named by its index, and nothing is applied. */
function parseDelivery(value: unknown): Delivery {
  const envelope = envelopeSchema.safeParse(value);
  if (!envelope.success) throw new AppError('validation_error', describeIssues(envelope.error));
  const users = envelope.data.users?.map((raw, index) => {
    const parsed = webhookUserSchema.safeParse(raw);
    if (!parsed.success) throw new AppError('validation_error', describeIssues(parsed.error, `users[${index}]`));
    return parsed.data;
  });
  const events = (envelope.data.events ?? []).map((raw, index) => {
    const parsed = webhookEventSchema.safeParse(raw);
    if (!parsed.success) throw new AppError('validation_error', describeIssues(parsed.error, `events[${index}]`));
    return parsed.data;
  });
  // Without users the delivery hashes as before (a replay of an older delivery is still recognised).
  return users === undefined ? { events } : { events, users };
}

function decodeUtf8(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new AppError('validation_error', 'Request body is not UTF-8');
  }
}

export const postWebhook = publicRoute(async ({ req, requestId }) => {
  const now = Date.now();
  const headers = checkSignedHeaders(
    { appId: req.headers.get('x-app-id'), timestamp: req.headers.get('x-webhook-timestamp'), signature: req.headers.get('x-webhook-signature') },
    now,
  );
  const raw = await readRawBytes(req);
  // The previous secret's grace period is judged on the service clock (the rotation set its end on it); the
  // timestamp's tolerance above on the system clock, which the sender's clock is compared with.
  const { appId, webhookEventsPerMinute } = await verifySignature((await systemServiceContext(requestId)).deps.db, headers, raw, serviceNow());
  noteApp(req, appId);

  const webhookId = req.headers.get('x-webhook-id') ?? '';
  if (webhookId.length === 0 || webhookId.length > MAX_KEY_LENGTH) {
    throw new AppError('validation_error', `X-Webhook-Id: required, the delivery's unique id (1 to ${MAX_KEY_LENGTH} characters)`);
  }
  const delivery = parseDelivery(parseJsonText(decodeUtf8(raw)));

  // Set when the delivery is counted (a cached replay is not).
  const limit: { headers: Headers | null } = { headers: null };
  const outcome = await acceptDelivery({
    ctx: await appServiceContext(appId, requestId),
    input: {
      webhookId,
      signature: headers.mac.toString('hex'),
      requestHash: hashRequest(delivery),
      events: delivery.events.map(({ idempotencyKey, ...event }) => ({ event, idempotencyKey: idempotencyKey ?? null })),
      users: delivery.users ?? [],
      admit: async (eventCount) => {
        // The app's limit (its own, else the default) counts events, not requests.
        const result = await webhookLimiter(webhookEventsPerMinute).consume(appId, eventCount);
        if (!result.success) throw rateLimitedError(result);
        limit.headers = rateLimitHeaders(result);
      },
    },
  });
  if (outcome.replay === null && outcome.status < 300) metrics().eventsIngested.inc({ source: 'webhook' }, delivery.events.length);
  const res = idempotentJson(outcome);
  limit.headers?.forEach((value, name) => res.headers.set(name, value));
  return res;
});
