// GET /api/admin/openapi.json – the admin API's own OpenAPI 3.1 document (public, like
// /v1/openapi.json: it names paths and shapes, never data). Schemas come from the
// zod schemas that validate the requests; each operation says which capability it needs,
// and is built by the rules of lib/contract/openapi.ts (operationId, tags, description,
// examples, the common headers and error answers).
import { z } from 'zod';
import { CAPABILITIES, type Capability } from '@/lib/auth/roles';
import { analyticsQuerySchema, analyticsSchema } from '@/lib/contract/analytics';
import { catalogSchema } from '@/lib/contract/catalog';
import { draftEconomyInputSchema, economySchema } from '@/lib/contract/economy';
import { createdStaffSchema, createStaffSchema, staffListSchema, staffMemberSchema, updateStaffSchema } from '@/lib/contract/staff';
import { adminExamples as ex } from '@/lib/contract/admin-examples';
import { v1Examples } from '@/lib/contract/examples';
import { completeDocument, idempotencyKeyHeader, operation, type DocumentRules, type OperationSpec } from '@/lib/contract/openapi';
import { publicRoute } from '../handler';
import { json } from '../respond';
import { createAppSchema, publicAppSchema, rotatedWebhookSecretSchema, updateAppSchema } from '@/lib/contract/app';
import { campaignRecordSchema, createCampaignSchema, themeRecordSchema, updateCampaignSchema, updateThemeSchema } from '@/lib/contract/catalog-admin';
import { themePresetSchema } from '@/lib/contract/theme';
import { revocationSchema } from './apps';
import { rotateWebhookSecretSchema } from './webhook-secret';
import { meSchema } from './staff';
import { inspectedEventPageSchema, inspectedEventSchema, inspectedMissionSchema, inspectionSchema, inspectorEventsQuerySchema, ledgerEntrySchema, missionLockSchema, testEventSchema, verdictSchema } from '@/lib/contract/inspector';
import { eventResponseSchema, missionListSchema } from '@/lib/contract/v1';
import { errorBodySchema } from '@/lib/contract/errors';
import { auditPageSchema, auditQuerySchema } from '@/lib/contract/audit';
import {
  dryRunResultSchema,
  erasureResultSchema,
  grantResultSchema,
  grantSchema,
  missionActionResultSchema,
  noteAnswerSchema,
  noteInputSchema,
  noteListSchema,
  reasonBodySchema,
  missionActionBodySchema,
  userExportSchema,
  userPageSchema,
  userSearchQuerySchema,
} from '@/lib/contract/desk';
import { missionSchema } from '@/lib/contract/mission';
import { approvalClosedSchema, approvalRequestedSchema, approveInputSchema, rejectInputSchema, pendingApprovalSchema, approvalRejectionSchema, catalogChangeDetailSchema, catalogChangeSchema, draftCampaignDuplicatedSchema, draftWarningSchema, fieldChangeSchema, scheduledReleaseSchema, draftQuerySchema, duplicateCampaignInputSchema, draftItemRevertSchema, draftSchema, missionProgressCountsSchema, impactInputSchema, previewInputSchema, impactReportSchema, publishedSchema, publishInputSchema, releaseListSchema, releaseSummarySchema, scheduledSchema } from '@/lib/contract/release';
import {
  createdEndpointSchema,
  createEndpointSchema,
  deliveryAnswerSchema,
  deliveryListSchema,
  deliverySchema,
  endpointListSchema,
  endpointSchema,
  notificationTypeSchema,
} from '@/lib/contract/outbound';
import {
  eventNameListSchema,
  payloadFieldListSchema,
  payloadFieldsQuerySchema,
  missionArchiveSchema,
  missionDuplicateSchema,
  missionListQuerySchema,
  missionRecordListSchema,
  missionRecordSchema,
  missionUpdateSchema,
} from '@/lib/contract/mission-admin';

const appListSchema = z.object({ apps: z.array(publicAppSchema) }).meta({ id: 'AppList' });
const createdAppSchema = z
  .object({ app: publicAppSchema, appSecret: z.string(), webhookSecret: z.string() })
  .meta({ id: 'CreatedApp', description: 'The secrets are shown this once.' });
const appAnswerSchema = z.object({ app: publicAppSchema }).meta({ id: 'AppAnswer' });
const rotatedSecretSchema = z.object({ appId: z.string(), appSecret: z.string() }).meta({ id: 'RotatedAppSecret' });
const catalogDocumentSchema = catalogSchema.meta({ id: 'Catalog', description: 'Upserted by id, validated as a whole: one invalid item and nothing is written.' });
const adminErrorSchema = errorBodySchema.meta({ id: 'AdminError' });
const revokedSchema = z.union([z.object({ revoked: z.literal(true), jti: z.string() }), z.object({ revoked: z.literal(true), userId: z.string() })]).meta({ id: 'Revoked', description: 'The revocation, echoed' });
const themePresetComponent = themePresetSchema.meta({ id: 'ThemePreset' });
const themeListSchema = z.object({ themes: z.array(themeRecordSchema) }).meta({ id: 'ThemeList' });
const themeAnswerSchema = z.object({ theme: themeRecordSchema }).meta({ id: 'ThemeAnswer' });
const campaignListSchema = z.object({ campaigns: z.array(campaignRecordSchema) }).meta({ id: 'CampaignRecordList' });
const campaignAnswerSchema = z.object({ campaign: campaignRecordSchema }).meta({ id: 'CampaignAnswer' });

const unscheduledSchema = z.object({ scheduledAt: z.null() }).meta({ id: 'Unscheduled', description: 'The draft has no scheduled publish (any there was is cancelled)' });

const named = [
  publicAppSchema, appListSchema, appAnswerSchema, updateAppSchema, createdAppSchema, rotatedSecretSchema, catalogDocumentSchema, adminErrorSchema,
  createAppSchema.meta({ id: 'CreateApp' }), revocationSchema.meta({ id: 'Revocation' }), revokedSchema, meSchema, staffMemberSchema,
  staffListSchema, createStaffSchema, createdStaffSchema, updateStaffSchema,
  rotateWebhookSecretSchema.meta({ id: 'RotateWebhookSecret' }), rotatedWebhookSecretSchema, analyticsSchema,
  inspectionSchema, inspectedMissionSchema, inspectedEventSchema, inspectedEventPageSchema, missionLockSchema, verdictSchema, ledgerEntrySchema, testEventSchema,
  eventResponseSchema.meta({ id: 'RecordedEvent' }),
  missionSchema.meta({ id: 'MissionDefinition' }), missionRecordSchema, missionRecordListSchema, missionUpdateSchema,
  missionDuplicateSchema, missionArchiveSchema, eventNameListSchema, payloadFieldListSchema, auditPageSchema,
  themePresetComponent, themeRecordSchema, themeListSchema, themeAnswerSchema, updateThemeSchema,
  campaignRecordSchema, campaignListSchema, campaignAnswerSchema, createCampaignSchema, updateCampaignSchema,
  grantSchema, grantResultSchema, reasonBodySchema, missionActionBodySchema, missionActionResultSchema, noteInputSchema, noteAnswerSchema, noteListSchema,
  dryRunResultSchema, userPageSchema, userExportSchema, erasureResultSchema,
  catalogChangeSchema, catalogChangeDetailSchema, fieldChangeSchema, draftWarningSchema, scheduledReleaseSchema, draftSchema, publishInputSchema, publishedSchema, scheduledSchema, pendingApprovalSchema, approvalRejectionSchema, approvalRequestedSchema, approveInputSchema, rejectInputSchema, approvalClosedSchema, releaseSummarySchema, releaseListSchema, unscheduledSchema, impactInputSchema, impactReportSchema, previewInputSchema, missionListSchema.meta({ id: 'MissionList' }),
  draftEconomyInputSchema, economySchema,
  draftItemRevertSchema, duplicateCampaignInputSchema, draftCampaignDuplicatedSchema, missionProgressCountsSchema,
  createEndpointSchema, endpointSchema, createdEndpointSchema, endpointListSchema, deliverySchema, deliveryListSchema, deliveryAnswerSchema, notificationTypeSchema,
];

