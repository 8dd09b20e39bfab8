// GET /v1/openapi.json – the OpenAPI 3.1 document. Its schemas, query
// parameters and error answers are all derived from the contract
// (lib/contract): the components from its registry, parameters from its query
// schemas, each error's status and meaning from its error table, and every
// operation is built by the rules of lib/contract/openapi.ts (operationId,
// tags, description, examples, the common headers and error answers).
import { v1Examples as ex } from '@/lib/contract/examples';
import { completeDocument, idempotencyKeyHeader, operation, type DocumentRules, type OperationSpec } from '@/lib/contract/openapi';
import { componentJsonSchemas, contractQueries, queryJsonSchemas, type ComponentName } from '@/lib/contract/registry';
import { publicRoute } from '../handler';
import { json } from '../respond';

const ref = (id: ComponentName) => ({ $ref: `#/components/schemas/${id}` });
const answer = (description: string, id: ComponentName, example: unknown) => ({ description, json: { schema: ref(id), example } });
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'The mission or campaign id' };
const header = (name: string, schema: object, description: string) => ({ name, in: 'header', required: true, schema, description });

const rules: DocumentRules = {
  errorSchema: ref('Error'),
  security: [{ bearerAuth: [] }],
  authErrors: ['unauthorized'],
};

/** Query parameters from a contract query schema. */
function query(name: keyof typeof contractQueries): Record<string, unknown>[] {
  return Object.entries(queryJsonSchemas(contractQueries[name])).map(([param, { schema, description }]) => ({
    name: param,
    in: 'query',
    required: false,
    schema,
    ...(description ? { description } : {}),
  }));
}

