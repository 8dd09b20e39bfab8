// GET /v1/openapi.json – the OpenAPI 3.1 document. Its schemas, query
// parameters and error answers are all derived from the contract
// (lib/contract): the components from its registry, parameters from its query
// schemas, each error's status and meaning from its error table.
import { ERRORS, type ErrorCode } from '@/lib/contract/errors';
import { componentJsonSchemas, contractQueries, queryJsonSchemas, type ComponentName } from '@/lib/contract/registry';
import { publicRoute } from '../handler';
import { json } from '../respond';

const ref = (id: ComponentName) => ({ $ref: `#/components/schemas/${id}` });
const body = (id: ComponentName) => ({ content: { 'application/json': { schema: ref(id) } } });
const ok = (description: string, id: ComponentName) => ({ '200': { description, ...body(id) } });
const bearer = [{ bearerAuth: [] }];
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const idempotencyHeader = { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 } };
const header = (name: string, schema: object, description: string) => ({ name, in: 'header', required: true, schema, description });

/** The error answers of an operation, grouped by status; each names its codes and what they mean. */
function errors(...codes: ErrorCode[]): Record<string, { description: string; content: object }> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERRORS[code].status, [...(byStatus.get(ERRORS[code].status) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      String(status),
      { description: list.map((code) => `\`${code}\`: ${ERRORS[code].description}`).join('; '), ...body('Error') },
    ]),
  );
}
/** Errors of every authenticated operation. */
const AUTHED: ErrorCode[] = ['unauthorized', 'internal_error', 'unavailable'];

/** Query parameters from a contract query schema. */
function query(name: keyof typeof contractQueries): object[] {
  return Object.entries(queryJsonSchemas(contractQueries[name])).map(([param, { schema, description }]) => ({
    name: param,
    in: 'query',
    required: false,
    schema,
    ...(description ? { description } : {}),
  }));
}

