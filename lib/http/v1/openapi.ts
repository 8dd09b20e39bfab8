// GET /v1/openapi.json – the OpenAPI 3.1 document, generated from the same zod
// schemas that validate requests and type responses.
import { z } from 'zod';
import { sdkUpdateSchema } from '@/lib/updates/schema';
import { publicRoute } from '../handler';
import { json } from '../respond';
import { revokeResponseSchema, tokenRequestSchema, tokenResponseSchema } from './auth';
import { eventResponseSchema, eventSchema } from './events';
import { claimResponseSchema, missionDetailSchema, missionListSchema, publicMissionSchema } from './missions';
import { balanceListSchema, singleBalanceSchema } from './balance';
import { campaignDetailSchema, campaignListSchema, publicCampaignSchema } from './campaigns';
import { missionProgressSchema, rewardSchema } from '@/lib/missions/schema';
import { balanceSchema } from '@/lib/balances/schema';

export const errorSchema = z
  .object({ error: z.string(), message: z.string().optional(), retryAfterMs: z.number().optional() })
  .meta({ id: 'Error' });

/** Every schema the document names (its `.meta({ id })` gives the component name). */
const named = [
  sdkUpdateSchema, tokenRequestSchema, tokenResponseSchema, revokeResponseSchema, eventSchema,
  eventResponseSchema, claimResponseSchema, missionDetailSchema, missionListSchema, balanceListSchema,
  singleBalanceSchema, campaignDetailSchema, campaignListSchema, errorSchema, publicMissionSchema,
  publicCampaignSchema, missionProgressSchema, rewardSchema, balanceSchema,
];

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const body = (id: string) => ({ content: { 'application/json': { schema: ref(id) } } });
const error = (description: string) => ({ description, ...body('Error') });
const bearer = [{ bearerAuth: [] }];
const q = (name: string, schema: object, description: string) => ({ name, in: 'query', required: false, schema, description });
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const idempotencyHeader = { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } };
const common = { '401': error('Missing, invalid, expired or revoked token (unauthorized)'), '500': error('internal_error'), '503': error('unavailable') };
const limited = { '429': error('rate_limited, with Retry-After and RateLimit-* headers') };