function components(): Record<string, unknown> {
  // An explicit registry, not z.globalRegistry (see lib/http/v1/openapi.ts for why).
  const registry = z.registry<{ id: string }>();
  for (const schema of named) {
    const id = z.globalRegistry.get(schema)?.id;
    if (typeof id !== 'string') throw new Error('an admin OpenAPI schema has no .meta({ id })');
    registry.add(schema, { id });
  }
  const generated = z.toJSONSchema(registry, { target: 'draft-2020-12', uri: (id) => `#/components/schemas/${id}`, unrepresentable: 'any', io: 'input' });
  const { __shared: shared, ...schemas } = generated.schemas;
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(schemas).map(([name, { $id: _id, $schema: _schema, ...schema }]) => [name, schema]));
  // Schemas several components share (a named enum, say) come as `__shared#/$defs/<Name>`: made components of their own.
  Object.assign(out, (shared as { $defs?: Record<string, unknown> } | undefined)?.$defs ?? {});
  return JSON.parse(JSON.stringify(out).replaceAll('#/components/schemas/__shared#/$defs/', '#/components/schemas/')) as Record<string, unknown>;
}

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const answer = (description: string, id: string, example: unknown) => ({ description, json: { schema: ref(id), example } });
const body = (id: string, example: unknown, required = true) => ({ required, schema: ref(id), example });
const pathParam = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
/**
 * A user of the path: its id as a segment, or the segment `by-id` and the id
 * in the query (the one way to name `.` and `..`: lib/contract/user-address.ts).
 */
const userParams = [
  { name: 'userId', in: 'path', required: true, schema: { type: 'string' }, description: 'The user id, percent-encoded; or `by-id`, with the user named by the `userId` query parameter (the only way to name the ids `.` and `..`, which URL parsers resolve as dot segments)' },
  { name: 'userId', in: 'query', required: false, schema: { type: 'string' }, description: 'Only with the path segment `by-id`: the user id (any id). Beside any other segment: 400 validation_error' },
];
/** The query parameters of a GET, from the zod object that validates them. */
function queryParams(schema: z.ZodObject): Record<string, unknown>[] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, { description?: string; examples?: unknown[] }>; required?: string[] };
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    // A field's first example becomes the parameter's example (OpenAPI 3.1 parameter `example`).
    const { description, examples, ...rest } = property;
    return { name, in: 'query', required: required.has(name), ...(description ? { description } : {}), ...(examples?.length ? { example: examples[0] } : {}), schema: rest };
  });
}
/** Example values of the desk's operations (the schemas carry the same as `examples`). */
const EX = {
  grant: { currency: 'gold', amount: 50, reason: 'Ticket #4411: ranked win not counted' },
  grantResult: {
    balance: { userId: 'player-42', currency: 'gold', amount: 150, updatedAt: 1764000000000 },
    entry: { id: 17, kind: 'currency', currency: 'gold', amount: 50, itemId: null, quantity: null, badgeId: null, missionId: null, balanceAfter: 150, createdAt: 1764000000000, actor: 'staff:ana@example.com', reason: 'Ticket #4411: ranked win not counted' },
  },
  reason: { reason: 'Ticket #4411: the ranked win was lost in an outage' },
  progress: (status: 'active' | 'completed', count: number) => ({ progress: { userId: 'player-42', missionId: 'ranked-wins', status, progress: count / 2, currentCount: count, targetCount: 2, updatedAt: 1764000000000 } }),
  noteInput: { text: 'Player reports the ranked win of 24 Nov; granted 50 gold.' },
  note: { id: 3, author: 'staff:ana@example.com', text: 'Player reports the ranked win of 24 Nov; granted 50 gold.', createdAt: 1764000000000 },
  users: { users: [{ userId: 'player-42', firstSeenAt: 1763000000000, lastSeenAt: 1764000000000, events: 118 }], nextCursor: 'WzE3NjQwMDAwMDAwMDAsInBsYXllci00MiJd' },
  dryRun: { dryRun: true, missionsUpdated: [], verdicts: [{ missionId: 'ranked-wins', counted: false, code: 'filter_mismatch', key: 'mode', condition: 'ranked', missing: false, seen: 'casual' }] },
};
const reasonErrors = [['validation_error', 'a missing or short reason (3 characters or more)'], 'app_not_found', 'idempotency_key_reused'] as const;

const versionQuery = { name: 'version', in: 'query', required: false, schema: { type: 'integer', minimum: 1 }, description: 'The version read; a stale one answers 409 conflict. Without it the delete is unconditional.' };
const stale = ['conflict', 'the item changed since that version was read (reload, apply again)'] as const;
const exists = ['conflict', 'the id exists'] as const;
const deleted = { '204': { description: 'Deleted' } };

const rules: DocumentRules = {
  errorSchema: ref('AdminError'),
  security: [{ adminKey: [] }, { staffSession: [] }],
  authErrors: [
    ['unauthorized', 'no admin key and no staff session'],
    ['forbidden', 'the role lacks the capability, or a cookie write came from another origin'],
  ],
};

type AdminSpec = Omit<OperationSpec, 'description'> & { description?: string };
/** One operation: the capability it needs goes into its description. */
function op(capability: Capability | 'authenticated', spec: AdminSpec): OperationSpec {
  const who = capability === 'authenticated' ? 'any signed-in staff member' : `${capability} (${CAPABILITIES[capability].join(', ')})`;
  return { ...spec, description: `${spec.description ? `${spec.description} ` : ''}Needs: ${who}.` };
}

const ENDPOINT_EX = {
  create: { url: 'https://game.example.com/questline/notifications', events: ['reward.granted', 'balance.changed'] },
  endpoint: { id: 'ep_3f9c2a', url: 'https://game.example.com/questline/notifications', events: ['reward.granted', 'balance.changed'], createdAt: 1764000000000 },
  delivery: { id: 'wh_5d0e7c1b', type: 'reward.granted', userId: 'player-42', status: 'failed', attempts: 14, lastStatusCode: 500, lastError: 'answered 500', nextAttemptAt: null, createdAt: 1764000000000, deliveredAt: null },
};
const endpointParams = [pathParam('appId'), pathParam('endpointId')];