function buildDocument() {
  return {
    openapi: '3.1.0',
    info: { title: 'Questline API', version: '0.1.0', description: 'Missions, campaigns and rewards. See README.md and docs/api.md.' },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: componentJsonSchemas(),
    },
    paths: {
      '/v1/auth/token': {
        post: {
          summary: 'Exchange an app secret for a one-hour JWT',
          requestBody: { required: true, ...body('TokenRequest') },
          responses: { ...ok('Token', 'TokenResponse'), ...errors('validation_error', 'invalid_credentials', 'rate_limited') },
        },
      },
      '/v1/auth/revoke': {
        post: { summary: 'Revoke the presented token', security: bearer, responses: { ...ok('Revoked', 'RevokeResponse'), ...errors(...AUTHED) } },
      },
      '/v1/events': {
        post: {
          summary: 'Ingest one event',
          description:
            'The event’s timestamp (Unix ms) is the device’s clock, trusted within bounds of the server’s: more than 5 minutes ahead, or more than 24 hours old, is 400 invalid_event and nothing is stored. ' +
            'A late event counts for a daily/weekly/monthly mission only while its window is still the current one by the server clock. ' +
            'A user’s events on one instance are applied one at a time; 503 unavailable only when other instances keep changing the same user.',
          security: bearer,
          parameters: [idempotencyHeader],
          requestBody: { required: true, ...body('Event') },
          responses: {
            ...ok('Accepted', 'EventResponse'),
            ...errors('invalid_event', 'user_mismatch', 'payload_too_large', 'idempotency_key_reused', 'rate_limited', ...AUTHED),
          },
        },
      },
      '/v1/missions': {
        get: {
          summary: 'List missions with the caller’s progress',
          security: bearer,
          parameters: query('ListMissionsParams'),
          responses: { ...ok('A page of missions', 'MissionList'), ...errors('validation_error', ...AUTHED) },
        },
      },
      '/v1/missions/{id}': {
        get: {
          summary: 'One mission and the caller’s progress',
          security: bearer,
          parameters: [idParam],
          responses: { ...ok('Mission', 'MissionDetail'), ...errors('mission_not_found', ...AUTHED) },
        },
      },
      '/v1/missions/{id}/claim': {
        post: {
          summary: 'Claim the reward of a completed mission',
          security: bearer,
          parameters: [idParam, idempotencyHeader],
          responses: {
            ...ok('Claimed', 'ClaimResponse'),
            ...errors('mission_not_found', 'claim_not_ready', 'idempotency_key_reused', 'rate_limited', ...AUTHED),
          },
        },
      },
      '/v1/balance': {
        get: {
          summary: 'The caller’s balances (all, or one currency)',
          security: bearer,
          parameters: query('BalanceParams'),
          responses: {
            '200': { description: 'Balances', content: { 'application/json': { schema: { oneOf: [ref('BalanceList'), ref('SingleBalance')] } } } },
            ...errors('balance_not_found', ...AUTHED),
          },
        },
      },
      '/v1/campaigns': {
        get: {
          summary: 'List campaigns',
          security: bearer,
          parameters: query('ListCampaignsParams'),
          responses: { ...ok('Campaigns', 'CampaignList'), ...errors(...AUTHED) },
        },
      },
      '/v1/campaigns/{id}': {
        get: {
          summary: 'One campaign',
          security: bearer,
          parameters: [idParam, ...query('CampaignParams')],
          responses: { ...ok('Campaign', 'CampaignDetail'), ...errors('campaign_not_found', ...AUTHED) },
        },
      },
      '/v1/openapi.json': {
        get: {
          summary: 'This OpenAPI 3.1 document (no token needed)',
          responses: { '200': { description: 'The document', content: { 'application/json': { schema: { type: 'object' } } } }, ...errors('internal_error') },
        },
      },
      '/v1/webhook/incoming': {
        post: {
          summary: 'A signed delivery of 1 to 100 events from an app’s backend (no JWT: an HMAC of the raw body)',
          description:
            'X-Webhook-Signature is `v1=` and the hex HMAC-SHA256 of `${X-Webhook-Timestamp}.${raw body}` keyed with the app’s webhook secret; ' +
            'the timestamp must be within 5 minutes of the server clock; each event’s own timestamp at most 5 minutes ahead and 7 days back (400 validation_error). The delivery is applied whole or not at all, in one transaction; ' +
            'each event is processed as by POST /v1/events (its idempotencyKey included). X-Webhook-Id is the delivery’s idempotency key: ' +
            'a replay answers the original response with X-Idempotent-Replay. Limit: 1,000 events per 60 s per app.',
          security: [],
          parameters: [
            header('X-App-Id', { type: 'string' }, 'The app'),
            header('X-Webhook-Id', { type: 'string', minLength: 1, maxLength: 255 }, 'Unique id of the delivery (its idempotency key)'),
            header('X-Webhook-Timestamp', { type: 'string', pattern: '^[0-9]+$' }, 'Unix time in milliseconds, within 5 minutes of now'),
            header('X-Webhook-Signature', { type: 'string', pattern: '^v1=[0-9a-f]{64}$' }, 'v1=<hex HMAC-SHA256 of `${timestamp}.${raw body}`>'),
          ],
          requestBody: { required: true, ...body('WebhookDelivery') },
          responses: {
            ...ok('Applied (or a replay, with X-Idempotent-Replay: hit | db-hit); results in the order of the events', 'WebhookResponse'),
            ...errors('validation_error', 'invalid_signature', 'payload_too_large', 'idempotency_key_reused', 'rate_limited', 'internal_error', 'unavailable'),
          },
        },
      },
      '/v1/recommendations': {
        get: {
          summary: 'Missions the caller should focus on next, ranked by a model or, when it is absent or fails, by a deterministic fallback',
          security: bearer,
          parameters: query('RecommendationsParams'),
          responses: {
            ...ok('Recommendations (fallback: true when the deterministic ranking answered; an AI failure is never an error)', 'Recommendations'),
            ...errors('validation_error', 'rate_limited', ...AUTHED),
          },
        },
      },
      '/v1/sse/updates': {
        get: {
          summary: 'Live stream of the caller’s updates (text/event-stream; each data line is an SDKUpdate)',
          security: bearer,
          parameters: [
            { name: 'access_token', in: 'query', required: false, schema: { type: 'string' }, description: 'The JWT, for clients that cannot send headers' },
            { name: 'lastEventId', in: 'query', required: false, schema: { type: 'string' }, description: 'Resume after this id' },
          ],
          responses: { '200': { description: 'Event stream', content: { 'text/event-stream': { schema: ref('SDKUpdate') } } }, ...errors('too_many_streams', ...AUTHED) },
        },
      },
    },
  };
}

let cached: ReturnType<typeof buildDocument> | null = null;

function getOpenApiDocument() {
  cached ??= buildDocument();
  return cached;
}

export const openApiDocument = publicRoute(async () => json(getOpenApiDocument()));