function buildDocument() {
  // Not z.globalRegistry: zod keeps it on globalThis, shared by every copy of
  // zod in the process, and the Next.js server bundle holds two (route and
  // instrumentation chunks), so it can hold schema objects of both copies. A
  // registry of exactly the schemas imported here is the same in any bundle.
  const registry = z.registry<{ id: string }>();
  for (const schema of named) {
    const id = z.globalRegistry.get(schema)?.id;
    if (typeof id !== 'string') throw new Error('an OpenAPI schema has no .meta({ id })');
    registry.add(schema, { id });
  }
  const generated = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
  });
  // zod gives each schema `$schema` and a fragment-only `$id`; JSON Schema 2020-12
  // forbids a fragment in `$id`, and a component is not a schema resource of its
  // own: the document's dialect (OpenAPI 3.1: 2020-12) applies and refs point into it.
  const schemas = Object.fromEntries(
    Object.entries(generated.schemas).map(([name, { $id: _id, $schema: _schema, ...schema }]) => [name, schema]),
  );
  return {
    openapi: '3.1.0',
    info: { title: 'Questline API', version: '0.1.0', description: 'Missions, campaigns and rewards. See README.md and docs/api.md.' },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas,
    },
    paths: {
      '/v1/auth/token': {
        post: {
          summary: 'Exchange an app secret for a one-hour JWT',
          requestBody: { required: true, ...body('TokenRequest') },
          responses: { '200': { description: 'Token', ...body('TokenResponse') }, '400': error('validation_error'), '401': error('invalid_credentials'), ...limited },
        },
      },
      '/v1/auth/revoke': {
        post: { summary: 'Revoke the presented token', security: bearer, responses: { '200': { description: 'Revoked', ...body('RevokeResponse') }, ...common } },
      },
      '/v1/events': {
        post: {
          summary: 'Ingest one event',
          security: bearer,
          parameters: [idempotencyHeader],
          requestBody: { required: true, ...body('Event') },
          responses: {
            '200': { description: 'Accepted', ...body('EventResponse') },
            '400': error('invalid_event'),
            '403': error('user_mismatch'),
            '413': error('payload_too_large'),
            '422': error('idempotency_key_reused'),
            ...limited,
            ...common,
          },
        },
      },
      '/v1/missions': {
        get: {
          summary: 'List missions with the caller’s progress',
          security: bearer,
          parameters: [
            q('campaignId', { type: 'string' }, 'Restrict to one campaign'),
            q('status', { type: 'string', enum: ['active', 'completed', 'claimed', 'locked', 'all'] }, 'Effective status; default all'),
            q('limit', { type: 'integer', minimum: 1, maximum: 100, default: 50 }, 'Page size'),
            q('cursor', { type: 'string' }, 'nextCursor of the previous page'),
            q('include', { type: 'string', enum: ['expired'] }, 'Also list missions that can no longer progress'),
          ],
          responses: { '200': { description: 'A page of missions', ...body('MissionList') }, '400': error('validation_error'), ...common },
        },
      },
      '/v1/missions/{id}': {
        get: {
          summary: 'One mission and the caller’s progress',
          security: bearer,
          parameters: [idParam],
          responses: { '200': { description: 'Mission', ...body('MissionDetail') }, '404': error('mission_not_found'), ...common },
        },
      },
      '/v1/missions/{id}/claim': {
        post: {
          summary: 'Claim the reward of a completed mission',
          security: bearer,
          parameters: [idParam, idempotencyHeader],
          responses: {
            '200': { description: 'Claimed', ...body('ClaimResponse') },
            '404': error('mission_not_found'),
            '409': error('claim_not_ready'),
            '422': error('idempotency_key_reused'),
            ...limited,
            ...common,
          },
        },
      },
      '/v1/balance': {
        get: {
          summary: 'The caller’s balances (all, or one currency)',
          security: bearer,
          parameters: [q('currency', { type: 'string' }, 'One currency code')],
          responses: {
            '200': { description: 'Balances', content: { 'application/json': { schema: { oneOf: [ref('BalanceList'), ref('SingleBalance')] } } } },
            '404': error('balance_not_found'),
            ...common,
          },
        },
      },
      '/v1/campaigns': {
        get: {
          summary: 'List campaigns',
          security: bearer,
          parameters: [q('include', { type: 'string', enum: ['expired'] }, 'Also list ended campaigns')],
          responses: { '200': { description: 'Campaigns', ...body('CampaignList') }, ...common },
        },
      },
      '/v1/campaigns/{id}': {
        get: {
          summary: 'One campaign',
          security: bearer,
          parameters: [idParam, q('include', { type: 'string', enum: ['missions'] }, 'Add the campaign’s missions')],
          responses: { '200': { description: 'Campaign', ...body('CampaignDetail') }, '404': error('campaign_not_found'), ...common },
        },
      },
      '/v1/openapi.json': {
        get: {
          summary: 'This OpenAPI 3.1 document (no token needed)',
          responses: { '200': { description: 'The document', content: { 'application/json': { schema: { type: 'object' } } } }, '500': error('internal_error') },
        },
      },
      '/v1/sse/updates': {
        get: {
          summary: 'Live stream of the caller’s updates (text/event-stream; each data line is an SDKUpdate)',
          security: bearer,
          parameters: [q('access_token', { type: 'string' }, 'The JWT, for clients that cannot send headers'), q('lastEventId', { type: 'string' }, 'Resume after this id')],
          responses: {
            '200': { description: 'Event stream', content: { 'text/event-stream': { schema: ref('SDKUpdate') } } },
            '429': error('too_many_streams: the user already holds SSE_MAX_STREAMS_PER_USER streams on this instance; Retry-After'),
            ...common,
          },
        },
      },
    },
  };
}

let cached: ReturnType<typeof buildDocument> | null = null;

export function getOpenApiDocument() {
  cached ??= buildDocument();
  return cached;
}

export const openApiDocument = publicRoute(async () => json(getOpenApiDocument()));