const operations: Record<string, Record<string, OperationSpec>> = {
  '/v1/auth/token': {
    post: {
      operationId: 'issueToken',
      tags: ['auth'],
      summary: 'Exchange an app secret for a one-hour JWT',
      description:
        'Called by the game’s backend (never ship the app secret in a client). The token’s subject is `userId`; it expires after 3,600 s. ' +
        'Wrong secrets are counted per app and client: too many answer 429 until the window passes. ' +
        'Optional `attributes` are merged into the user’s stored attributes (null deletes a key; `timezone` is an IANA zone, the user’s calendar for windows); the answer is unchanged. They drive mission and campaign audiences.',
      public: true,
      requestBody: { required: true, schema: ref('TokenRequest'), example: ex.tokenRequest },
      success: { '200': answer('Token', 'TokenResponse', ex.tokenResponse) },
      errors: [['validation_error', 'bad attributes (a key, a value, more than 32 keys, or a timezone that is not an IANA zone), naming the field'], 'invalid_credentials', 'rate_limited'],
    },
  },
  '/v1/auth/revoke': {
    post: {
      operationId: 'revokeToken',
      tags: ['auth'],
      summary: 'Revoke the presented token',
      description: 'The token stops working at once on every instance (its streams close within one keep-alive interval).',
      success: { '200': answer('Revoked', 'RevokeResponse', ex.revokeResponse) },
    },
  },
  '/v1/events': {
    post: {
      operationId: 'postEvent',
      tags: ['events'],
      summary: 'Ingest one event',
      description:
        'Records the event and advances the caller’s missions whose criteria it matches; answers which ones changed. ' +
        '`userId` must be the token’s subject. An Idempotency-Key (header, or `idempotencyKey` in the body) applies it once. ' +
        'The event’s timestamp (Unix ms) is the device’s clock, trusted within bounds of the server’s: more than 5 minutes ahead, or more than 24 hours old, is 400 invalid_event and nothing is stored. ' +
        'A late event counts for a daily/weekly/monthly mission only while its window is still the current one by the server clock. ' +
        'A user’s events on one instance are applied one at a time; 503 unavailable only when other instances keep changing the same user.',
      parameters: [idempotencyKeyHeader],
      requestBody: { required: true, schema: ref('Event'), example: ex.event, invalidCode: 'invalid_event' },
      success: { '200': answer('Accepted (or a replay, with X-Idempotent-Replay)', 'EventResponse', ex.eventResponse) },
      errors: ['invalid_event', 'user_mismatch', 'idempotency_key_reused', 'rate_limited'],
      rateLimited: true,
      idempotent: true,
    },
  },
  '/v1/missions': {
    get: {
      operationId: 'listMissions',
      tags: ['missions'],
      summary: 'List missions with the caller’s progress',
      description: 'A page of live missions (with `include=expired`, also those that can no longer progress), ordered by id, and the caller’s progress on them.',
      parameters: query('ListMissionsParams'),
      success: { '200': answer('A page of missions', 'MissionList', ex.missionList) },
      errors: [['validation_error', 'a bad status, limit, cursor, campaignId or include']],
    },
  },
  '/v1/missions/{id}': {
    get: {
      operationId: 'getMission',
      tags: ['missions'],
      summary: 'One mission and the caller’s progress',
      description: 'The mission (archived ones answer 404) and the caller’s progress record, null before the first qualifying event.',
      parameters: [idParam],
      success: { '200': answer('Mission', 'MissionDetail', ex.missionDetail) },
      errors: ['mission_not_found'],
    },
  },
  '/v1/missions/{id}/claim': {
    post: {
      operationId: 'claimMission',
      tags: ['missions'],
      summary: 'Claim the reward of a completed mission',
      description: 'Grants the reward once: the progress becomes `claimed` and a currency reward is added to the balance. With an Idempotency-Key a retry answers the first result.',
      parameters: [idParam, idempotencyKeyHeader],
      success: { '200': answer('Claimed (or a replay, with X-Idempotent-Replay)', 'ClaimResponse', ex.claimResponse) },
      errors: [['validation_error', 'a bad Idempotency-Key'], 'mission_not_found', 'claim_not_ready', ['budget_exhausted', 'the mission’s campaign has not enough budget left for the reward'], ['balance_limit', 'the reward would take the balance past its currency’s maxBalance'], 'idempotency_key_reused', 'rate_limited'],
      rateLimited: true,
      idempotent: true,
    },
  },
  '/v1/balance': {
    get: {
      operationId: 'getBalance',
      tags: ['balance'],
      summary: 'The caller’s balances (all, or one currency)',
      description: 'Without `currency`: every balance of the caller (`{balances}`). With it: that one (`{balance}`), or 404 when the caller has none.',
      parameters: query('BalanceParams'),
      success: {
        '200': {
          description: 'Balances',
          json: { schema: { oneOf: [ref('BalanceList'), ref('SingleBalance')] }, example: ex.balanceList },
        },
      },
      errors: [['validation_error', 'a bad currency'], 'balance_not_found'],
    },
  },
  '/v1/balance/spend': {
    post: {
      operationId: 'spendBalance',
      tags: ['balance'],
      summary: 'The game backend spends a player’s currency',
      description:
        'Called by the game’s backend, never with a player token (401). Authenticate with the app secret, `Authorization: Basic base64(appId:appSecret)` (wrong secrets are counted as on POST /v1/auth/token: too many answer 429), ' +
        'or sign as a webhook delivery: X-App-Id, X-Webhook-Timestamp and X-Webhook-Signature = `v1=` + hex HMAC-SHA256 of `${X-Webhook-Timestamp}.${raw body}` keyed with the app’s webhook secret; a signed spend must carry its key in the body too (`idempotencyKey`). ' +
        'Takes `amount` from the balance and appends a ledger row (negative amount, actor `backend`, the reason) in one transaction, or changes nothing: 409 insufficient_balance when the balance is smaller. ' +
        'The player’s stream gets `balance.changed`, and so do the app’s outbound endpoints subscribed to it. The Idempotency-Key is required: a retry answers the first result (X-Idempotent-Replay); another request under the same key is 422. ' +
        'A currency is defined, until per-app currency definitions exist, when the app’s live catalog names it (a reward or a campaign budget) or some balance of the app holds it (docs/api.md).',
      security: [{ appSecretBasic: [] }, { webhookSignature: [] }],
      parameters: [
        { ...idempotencyKeyHeader, required: true },
        { name: 'X-App-Id', in: 'header', required: false, schema: { type: 'string' }, description: 'Signed requests: the app' },
        { name: 'X-Webhook-Timestamp', in: 'header', required: false, schema: { type: 'string', pattern: '^[0-9]+$' }, description: 'Signed requests: Unix time in milliseconds, within 5 minutes of now' },
        { name: 'X-Webhook-Signature', in: 'header', required: false, schema: { type: 'string', pattern: '^v1=[0-9a-f]{64}$' }, description: 'Signed requests: v1=<hex HMAC-SHA256 of `${timestamp}.${raw body}`>' },
      ],
      requestBody: { required: true, schema: ref('SpendRequest'), example: ex.spendRequest },
      success: { '200': answer('Spent (or a replay, with X-Idempotent-Replay)', 'SpendResponse', ex.spendResponse) },
      errors: [
        ['validation_error', 'a missing Idempotency-Key, a bad body, or a currency the app does not define (the message suggests the nearest)'],
        'invalid_credentials',
        'invalid_signature',
        'user_not_found',
        ['insufficient_balance', 'the balance is smaller than the amount (nothing changed)'],
        'idempotency_key_reused',
        'rate_limited',
      ],
      idempotent: true,
    },
  },
  '/v1/campaigns': {
    get: {
      operationId: 'listCampaigns',
      tags: ['campaigns'],
      summary: 'List campaigns',
      description: 'Campaigns that have not ended (with `include=expired`, ended ones too), each with its resolved theme and mission ids.',
      parameters: query('ListCampaignsParams'),
      success: { '200': answer('Campaigns', 'CampaignList', ex.campaignList) },
      errors: [['validation_error', 'a bad include']],
    },
  },
  '/v1/campaigns/{id}': {
    get: {
      operationId: 'getCampaign',
      tags: ['campaigns'],
      summary: 'One campaign',
      description: 'The campaign; with `include=missions`, its live missions too.',
      parameters: [idParam, ...query('CampaignParams')],
      success: { '200': answer('Campaign', 'CampaignDetail', ex.campaignDetail) },
      errors: [['validation_error', 'a bad include'], 'campaign_not_found'],
    },
  },
  '/v1/openapi.json': {
    get: {
      operationId: 'getOpenApiDocument',
      tags: ['meta'],
      summary: 'This OpenAPI 3.1 document',
      description: 'Public on purpose: it describes the contract, never data.',
      public: true,
      success: { '200': { description: 'The document', json: { schema: { type: 'object' }, example: ex.openapi } } },
    },
  },
  '/v1/webhook/incoming': {
    post: {
      operationId: 'postWebhookDelivery',
      tags: ['webhook'],
      summary: 'A signed delivery of events and user attribute updates from an app’s backend',
      description:
        'No JWT: X-Webhook-Signature is `v1=` and the hex HMAC-SHA256 of `${X-Webhook-Timestamp}.${raw body}` keyed with the app’s webhook secret; ' +
        'the timestamp must be within 5 minutes of the server clock; each event’s own timestamp at most 5 minutes ahead and 7 days back (400 validation_error). The delivery is applied whole or not at all, in one transaction; ' +
        'each event is processed as by POST /v1/events (its idempotencyKey included). `users` (1 to 100 attribute updates, merged as by the token request) are applied first, in the same transaction. X-Webhook-Id is the delivery’s idempotency key: ' +
        'a replay answers the original response with X-Idempotent-Replay. Limited per app, in events per minute (docs/webhooks.md).',
      public: true,
      parameters: [
        header('X-App-Id', { type: 'string' }, 'The app'),
        header('X-Webhook-Id', { type: 'string', minLength: 1, maxLength: 255 }, 'Unique id of the delivery (its idempotency key)'),
        header('X-Webhook-Timestamp', { type: 'string', pattern: '^[0-9]+$' }, 'Unix time in milliseconds, within 5 minutes of now'),
        header('X-Webhook-Signature', { type: 'string', pattern: '^v1=[0-9a-f]{64}$' }, 'v1=<hex HMAC-SHA256 of `${timestamp}.${raw body}`>'),
      ],
      requestBody: { required: true, schema: ref('WebhookDelivery'), example: ex.webhookDelivery },
      success: { '200': answer('Applied (or a replay, with X-Idempotent-Replay); results in the order of the events', 'WebhookResponse', ex.webhookResponse) },
      errors: [['validation_error', 'a missing X-Webhook-Id, or a body that is not UTF-8'], 'invalid_signature', 'idempotency_key_reused', 'rate_limited'],
      rateLimited: true,
      idempotent: true,
    },
  },
  '/v1/recommendations': {
    get: {
      operationId: 'getRecommendations',
      tags: ['missions'],
      summary: 'Missions the caller should focus on next',
      description: 'Ranked by a model or, when it is absent or fails, by a deterministic fallback (`fallback: true`); an AI failure is never an error.',
      parameters: query('RecommendationsParams'),
      success: { '200': answer('Recommendations', 'Recommendations', ex.recommendations) },
      errors: [['validation_error', 'a bad limit'], 'rate_limited'],
      rateLimited: true,
    },
  },
  '/v1/sse/updates': {
    get: {
      operationId: 'streamUpdates',
      tags: ['stream'],
      summary: 'Live stream of the caller’s updates',
      description:
        'Server-Sent Events: each message is `id: <id>` and `data: <SDKUpdate JSON>`; comments (`: connected`, `: keep-alive`) keep it open. ' +
        'Resume with the Last-Event-ID header (browsers send it on reconnect) or the `lastEventId` query parameter; an id the log no longer holds replays what it has.',
      parameters: [
        { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' }, description: 'Resume after this id (wins over `lastEventId`)' },
        { name: 'access_token', in: 'query', required: false, schema: { type: 'string' }, description: 'The JWT, for clients that cannot send headers (EventSource)' },
        { name: 'lastEventId', in: 'query', required: false, schema: { type: 'string' }, description: 'Resume after this id' },
      ],
      success: { '200': { description: 'Event stream; each data line is an SDKUpdate', stream: { schema: { type: 'string', description: 'Frames of `id:` and `data:` lines; each data line is the JSON of an SDKUpdate (x-sse-data)', 'x-sse-data': ref('SDKUpdate') }, example: ex.stream } } },
      errors: ['too_many_streams'],
    },
    // Served wherever GET is (lib/http/routes.ts); listed here because clients and monitors probe the stream with it.
    head: {
      operationId: 'probeUpdates',
      tags: ['stream'],
      summary: 'The stream’s status and headers, without a stream',
      description:
        'Answers what GET /v1/sse/updates would (200 with Content-Type text/event-stream, or the same error status and headers) and ends at once: no body, and no stream stays open. ' +
        'The same credentials as GET (the Authorization header or `access_token`).',
      parameters: [{ name: 'access_token', in: 'query', required: false, schema: { type: 'string' }, description: 'The JWT, for clients that cannot send headers' }],
      success: { '200': { description: 'The stream would open (Content-Type text/event-stream); no body' } },
      errors: ['too_many_streams'],
    },
  },
};

/** A HEAD operation's answers carry no body: each answer of `op` without its content. */
function withoutBodies(op: Record<string, unknown>): Record<string, unknown> {
  const responses = Object.fromEntries(
    Object.entries(op.responses as Record<string, Record<string, unknown>>).map(([status, answer]) => {
      const { content: _content, ...rest } = answer;
      return [status, rest];
    }),
  );
  return { ...op, responses };
}

const TAGS = [
  { name: 'auth', description: 'Tokens: issue (with the app secret) and revoke' },
  { name: 'events', description: 'Player events that advance missions' },
  { name: 'missions', description: 'Missions, the caller’s progress, claims and recommendations' },
  { name: 'balance', description: 'Currency balances' },
  { name: 'campaigns', description: 'Time-bounded groups of missions with their theme' },
  { name: 'stream', description: 'Live updates over Server-Sent Events' },
  { name: 'webhook', description: 'Signed event deliveries from an app’s backend' },
  { name: 'meta', description: 'This document' },
];

function buildDocument() {
  return completeDocument({
    openapi: '3.1.0',
    info: {
      title: 'Questline API',
      version: '0.1.0',
      description: 'Missions, campaigns and rewards. See README.md and docs/api.md.',
      contact: { name: 'Questline (docs/api.md)' },
    },
    servers: [{ url: '/' }],
    tags: TAGS,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The accessToken of POST /v1/auth/token' },
        appSecretBasic: { type: 'http', scheme: 'basic', description: 'The game backend: base64(appId:appSecret) (POST /v1/balance/spend)' },
        webhookSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Webhook-Signature',
          description: 'The game backend, signing as a webhook delivery: with X-App-Id and X-Webhook-Timestamp, v1=<hex HMAC-SHA256 of `${timestamp}.${raw body}`> keyed with the webhook secret (POST /v1/balance/spend)',
        },
      },
      schemas: componentJsonSchemas(),
    },
    paths: Object.fromEntries(
      Object.entries(operations).map(([path, methods]) => [path, Object.fromEntries(Object.entries(methods).map(([method, spec]) => [method, method === 'head' ? withoutBodies(operation(spec, rules)) : operation(spec, rules)]))]),
    ),
    // Outbound webhooks: what Questline POSTs to an app's endpoints (docs/webhooks.md), as OpenAPI 3.1 describes calls the API makes.
    webhooks: {
      notification: {
        post: {
          operationId: 'receiveNotification',
          // Authenticated by its signature (headers below), not by a security scheme.
          security: [],
          tags: ['webhook'],
          summary: 'A signed notification to an endpoint the app registered',
          description:
            'Sent by Questline to each endpoint registered with POST /api/admin/apps/:appId/endpoints for the notification’s type. Questline-Webhook-Signature is `v1=` + hex HMAC-SHA256 of `${Questline-Webhook-Timestamp}.${body}` keyed with the endpoint’s secret (verifyWebhook in @questline/sdk/backend). Answer 2xx within 10 s; anything else is retried with backoff for 24 h under the same Questline-Webhook-Id.',
          parameters: [
            { name: 'Questline-Webhook-Id', in: 'header', required: true, schema: { type: 'string' }, description: 'The delivery’s id, the same on every retry (deduplicate by it)' },
            { name: 'Questline-Webhook-Timestamp', in: 'header', required: true, schema: { type: 'string' }, description: 'Unix milliseconds of this attempt' },
            { name: 'Questline-Webhook-Signature', in: 'header', required: true, schema: { type: 'string' }, description: '`v1=` and 64 hex digits' },
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: ref('Notification'),
                example: {
                  id: 'wh_5d0e7c1b',
                  type: 'reward.granted',
                  appId: 'my-game',
                  userId: 'player-42',
                  createdAt: 1764000000000,
                  data: { userId: 'player-42', missionId: 'slay-boss', reward: { kind: 'item', itemId: 'legendary-sword', quantity: 1 }, idempotencyKey: 'claim-7f3a' },
                },
              },
            },
          },
          responses: { '200': { description: 'Stored (any 2xx)' } },
        },
      },
    },
  });
}

let cached: ReturnType<typeof buildDocument> | null = null;

export function getOpenApiDocument() {
  cached ??= buildDocument();
  return cached;
}

export const openApiDocument = publicRoute(async () => json(getOpenApiDocument()));