/** PUT, DELETE …/draft/{missions,campaigns,themes}/{id} and POST …/revert: one item of the draft at a time (the console's editors). */
function draftItemOperations(): Record<string, Record<string, OperationSpec>> {
  const kinds = [
    { collection: 'missions', name: 'Mission', schema: 'MissionDefinition', example: ex.draftMission, notFound: 'mission_not_found' },
    { collection: 'campaigns', name: 'Campaign', schema: 'CreateCampaign', example: ex.draftCampaign, notFound: 'campaign_not_found' },
    { collection: 'themes', name: 'Theme', schema: 'ThemePreset', example: ex.draftTheme, notFound: 'not_found' },
  ] as const;
  const params = [pathParam('appId'), pathParam('id')];
  const inUse = 'the rest of the draft still uses it (a campaign of the theme, a mission of the campaign, a mission requiring the mission): named in the message';
  const invalid = ['validation_error', 'an invalid item, or the draft as a whole would be invalid (a reference to an item it lacks, a prerequisite cycle): named in the message, nothing stored'] as const;
  return Object.fromEntries(
    kinds.flatMap(({ collection, name, schema, example, notFound }) => [
      [
        `/api/admin/apps/{appId}/draft/${collection}/{id}`,
        {
          put: op('catalog.write', { operationId: `putDraft${name}`, tags: ['releases'], summary: `Write one ${name.toLowerCase()} into the draft (added, or replacing the draft’s version)`, description: `The body is the ${name.toLowerCase()} as in the catalog document (its id may be left out; another id than the path’s is refused). The draft is started from the live catalog when the app has none, then validated as a whole like PUT …/draft. Players see nothing of it until the draft is published. Audited as draft.${name.toLowerCase()}.put.`, parameters: params, requestBody: body(schema, example), success: { '200': answer('The draft as stored', 'Draft', ex.draft) }, errors: [invalid, 'app_not_found'] }),
          delete: op('catalog.write', { operationId: `removeDraft${name}`, tags: ['releases'], summary: `Remove one ${name.toLowerCase()} from the draft`, description: `Publishing then removes it from the live catalog${collection === 'missions' ? ' (the mission is archived: it leaves /v1, completed records stay claimable)' : ''}. The draft is started from the live catalog when the app has none. Audited as draft.${name.toLowerCase()}.remove.`, parameters: params, success: { '200': answer('The draft as stored', 'Draft', ex.draft) }, errors: ['app_not_found', [notFound, `neither the draft nor (without a draft) the live catalog has this ${name.toLowerCase()}`], ['conflict', inUse]] }),
        },
      ],
      [
        `/api/admin/apps/{appId}/draft/${collection}/{id}/revert`,
        {
          post: op('catalog.write', { operationId: `revertDraft${name}`, tags: ['releases'], summary: `Undo the draft’s change of one ${name.toLowerCase()}`, description: `The draft gets the live version of the ${name.toLowerCase()} back (restored: live), or loses it when it is not live (restored: removed). The rest of the draft must stay valid. Audited as draft.${name.toLowerCase()}.revert.`, parameters: params, success: { '200': answer('The draft and what the item now is', 'DraftItemReverted', ex.draftItemReverted) }, errors: [invalid, 'app_not_found', ['draft_not_found', 'the app has no draft']] }),
        },
      ],
    ]),
  );
}
const operations: Record<string, Record<string, OperationSpec>> = {
  '/api/admin/apps/{appId}/endpoints': {
    get: op('apps.manage', { operationId: 'listEndpoints', tags: ['webhooks'], summary: 'The app’s outbound-webhook endpoints', description: 'Oldest first, without their secrets.', parameters: [pathParam('appId')], success: { '200': answer('Endpoints', 'EndpointList', { endpoints: [ENDPOINT_EX.endpoint] }) }, errors: ['app_not_found'] }),
    post: op('apps.manage', { operationId: 'createEndpoint', tags: ['webhooks'], summary: 'Register an endpoint; its signing secret is answered this once', description: 'Each notification of the listed types is POSTed to the URL, signed with the secret (docs/webhooks.md). A URL on a loopback, private or link-local address (or a name resolving to one) is refused unless OUTBOUND_WEBHOOK_ALLOW_PRIVATE=1. At most 20 per app. Audited as endpoint.create.', parameters: [pathParam('appId')], requestBody: body('CreateEndpoint', ENDPOINT_EX.create), success: { '201': answer('Created (the secret is shown this once)', 'CreatedEndpoint', { ...ENDPOINT_EX.endpoint, secret: 'whsec_9b1f…' }) }, errors: [['validation_error', 'url: not http(s), or a private address; events: unknown or repeated type'], 'app_not_found', ['conflict', 'the app has 20 endpoints']] }),
  },
  '/api/admin/apps/{appId}/endpoints/{endpointId}': {
    delete: op('apps.manage', { operationId: 'deleteEndpoint', tags: ['webhooks'], summary: 'Delete an endpoint', description: 'It receives nothing more; its pending deliveries are marked failed; its delivery log stays readable. Audited as endpoint.delete.', parameters: endpointParams, success: { '204': { description: 'Deleted' } }, errors: ['app_not_found', 'endpoint_not_found'] }),
  },
  '/api/admin/apps/{appId}/endpoints/{endpointId}/deliveries': {
    get: op('apps.manage', { operationId: 'listDeliveries', tags: ['webhooks'], summary: 'The endpoint’s delivery log, newest first', description: 'At most 100: status (pending, delivered, failed), attempts, the last status code and error, the next attempt. A deleted endpoint’s log too.', parameters: endpointParams, success: { '200': answer('Deliveries', 'DeliveryList', { deliveries: [ENDPOINT_EX.delivery] }) }, errors: ['app_not_found', 'endpoint_not_found'] }),
  },
  '/api/admin/apps/{appId}/endpoints/{endpointId}/deliveries/{deliveryId}/redeliver': {
    post: op('apps.manage', { operationId: 'redeliver', tags: ['webhooks'], summary: 'Send a delivery again', description: 'Pending and due at once, under the same Questline-Webhook-Id and body, with a fresh 24 h of retries (a delivered one is sent again too). Audited as endpoint.redeliver.', parameters: [...endpointParams, pathParam('deliveryId')], success: { '202': answer('Queued', 'DeliveryAnswer', { delivery: { ...ENDPOINT_EX.delivery, status: 'pending', nextAttemptAt: 1764000100000 } }) }, errors: ['app_not_found', 'endpoint_not_found', 'delivery_not_found'] }),
  },
  '/api/admin/me': {
    get: op('authenticated', { operationId: 'getMe', tags: ['staff'], summary: 'Who is calling: staff member or admin key, role and capabilities', success: { '200': answer('Caller', 'Me', ex.me) } }),
  },
  '/api/admin/apps': {
    get: op('apps.read', { operationId: 'listApps', tags: ['apps'], summary: 'List apps (never their secrets)', success: { '200': answer('Apps', 'AppList', ex.appList) } }),
    post: op('apps.manage', { operationId: 'createApp', tags: ['apps'], summary: 'Create an app; its secrets are answered this once', requestBody: body('CreateApp', ex.createApp), success: { '201': answer('Created', 'CreatedApp', ex.createdApp) }, errors: [exists] }),
  },
  '/api/admin/apps/{appId}': {
    patch: op('apps.manage', {
      operationId: 'updateApp',
      tags: ['apps'],
      summary: 'Change an app’s settings',
      description: 'Its name, or its signed webhook’s limit in events (not deliveries) per minute (null: the default, 60,000), or its grantLimits: the support role’s limits on staff grants per currency ("*": every currency not listed; null or absent: 1,000 per grant and 5,000 per staff member per UTC day). Audited as app.update with before and after.',
      parameters: [pathParam('appId')],
      requestBody: body('UpdateApp', ex.updateApp),
      success: { '200': answer('The app after the change', 'AppAnswer', ex.appAnswer) },
      errors: ['app_not_found'],
    }),
  },
  '/api/admin/apps/{appId}/rotate-secret': {
    post: op('apps.manage', { operationId: 'rotateAppSecret', tags: ['apps'], summary: 'New app secret (shown once)', description: 'The old secret, and every token issued before, stop working at once.', parameters: [pathParam('appId')], success: { '200': answer('Rotated', 'RotatedAppSecret', ex.rotatedAppSecret) }, errors: ['app_not_found'] }),
  },
  '/api/admin/apps/{appId}/rotate-webhook-secret': {
    post: op('apps.manage', { operationId: 'rotateWebhookSecret', tags: ['apps'], summary: 'New webhook secret (shown once)', description: 'The previous one stays valid for the grace period (default 24 h, 0 ends it at once). The body is optional.', parameters: [pathParam('appId')], requestBody: body('RotateWebhookSecret', ex.rotateWebhookSecret, false), success: { '200': answer('Rotated', 'RotatedWebhookSecret', ex.rotatedWebhookSecret) }, errors: ['app_not_found'] }),
  },
  '/api/admin/apps/{appId}/catalog': {
    get: op('catalog.read', { operationId: 'exportCatalog', tags: ['catalog'], summary: 'Export the catalog (missions as code)', parameters: [pathParam('appId')], success: { '200': answer('Catalog', 'Catalog', ex.catalog) }, errors: ['app_not_found'] }),
    put: op('catalog.write', { operationId: 'importCatalog', tags: ['catalog'], summary: 'Import the catalog: upsert by id, all or nothing', description: 'One invalid item (named in the message) and nothing is written.', parameters: [pathParam('appId')], requestBody: body('Catalog', ex.catalog), success: { '200': answer('The catalog after the import', 'Catalog', ex.catalog) }, errors: ['app_not_found'] }),
  },
  '/api/admin/apps/{appId}/draft': {
    get: op('catalog.read', { operationId: 'getDraft', tags: ['releases'], summary: 'The app’s draft catalog, with what publishing it would change', description: '`changes` lists every mission, campaign and theme that differs from the live catalog (added, changed, removed); `changeDetails` the same with each field before → after; `warnings` what publishing needs acknowledged; `schedule` the scheduled snapshot and the changes made since. With `allowMissing=true` an app without a draft answers 204 instead of 404 (the console reads it so).', parameters: [pathParam('appId'), ...queryParams(draftQuerySchema)], success: { '200': answer('The draft', 'Draft', ex.draft), '204': { description: 'With allowMissing=true: the app has no draft' } }, errors: [['validation_error', '`allowMissing` other than true or false'], 'app_not_found', ['draft_not_found', 'the app has no draft (without allowMissing=true)']] }),
    put: op('catalog.write', { operationId: 'putDraft', tags: ['releases'], summary: 'Write the draft: a whole catalog document', description: 'Validated as a whole (the item schemas of PUT …/catalog; every reference to an item of the same document): one invalid item and nothing is stored. Players see nothing of it until it is published. Up to 1 MiB. Audited as draft.update.', parameters: [pathParam('appId')], requestBody: body('Catalog', ex.catalog), success: { '200': answer('The draft as stored', 'Draft', ex.draft) }, errors: [['validation_error', 'an invalid item or reference (named in the message)'], 'app_not_found', ['payload_too_large', 'a body over 1 MiB']] }),
    delete: op('catalog.write', { operationId: 'discardDraft', tags: ['releases'], summary: 'Discard the draft (and its scheduled publish)', description: 'Audited as draft.discard.', parameters: [pathParam('appId')], success: { '204': { description: 'Discarded' } }, errors: ['app_not_found', ['draft_not_found', 'the app has no draft']] }),
  },
  ...draftItemOperations(),
  '/api/admin/apps/{appId}/draft/campaigns/{id}/duplicate': {
    post: op('catalog.write', { operationId: 'duplicateDraftCampaign', tags: ['releases'], summary: 'Copy a campaign and its missions into the draft, with new ids', description: 'The copy keeps everything of the campaign and of each of its missions that is not archived (schedule, theme, audience, budget caps, criteria, rewards) but the ids: the given `id`, else `<id>-copy` (then `-copy-2`, …) for the campaign and `<mission id>-copy` for each mission, never one the draft or the live catalog uses; and the campaign’s title: the given `title`, else "<title> (copy)". A copied mission’s prerequisite that is a mission of the same campaign points to that mission’s copy. The copy’s budget starts unspent. The draft is started from the live catalog when the app has none and validated as a whole. Audited as draft.campaign.duplicate.', parameters: [pathParam('appId'), pathParam('id')], requestBody: body('DuplicateCampaignInput', ex.duplicateCampaign), success: { '201': answer('The draft, the copy’s id and each copied mission’s new id', 'DraftCampaignDuplicated', ex.campaignDuplicated) }, errors: [['validation_error', 'an invalid `id` or `title`, or the draft with the copy would be invalid (named in the message)'], 'app_not_found', ['campaign_not_found', 'neither the draft nor (without a draft) the live catalog has this campaign'], ['conflict', 'the given `id` is a campaign of the draft or of the live catalog']] }),
  },
  '/api/admin/apps/{appId}/missions/{missionId}/progress': {
    get: op('catalog.read', { operationId: 'getMissionProgressCounts', tags: ['missions'], summary: 'How many players have progress on the mission now, by status', description: 'One progress record per player: active (counting), completed (not claimed), claimed. What the console shows before a change to a live mission is saved; a changed criterion applies from each player’s next event (a raised count leaves completed records completed). Zeros for a mission nobody started or one only in the draft.', parameters: [pathParam('appId'), pathParam('missionId')], success: { '200': answer('Counts', 'MissionProgressCounts', ex.missionProgress) }, errors: ['app_not_found'] }),
  },
  '/api/admin/apps/{appId}/draft/preview': {
    post: op('catalog.read', { operationId: 'previewDraftAsPlayer', tags: ['releases'], summary: 'What GET /v1/missions would answer a player (stored or hypothetical) from the draft at a time', description: 'Builds a catalog from the draft and runs the same listing GET /v1/missions runs (locks, windows, campaign start and end, audiences, progress) with `at` (default now) as the clock, for a stored player (`userId`: their stored attributes and progress) or a hypothetical one (`attributes`, and optionally `progress`: mission id → `{count?, status?}` as records in the window containing `at`; a player who does not exist yet, held in memory only). Exactly one of `userId` and `attributes`. The answer has the /v1 shape with every listed mission on one page (`nextCursor` null). Read-only (nothing is written), every staff role. Without a draft: 404 draft_not_found (the live view is GET /v1/missions itself).', parameters: [pathParam('appId')], requestBody: body('PreviewInput', ex.previewInput), success: { '200': answer('The player’s missions from the draft', 'MissionList', v1Examples.missionList) }, errors: [['validation_error', 'neither or both of `userId` and `attributes`, `progress` without `attributes`, an attribute or `timezone` out of bounds, `progress` naming a mission the draft lacks or a count above its target, or `at` not a positive integer (the message names the path)'], 'app_not_found', ['draft_not_found', 'the app has no draft']] }),
  },
  '/api/admin/apps/{appId}/draft/economy': {
    put: op('catalog.write', { operationId: 'putDraftEconomy', tags: ['economy'], summary: 'Write the draft’s currencies and items', description: 'Each section given replaces the draft’s whole (absent: kept as the draft has it); the draft is started from the live catalog when there is none and is validated as a whole: with a section present, every reward and budget line of the draft must name one of its ids (400 validation_error naming the path, e.g. `missions[3].reward.currency`, and the nearest id), and two ids differing only in case are refused. Players see nothing until the draft is published.', parameters: [pathParam('appId')], requestBody: body('DraftEconomy', ex.draftEconomy), success: { '200': answer('The draft', 'Draft', ex.draft) }, errors: [['validation_error', 'a bad definition, two ids differing only in case, or a reward or budget line naming an id the section does not define'], 'app_not_found'] }),
  },
  '/api/admin/apps/{appId}/economy': {
    get: op('catalog.read', { operationId: 'getEconomy', tags: ['economy'], summary: 'The app’s live currencies and items, defined or implied', description: 'The live catalog’s currencies and items sections, completed with what it names (rewards, budget lines) and, for currencies, what players hold: those are `implied: true`, with name = id. `defined` says which sections the app carries (then grants, rewards and budgets must name their ids).', parameters: [pathParam('appId')], success: { '200': answer('The currencies and items', 'Economy', ex.economy) }, errors: ['app_not_found'] }),
  },
  '/api/admin/apps/{appId}/draft/impact': {
    post: op('catalog.read', { operationId: 'draftImpact', tags: ['releases'], summary: 'What the draft would have done over the last days of real events', description: 'Replays the app’s stored events of the last `days` days (default 30) through the criteria engine ingestion uses, once with the live catalog and once with the draft, from empty progress, and answers per mission the draft adds, changes or removes: users in progress, users who completed it, and the currency those completions would pay, also at the observed claim rate (`claimRate`: claims ÷ completions of the mission in the period, else of the app). A mission not live yet (a new one, or one whose campaign has not started) is also evaluated as if it had been live over the whole period (`notLive`, `asIfLive`). Read-only; pages through the events and never blocks ingestion.', parameters: [pathParam('appId')], requestBody: body('ImpactInput', ex.impactInput), success: { '200': answer('The impact', 'ImpactReport', ex.impact) }, errors: [['validation_error', '`days` outside 1 to 90'], 'app_not_found', ['draft_not_found', 'the app has no draft']] }),
  },
  '/api/admin/apps/{appId}/draft/publish': {
    post: op('catalog.write', { operationId: 'publishDraft', tags: ['releases'], summary: 'Publish the draft now, or schedule it (or, with requireApproval, ask for approval)', description: '`{}`: the draft’s catalog goes live in one transaction as the next release and the draft is gone, its schedule with it (200). `{ "at": <ms> }` in the future: a snapshot of the draft as it is now goes live within 5 s of that time, on one instance (202); edits made after stay in the draft, the next one. An app with `requireApproval`: nothing goes live; a snapshot of the draft waits for another editor’s or admin’s approval (202 `{ approval }`, POST …/draft/approve), `at` is kept for when it is approved. A draft with payout warnings (`warnings` of GET …/draft) answers 409 needs_acknowledgement listing them, nothing written, unless the body says `"acknowledgeWarnings": true`. Audited as draft.publish / draft.schedule / draft.approval_request (with the acknowledged warnings).', parameters: [pathParam('appId')], requestBody: body('PublishDraft', ex.publishNow), success: { '200': answer('Published', 'Published', ex.published), '202': { description: 'Scheduled (ScheduledPublish), or, with requireApproval, waiting for approval (ApprovalRequested, as the example)', json: { schema: { oneOf: [ref('ScheduledPublish'), ref('ApprovalRequested')] }, example: ex.approvalRequested } } }, errors: [['validation_error', '`at` not in the future, or another field'], 'app_not_found', ['draft_not_found', 'the app has no draft'], ['needs_acknowledgement', 'the draft has payout warnings and the body does not acknowledge them'], ['approval_pending', 'a publish already waits for approval'], ['release_scheduled', 'requireApproval, and a release is scheduled']] }),
    delete: op('catalog.write', { operationId: 'cancelScheduledPublish', tags: ['releases'], summary: 'Cancel the draft’s scheduled publish (the draft stays)', description: 'The snapshot is dropped; the draft keeps its changes and those made since. Audited as draft.unschedule when there was one.', parameters: [pathParam('appId')], success: { '200': answer('No publish scheduled', 'Unscheduled', ex.unscheduled) }, errors: ['app_not_found', ['draft_not_found', 'the app has no draft']] }),
  },
  '/api/admin/apps/{appId}/draft/approve': {
    post: op('catalog.write', { operationId: 'approveDraft', tags: ['releases'], summary: 'Approve the publish another staff member asked for', description: 'The two-person rule (the app’s `requireApproval`). The pending approval’s snapshot (`approval` of GET …/draft: changes, field diffs, warnings against live now) goes live as the requester’s release (200), or, when the request named a time still ahead, becomes the scheduled release (202); edits made since stay in the draft. The requester cannot approve (403 self_approval); payout warnings need `acknowledgeWarnings: true`; `requestedAt` makes sure the request approved is the one reviewed. Audited as draft.approve (and draft.publish).', parameters: [pathParam('appId')], requestBody: body('ApproveDraft', ex.approve), success: { '200': answer('Approved and published', 'Published', ex.published), '202': answer('Approved and scheduled', 'ScheduledPublish', ex.scheduled) }, errors: [['validation_error', 'an unknown field'], 'app_not_found', ['self_approval', 'the caller asked for this publish'], ['no_pending_approval', 'nothing waits for approval, or another request than the one reviewed'], ['needs_acknowledgement', 'the snapshot has payout warnings and the body does not acknowledge them']] }),
  },
  '/api/admin/apps/{appId}/draft/reject': {
    post: op('catalog.write', { operationId: 'rejectDraft', tags: ['releases'], summary: 'Reject the publish waiting for approval, with a reason', description: 'Nothing goes live; the snapshot is dropped and the draft keeps its changes and those made since. The reason is shown on the draft (`rejection`) until the next request. Audited as draft.reject.', parameters: [pathParam('appId')], requestBody: body('RejectDraft', ex.reject), success: { '200': answer('Rejected', 'ApprovalClosed', ex.approvalClosed) }, errors: [['validation_error', 'no reason'], 'app_not_found', ['no_pending_approval', 'nothing waits for approval']] }),
  },
  '/api/admin/apps/{appId}/draft/withdraw': {
    post: op('catalog.write', { operationId: 'withdrawApproval', tags: ['releases'], summary: 'Take back the publish you asked approval for', description: 'The requester only (others reject it). Nothing goes live; the draft keeps its changes. Audited as draft.approval_withdraw.', parameters: [pathParam('appId')], success: { '200': answer('Withdrawn', 'ApprovalClosed', ex.approvalClosed) }, errors: ['app_not_found', ['not_requester', 'someone else asked for it'], ['no_pending_approval', 'nothing waits for approval']] }),
  },
  '/api/admin/apps/{appId}/releases': {
    get: op('catalog.read', { operationId: 'listReleases', tags: ['releases'], summary: 'The app’s releases, newest first, and the scheduled publish', description: 'Every change of the live catalog, whatever its path, is a release: who, when, what changed (the newest 200).', parameters: [pathParam('appId')], success: { '200': answer('Releases', 'ReleaseList', ex.releaseList) }, errors: ['app_not_found'] }),
  },
  '/api/admin/apps/{appId}/releases/{release}/restore': {
    post: op('catalog.write', { operationId: 'restoreRelease', tags: ['releases'], summary: 'Revert: the draft becomes that release’s catalog', description: 'Replaces the draft (its schedule, if any, stays); publish it as usual. Audited as release.restore.', parameters: [pathParam('appId'), { name: 'release', in: 'path', required: true, schema: { type: 'string', pattern: '^[1-9][0-9]{0,8}$' }, description: 'The release number (1, 2, …)' }], success: { '200': answer('The draft', 'Draft', ex.draft) }, errors: [['validation_error', 'a release that is not a positive integer'], 'app_not_found', ['release_not_found', 'no such release']] }),
  },
  '/api/admin/apps/{appId}/themes': {
    get: op('catalog.read', { operationId: 'listThemes', tags: ['themes'], summary: 'List theme presets, each with the campaigns using it', parameters: [pathParam('appId')], success: { '200': answer('Presets', 'ThemeList', ex.themeList) }, errors: ['app_not_found'] }),
    post: op('catalog.write', { operationId: 'createTheme', tags: ['themes'], summary: 'Create a theme preset (version 1)', parameters: [pathParam('appId')], requestBody: body('ThemePreset', ex.themePreset), success: { '201': answer('Created', 'ThemeAnswer', ex.themeAnswer) }, errors: ['app_not_found', exists] }),
  },
  '/api/admin/apps/{appId}/themes/{themeId}': {
    get: op('catalog.read', { operationId: 'getTheme', tags: ['themes'], summary: 'One theme preset', parameters: [pathParam('appId'), pathParam('themeId')], success: { '200': answer('Preset', 'ThemeAnswer', ex.themeAnswer) }, errors: ['app_not_found', 'not_found'] }),
    put: op('catalog.write', { operationId: 'updateTheme', tags: ['themes'], summary: 'Replace a preset (the whole preset and the version read)', description: 'Campaigns using it answer the new colours in /v1 at once.', parameters: [pathParam('appId'), pathParam('themeId')], requestBody: body('UpdateTheme', ex.updateTheme), success: { '200': answer('Updated (version + 1)', 'ThemeAnswer', ex.themeAnswer) }, errors: ['app_not_found', 'not_found', stale] }),
    delete: op('catalog.write', { operationId: 'deleteTheme', tags: ['themes'], summary: 'Delete a preset no campaign uses', parameters: [pathParam('appId'), pathParam('themeId'), versionQuery], success: deleted, errors: [['validation_error', 'a bad version'], 'app_not_found', 'not_found', ['conflict', 'campaigns use it (named in the message), or a stale version']] }),
  },
  '/api/admin/apps/{appId}/campaigns': {
    get: op('catalog.read', { operationId: 'listCampaignRecords', tags: ['campaigns'], summary: 'List campaigns as stored (themeId unresolved), with missionIds, version and what each spent of its budget', parameters: [pathParam('appId')], success: { '200': answer('Campaigns', 'CampaignRecordList', ex.campaignList) }, errors: ['app_not_found'] }),
    post: op('catalog.write', { operationId: 'createCampaign', tags: ['campaigns'], summary: 'Create a campaign (version 1)', description: 'missionIds, when given, assigns exactly those missions to it. Refused: bounds out of order, theme and themeId together, an unknown preset or mission.', parameters: [pathParam('appId')], requestBody: body('CreateCampaign', ex.createCampaign), success: { '201': answer('Created', 'CampaignAnswer', ex.campaignWritten) }, errors: ['app_not_found', exists] }),
  },
  '/api/admin/apps/{appId}/campaigns/{campaignId}': {
    get: op('catalog.read', { operationId: 'getCampaignRecord', tags: ['campaigns'], summary: 'One campaign, with what it spent of its budget', description: 'budgetSpent: what the campaign’s missions granted per currency (exact); budgetAlerts: the 80 % and 100 % alerts recorded; budgetRefusals: the claims its budgets refused, per currency (count, first and last time).', parameters: [pathParam('appId'), pathParam('campaignId')], success: { '200': answer('Campaign', 'CampaignAnswer', ex.campaignAnswer) }, errors: ['app_not_found', 'campaign_not_found'] }),
    put: op('catalog.write', { operationId: 'updateCampaign', tags: ['campaigns'], summary: 'Replace a campaign (the whole campaign and the version read)', description: 'missionIds, when given, reassigns missions (each change audited).', parameters: [pathParam('appId'), pathParam('campaignId')], requestBody: body('UpdateCampaign', ex.updateCampaign), success: { '200': answer('Updated (version + 1)', 'CampaignAnswer', ex.campaignWritten) }, errors: ['app_not_found', 'campaign_not_found', stale] }),
    delete: op('catalog.write', { operationId: 'deleteCampaign', tags: ['campaigns'], summary: 'Delete a campaign no mission names (archive it otherwise)', parameters: [pathParam('appId'), pathParam('campaignId'), versionQuery], success: deleted, errors: [['validation_error', 'a bad version'], 'app_not_found', 'campaign_not_found', ['conflict', 'missions name it (listed in the message), or a stale version']] }),
  },
  '/api/admin/apps/{appId}/revocations': {
    post: op('players.revoke', { operationId: 'revokePlayerTokens', tags: ['players'], summary: 'Revoke one token ({jti}) or every token of a user so far ({userId})', description: 'Takes effect at once on every instance; the answer echoes the revocation.', parameters: [pathParam('appId')], requestBody: body('Revocation', ex.revocation), success: { '200': answer('Revoked', 'Revoked', ex.revoked) }, errors: ['app_not_found'] }),
  },
  '/api/admin/apps/{appId}/analytics': {
    get: op('analytics.read', { operationId: 'getAnalytics', tags: ['analytics'], summary: 'Counts of events, completions, claims and currency granted over a range', description: 'Per bucket, event name, mission and currency (the dashboard), and the claims refused by campaign budgets per campaign and currency.', parameters: [pathParam('appId'), ...queryParams(analyticsQuerySchema)], success: { '200': answer('Analytics', 'Analytics', ex.analytics) }, errors: [['validation_error', 'a bad parameter, from not before to, a range over 31 days or over 1,500 buckets'], 'app_not_found'] }),
  },
  '/api/admin/apps/{appId}/users': {
    get: op('players.read', { operationId: 'searchUsers', tags: ['support desk'], summary: 'Find a player', description: 'The app’s users whose id contains `query` anywhere, in any case (every user without one), most recently seen first, a page at a time (pass nextCursor as `cursor`). A user is seen from their first stored event on.', parameters: [pathParam('appId'), ...queryParams(userSearchQuerySchema)], success: { '200': answer('A page of users', 'UserPage', EX.users) }, errors: [['validation_error', 'a cursor this endpoint did not give'], 'app_not_found'] }),
  },
  '/api/admin/apps/{appId}/users/{userId}': {
    get: op('players.read', { operationId: 'inspectUser', tags: ['players'], summary: 'Inspect a user', description: 'Missions with status and lock reason (and a claim refused by the campaign’s budget), balances, ledger, the newest 50 events with the engine’s verdict per mission (eventsNextCursor: the older ones through GET …/users/{userId}/events), when the app saw the user (`seen`) and the latest erasure of the id (`erasure`: when, who, why).', parameters: [pathParam('appId'), ...userParams], success: { '200': answer('Inspection', 'Inspection', ex.inspection) }, errors: ['app_not_found'] }),
    delete: op('players.data', { operationId: 'erasePlayer', tags: ['support desk'], summary: 'Erase the user (a data-erasure request)', description: 'With a required reason, in one transaction: every token of the user so far is revoked; their events, progress, balances, ledger rows, notes, idempotency keys and stream log are removed, and after commit their cached idempotency answers and recommendations in the key-value store; the dashboard’s aggregate counters stay; the audit entries about them keep who, what and when without the data, and one entry records the erasure (who, when, reason). A later event for the same id starts a new, empty user. See docs/security.md.', parameters: [pathParam('appId'), ...userParams], requestBody: body('Reason', { reason: 'Data-erasure request #77 from the player' }), success: { '200': answer('Erased: how many rows of each kind', 'ErasureResult', { erased: true, userId: 'player-42', removed: { events: 118, progress: 4, balances: 1, ledger: 3, notes: 1, idempotencyKeys: 2 } }) }, errors: [['validation_error', 'a missing or short reason'], 'app_not_found'] }),
  },
  '/api/admin/apps/{appId}/users/{userId}/export': {
    get: op('players.data', { operationId: 'exportPlayer', tags: ['support desk'], summary: 'Export everything stored about the user (a data-access request)', description: 'One JSON document: when first and last seen, every stored event, progress, balances, the ledger, support notes, the audit entries whose target is the user and their claims refused by a campaign’s budget (Questline stores no other user attributes).', parameters: [pathParam('appId'), ...userParams], success: { '200': answer('The export (Content-Disposition: attachment)', 'UserExport', { appId: 'my-game', userId: 'player-42', exportedAt: 1764000000000, user: { userId: 'player-42', firstSeenAt: 1763000000000, lastSeenAt: 1764000000000, events: 1 }, events: [{ id: 'evt_7c4e', name: 'match_won', payload: { mode: 'ranked' }, timestamp: 1764000000000, receivedAt: 1764000000000, source: 'api', idempotencyKey: null, outcome: [] }], progress: [], balances: [], ledger: [], notes: [], audit: [], claimRefusals: [] }) }, errors: ['app_not_found'] }),
  },
  '/api/admin/apps/{appId}/users/{userId}/events': {
    get: op('players.read', { operationId: 'listPlayerEvents', tags: ['players'], summary: 'Every stored event of the user, a page at a time', description: 'Newest first (event time, then arrival), each with the engine’s verdict per mission as the inspection shows them; optionally one event name (`name`) and a time range of the event’s timestamp (`from` inclusive, `to` exclusive). Pass nextCursor (or the inspection’s eventsNextCursor) as `before` for the next, older page.', parameters: [pathParam('appId'), ...userParams, ...queryParams(inspectorEventsQuerySchema)], success: { '200': answer('A page of events', 'InspectedEventPage', { events: ex.inspection.events, nextCursor: null }) }, errors: [['validation_error', 'a bad query parameter (named), or a cursor this endpoint did not give'], 'app_not_found'] }),
    post: op('players.test_event', { operationId: 'sendTestEvent', tags: ['players'], summary: 'Send a test event as the user (or judge it with dryRun=1)', description: 'Recorded like POST /v1/events (source "test"), audited as user.test_event. It is real: it counts, completes missions and is announced on the player’s stream. With ?dryRun=1 it is not: the answer is the verdicts it would get (DryRunResult), nothing is stored, sent or audited.', parameters: [pathParam('appId'), ...userParams, { name: 'dryRun', in: 'query', required: false, schema: { type: 'string', enum: ['0', '1', 'true', 'false'] }, description: '1 or true: judge the event without recording it' }], requestBody: body('TestEvent', ex.testEvent), success: { '200': { description: 'Recorded (RecordedEvent), or with dryRun=1 the verdicts (DryRunResult)', json: { schema: { oneOf: [ref('RecordedEvent'), ref('DryRunResult')] }, example: ex.recordedEvent } } }, errors: ['app_not_found'] }),
  },
  '/api/admin/apps/{appId}/users/{userId}/grants': {
    post: op('players.adjust', { operationId: 'grantCurrency', tags: ['support desk'], summary: 'Grant or correct a currency of the player', description: 'A positive amount credits, a negative one corrects, with a required reason: a ledger row records the amount, the staff member and the reason; balance.changed goes to the player’s stream; audited as user.grant. Never below zero: 409 insufficient_balance, nothing changed. A user the app has never seen: 404 user_not_found unless createUser: true (creates them, first seen now). The support role is bounded by the app’s grantLimits of the currency (default 1,000 per grant and 5,000 per staff member per UTC day, |amount| of grants and corrections): past one, 403 grant_limit_exceeded with limit and remaining, nothing changed; admins and the admin API key have no limit (audited with overLimit: true).', parameters: [pathParam('appId'), ...userParams, idempotencyKeyHeader], requestBody: body('Grant', EX.grant), success: { '200': answer('The balance after it and the ledger row', 'GrantResult', EX.grantResult) }, errors: [...reasonErrors, ['user_not_found', 'the app has never seen the user and createUser is not true'], ['grant_limit_exceeded', 'support: past the per-grant or per-day limit of the currency'], 'insufficient_balance', ['balance_limit', 'the grant would take the balance past the currency’s maxBalance']], idempotent: true }),
  },
  '/api/admin/apps/{appId}/users/{userId}/missions/{missionId}/reset': {
    post: op('players.adjust', { operationId: 'resetPlayerMission', tags: ['support desk'], summary: 'Reset the player’s mission progress', description: 'To no progress in the current window (active, count 0); a claimed reward is not taken back (correct the currency for that) and the mission can be earned again. mission.progress on the player’s stream; audited as user.mission_reset. A user the app has never seen: 404 user_not_found unless createUser: true.', parameters: [pathParam('appId'), ...userParams, pathParam('missionId'), idempotencyKeyHeader], requestBody: body('MissionActionInput', EX.reason), success: { '200': answer('The progress after the reset', 'MissionActionResult', EX.progress('active', 0)) }, errors: [...reasonErrors, 'mission_not_found', ['user_not_found', 'the app has never seen the user and createUser is not true']], idempotent: true }),
  },
  '/api/admin/apps/{appId}/users/{userId}/missions/{missionId}/complete': {
    post: op('players.adjust', { operationId: 'completePlayerMission', tags: ['support desk'], summary: 'Complete the player’s mission', description: 'For a player who was wronged: status completed, claimable by the player as usual; mission.completed on the player’s stream; audited as user.mission_complete. 409 conflict when it is already completed, or claimed in this window. A user the app has never seen: 404 user_not_found unless createUser: true. A currency reward is given as a grant is: it counts against the app’s grantLimits of its currency (the support role past one: 403 grant_limit_exceeded, nothing changed; admins audited with overLimit: true), and the audit entry’s after has charged: {currency, amount}.', parameters: [pathParam('appId'), ...userParams, pathParam('missionId'), idempotencyKeyHeader], requestBody: body('MissionActionInput', EX.reason), success: { '200': answer('The progress after the completion', 'MissionActionResult', EX.progress('completed', 2)) }, errors: [...reasonErrors, 'mission_not_found', ['user_not_found', 'the app has never seen the user and createUser is not true'], ['conflict', 'already completed, or claimed in this window'], ['grant_limit_exceeded', 'support: the mission’s currency reward is past the per-grant or per-day limit of the currency']], idempotent: true }),
  },
  '/api/admin/apps/{appId}/users/{userId}/notes': {
    get: op('players.read', { operationId: 'listPlayerNotes', tags: ['support desk'], summary: 'The player’s support notes', description: 'Newest first (at most 100), with author and time.', parameters: [pathParam('appId'), ...userParams], success: { '200': answer('Notes', 'NoteList', { notes: [EX.note] }) }, errors: ['app_not_found'] }),
    post: op('players.adjust', { operationId: 'addPlayerNote', tags: ['support desk'], summary: 'Add a support note on the player', description: 'Staff only: nothing reaches the player; audited as user.note.', parameters: [pathParam('appId'), ...userParams, idempotencyKeyHeader], requestBody: body('NoteInput', EX.noteInput), success: { '200': answer('The note', 'NoteAnswer', { note: EX.note }) }, errors: ['app_not_found', 'idempotency_key_reused'], idempotent: true }),
  },
  '/api/admin/apps/{appId}/users/{userId}/updates': {
    get: op('players.read', {
      operationId: 'streamUserUpdates',
      tags: ['players'],
      summary: 'The user’s stream updates as Server-Sent Events',
      description: 'From the same update log and bus as GET /v1/sse/updates (same frames, Last-Event-ID resume). Also, staff only: every event of the user as it is stored, with its verdicts, even one that changed nothing, as `data: {"type":"event.recorded","data":{id, userId, name, payload, timestamp, receivedAt, source, verdicts}}` frames WITHOUT an id (live only: not in the log, not replayed on resume). Authenticated by the session cookie (or the admin key), never a token in the URL; closed when the session ends.',
      parameters: [pathParam('appId'), ...userParams, { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' }, description: 'Resume after this id' }],
      success: { '200': { description: 'text/event-stream of `id: <id>` and `data: <SDKUpdate JSON>` frames', stream: { schema: { type: 'string' }, example: ex.stream } } },
      errors: ['app_not_found', 'too_many_streams'],
    }),
  },
  '/api/admin/staff': {
    get: op('staff.manage', { operationId: 'listStaff', tags: ['staff'], summary: 'List staff accounts', success: { '200': answer('Staff', 'StaffList', ex.staffList) } }),
    post: op('staff.manage', { operationId: 'createStaff', tags: ['staff'], summary: 'Create a staff account', description: 'Without a password one is generated and answered this once.', requestBody: body('CreateStaff', ex.createStaff), success: { '201': answer('Created', 'CreatedStaff', ex.createdStaff) }, errors: [['conflict', 'the address has an account']] }),
  },
  '/api/admin/staff/{staffId}': {
    patch: op('staff.manage', { operationId: 'updateStaff', tags: ['staff'], summary: 'Change a role', description: 'Takes effect on the member’s next request.', parameters: [pathParam('staffId')], requestBody: body('UpdateStaff', ex.updateStaff), success: { '200': { description: 'Updated', json: { schema: { type: 'object', properties: { staff: ref('StaffMember') }, required: ['staff'] }, example: ex.updatedStaff } } }, errors: ['not_found', ['conflict', 'the last admin']] }),
    delete: op('staff.manage', { operationId: 'deleteStaff', tags: ['staff'], summary: 'Remove an account and end its sessions', parameters: [pathParam('staffId')], success: { '204': { description: 'Removed' } }, errors: ['not_found', ['conflict', 'the last admin, or yourself']] }),
  },
  '/api/admin/apps/{appId}/missions': {
    get: op('catalog.read', { operationId: 'listMissionRecords', tags: ['missions'], summary: 'List missions, filtered, ordered by id', description: 'Every given filter must match.', parameters: [pathParam('appId'), ...queryParams(missionListQuerySchema)], success: { '200': answer('Missions', 'MissionRecordList', ex.missionList) }, errors: [['validation_error', 'a bad query parameter (named)'], 'app_not_found'] }),
    post: op('catalog.write', { operationId: 'createMission', tags: ['missions'], summary: 'Create a mission', description: 'Validated like a catalog item; campaign and prerequisites must exist; audited.', parameters: [pathParam('appId')], requestBody: body('MissionDefinition', ex.missionDefinition), success: { '201': answer('Created (version 1)', 'MissionRecord', { ...ex.missionRecord, version: 1 }) }, errors: ['app_not_found', exists] }),
  },
  '/api/admin/apps/{appId}/missions/{missionId}': {
    get: op('catalog.read', { operationId: 'getMissionRecord', tags: ['missions'], summary: 'One mission with its version', parameters: [pathParam('appId'), pathParam('missionId')], success: { '200': answer('Mission', 'MissionRecord', ex.missionRecord) }, errors: ['app_not_found', 'mission_not_found'] }),
    put: op('catalog.write', { operationId: 'updateMission', tags: ['missions'], summary: 'Replace a mission', description: '`version` must be the one it was read at; audited with before and after.', parameters: [pathParam('appId'), pathParam('missionId')], requestBody: body('MissionUpdate', ex.missionUpdate), success: { '200': answer('Updated (version + 1)', 'MissionRecord', ex.missionRecord) }, errors: ['app_not_found', 'mission_not_found', ['conflict', 'the mission changed since that version (reload and apply the change again)']] }),
  },
  '/api/admin/apps/{appId}/missions/{missionId}/duplicate': {
    post: op('catalog.write', { operationId: 'duplicateMission', tags: ['missions'], summary: 'Copy a mission under a new id', description: 'Default id "<id>-copy", not archived; audited. The body is optional.', parameters: [pathParam('appId'), pathParam('missionId')], requestBody: body('MissionDuplicate', ex.missionDuplicate, false), success: { '201': answer('The copy', 'MissionRecord', { ...ex.missionRecord, id: 'win-3-matches-weekly', version: 1 }) }, errors: ['app_not_found', 'mission_not_found', exists] }),
  },
  '/api/admin/apps/{appId}/missions/{missionId}/archive': {
    post: op('catalog.write', { operationId: 'archiveMission', tags: ['missions'], summary: 'Archive a mission', description: 'Events stop counting for it and /v1 stops listing it; a completed record stays claimable; audited. The body is optional.', parameters: [pathParam('appId'), pathParam('missionId')], requestBody: body('MissionArchive', ex.missionArchive, false), success: { '200': answer('Archived', 'MissionRecord', { ...ex.missionRecord, archived: true, version: 4 }) }, errors: ['app_not_found', 'mission_not_found', stale] }),
  },
  '/api/admin/apps/{appId}/missions/{missionId}/unarchive': {
    post: op('catalog.write', { operationId: 'unarchiveMission', tags: ['missions'], summary: 'Bring an archived mission back', description: 'Audited. The body is optional.', parameters: [pathParam('appId'), pathParam('missionId')], requestBody: body('MissionArchive', ex.missionArchive, false), success: { '200': answer('Live again', 'MissionRecord', { ...ex.missionRecord, version: 4 }) }, errors: ['app_not_found', 'mission_not_found', stale] }),
  },
  '/api/admin/apps/{appId}/event-names': {
    get: op('catalog.read', { operationId: 'listEventNames', tags: ['missions'], summary: 'Event-name suggestions', description: 'Distinct names of the app’s most recent events, then names its missions use.', parameters: [pathParam('appId')], success: { '200': answer('Names', 'EventNameList', ex.eventNames) }, errors: ['app_not_found'] }),
  },
  '/api/admin/apps/{appId}/event-payload-fields': {
    get: op('catalog.read', { operationId: 'listEventPayloadFields', tags: ['missions'], summary: 'Payload-field suggestions for an event name', description: 'The dot paths of scalar values the app’s recent events of `name` carried, most common first, with up to 5 example values each (the console’s filter rows suggest them). Reads at most the app’s last 5000 events.', parameters: [pathParam('appId'), ...queryParams(payloadFieldsQuerySchema)], success: { '200': answer('Fields', 'PayloadFieldList', ex.payloadFields) }, errors: [['validation_error', 'no `name`, or an unknown query parameter'], 'app_not_found'] }),
  },
  '/api/admin/audit': {
    get: op('audit.read', { operationId: 'listAuditEntries', tags: ['audit'], summary: 'The audit log, newest first, a page at a time', description: 'Pass nextCursor as `before` for the next page.', parameters: queryParams(auditQuerySchema), success: { '200': answer('A page', 'AuditPage', ex.auditPage) }, errors: [['validation_error', 'a bad query parameter (named)']] }),
  },
  '/api/admin/backup': {
    get: op('apps.manage', { operationId: 'backupDatabase', tags: ['operations'], summary: 'A consistent copy of the embedded database (admins only)', description: 'The embedded database (PGlite) as a gzipped tar of its data directory, taken while the service runs (no statement runs during the copy; a transaction open at that moment is left out, as after a crash). `node scripts/backup.mjs` calls it and `node scripts/restore.mjs` restores the file into a stopped data directory (docs/operations/backup.md). Audited as database.backup. On PostgreSQL: 409 conflict (use pg_dump).', success: { '200': { description: 'The copy (Content-Disposition: attachment; questline-backup-<time>.tar.gz)', file: { mediaType: 'application/gzip' } } }, errors: [['conflict', 'the instance runs on PostgreSQL: back it up with pg_dump']] }),
  },
  '/api/admin/openapi.json': {
    get: { operationId: 'getAdminOpenApiDocument', tags: ['meta'], summary: 'This document', description: 'Public, like /v1/openapi.json: it names paths and shapes, never data.', public: true, success: { '200': { description: 'The document', json: { schema: { type: 'object' }, example: ex.openapi } } } },
  },
};

const TAGS = [
  { name: 'apps', description: 'Apps and their secrets' },
  { name: 'catalog', description: 'The whole catalog as one document (missions as code)' },
  { name: 'releases', description: 'The draft catalog, publishing it (now or scheduled), releases and restore' },
  { name: 'economy', description: 'The app’s currencies and items: defined in the catalog (draft, releases), or implied by what it names' },
  { name: 'missions', description: 'Missions one at a time, with optimistic concurrency' },
  { name: 'themes', description: 'Theme presets one at a time, with optimistic concurrency' },
  { name: 'campaigns', description: 'Campaigns one at a time, with optimistic concurrency' },
  { name: 'players', description: 'Support: inspect a player, test events, revoke tokens, watch the stream' },
  { name: 'support desk', description: 'Support: find a player, grants and corrections, mission resets and completions, notes, data export and erasure' },
  { name: 'analytics', description: 'The dashboard’s counts' },
  { name: 'staff', description: 'Staff accounts and the caller' },
  { name: 'webhooks', description: 'Outbound webhooks: endpoints that receive signed notifications (mission.completed, reward.granted, balance.changed), their delivery log and redelivery' },
  { name: 'audit', description: 'The audit log' },
  { name: 'operations', description: 'Running the service: a copy of the embedded database' },
  { name: 'meta', description: 'This document' },
];

function buildDocument() {
  return completeDocument({
    openapi: '3.1.0',
    info: {
      title: 'Questline admin API',
      version: '0.1.0',
      description:
        'Apps, catalog (whole document, or theme presets and campaigns one at a time with optimistic concurrency), staff and support actions, for the console and for automation. Authenticate with `Authorization: Bearer <ADMIN_API_KEY>` (admin rights) or a console session cookie; cookie writes must come from the console’s own origin. No CORS.',
      contact: { name: 'Questline (docs/api.md)' },
    },
    servers: [{ url: '/' }],
    tags: TAGS,
    components: {
      securitySchemes: {
        adminKey: { type: 'http', scheme: 'bearer', description: 'ADMIN_API_KEY' },
        staffSession: { type: 'apiKey', in: 'cookie', name: 'questline.session_token', description: 'Console sign-in (POST /api/auth/sign-in/email)' },
      },
      schemas: components(),
    },
    paths: Object.fromEntries(
      Object.entries(operations).map(([path, methods]) => [path, Object.fromEntries(Object.entries(methods).map(([method, spec]) => [method, operation(withApprovalRule(spec), rules)]))]),
    ),
  });
}

/** The direct writes of the live catalog: an app that requires approval refuses them (lib/services/_shared/catalog-write.ts). */
const LIVE_CATALOG_WRITES = new Set(['importCatalog', 'createTheme', 'updateTheme', 'deleteTheme', 'createCampaign', 'updateCampaign', 'deleteCampaign', 'createMission', 'updateMission', 'duplicateMission', 'archiveMission', 'unarchiveMission']);
function withApprovalRule(spec: OperationSpec): OperationSpec {
  if (!LIVE_CATALOG_WRITES.has(spec.operationId)) return spec;
  return { ...spec, errors: [...(spec.errors ?? []), ['approval_required', 'the app requires approval: change the draft and publish it']] };
}

let cached: ReturnType<typeof buildDocument> | null = null;

export function getAdminOpenApiDocument() {
  cached ??= buildDocument();
  return cached;
}

export const adminOpenApiDocument = publicRoute(async () => json(getAdminOpenApiDocument()), { cors: false });
