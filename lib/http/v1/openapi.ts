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

export function getOpenApiDocument() {
  cached ??= buildDocument();
  return cached;
}

export const openApiDocument = publicRoute(async () => json(getOpenApiDocument()));
