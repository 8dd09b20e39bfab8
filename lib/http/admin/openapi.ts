// GET /api/admin/openapi.json – the admin API's own OpenAPI 3.1 document (public, like
// /v1/openapi.json: it names paths and shapes, never data). Schemas come from the
// zod schemas that validate the requests; each operation says which capability it needs.
import { z } from 'zod';
import { CAPABILITIES, type Capability } from '@/lib/auth/roles';
import { analyticsQuerySchema, analyticsSchema } from '@/lib/contract/analytics';
import { catalogSchema } from '@/lib/contract/catalog';
import { createdStaffSchema, createStaffSchema, staffListSchema, staffMemberSchema, updateStaffSchema } from '@/lib/contract/staff';
import { publicRoute } from '../handler';
import { json } from '../respond';
import { createAppSchema, publicAppSchema, rotatedWebhookSecretSchema } from '@/lib/contract/app';
import { campaignRecordSchema, createCampaignSchema, themeRecordSchema, updateCampaignSchema, updateThemeSchema } from '@/lib/contract/catalog-admin';
import { themePresetSchema } from '@/lib/contract/theme';
import { revocationSchema } from './apps';
import { rotateWebhookSecretSchema } from './webhook-secret';
import { meSchema } from './staff';
import { inspectedEventSchema, inspectedMissionSchema, inspectionSchema, ledgerEntrySchema, missionLockSchema, testEventSchema, verdictSchema } from '@/lib/contract/inspector';
import { eventResponseSchema } from '@/lib/contract/v1';
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
  userExportSchema,
  userPageSchema,
  userSearchQuerySchema,
} from '@/lib/contract/desk';
import { missionSchema } from '@/lib/contract/mission';
import {
  eventNameListSchema,
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
const rotatedSecretSchema = z.object({ appId: z.string(), appSecret: z.string() }).meta({ id: 'RotatedAppSecret' });
const catalogDocumentSchema = catalogSchema.meta({ id: 'Catalog', description: 'Upserted by id, validated as a whole: one invalid item and nothing is written.' });
const adminErrorSchema = z.object({ error: z.string(), message: z.string().optional() }).meta({ id: 'AdminError' });
const themePresetComponent = themePresetSchema.meta({ id: 'ThemePreset' });
const themeListSchema = z.object({ themes: z.array(themeRecordSchema) }).meta({ id: 'ThemeList' });
const themeAnswerSchema = z.object({ theme: themeRecordSchema }).meta({ id: 'ThemeAnswer' });
const campaignListSchema = z.object({ campaigns: z.array(campaignRecordSchema) }).meta({ id: 'CampaignRecordList' });
const campaignAnswerSchema = z.object({ campaign: campaignRecordSchema }).meta({ id: 'CampaignAnswer' });

const named = [
  publicAppSchema, appListSchema, createdAppSchema, rotatedSecretSchema, catalogDocumentSchema, adminErrorSchema,
  createAppSchema.meta({ id: 'CreateApp' }), revocationSchema.meta({ id: 'Revocation' }), meSchema, staffMemberSchema,
  staffListSchema, createStaffSchema, createdStaffSchema, updateStaffSchema,
  rotateWebhookSecretSchema.meta({ id: 'RotateWebhookSecret' }), rotatedWebhookSecretSchema, analyticsSchema,
  inspectionSchema, inspectedMissionSchema, inspectedEventSchema, missionLockSchema, verdictSchema, ledgerEntrySchema, testEventSchema,
  eventResponseSchema.meta({ id: 'RecordedEvent' }),
  missionSchema.meta({ id: 'MissionDefinition' }), missionRecordSchema, missionRecordListSchema, missionUpdateSchema,
  missionDuplicateSchema, missionArchiveSchema, eventNameListSchema, auditPageSchema,
  themePresetComponent, themeRecordSchema, themeListSchema, themeAnswerSchema, updateThemeSchema,
  campaignRecordSchema, campaignListSchema, campaignAnswerSchema, createCampaignSchema, updateCampaignSchema,
  grantSchema, grantResultSchema, reasonBodySchema, missionActionResultSchema, noteInputSchema, noteAnswerSchema, noteListSchema,
  dryRunResultSchema, userPageSchema, userExportSchema, erasureResultSchema,
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
const body = (id: string) => ({ content: { 'application/json': { schema: ref(id) } } });
const error = (description: string) => ({ description, ...body('AdminError') });
const pathParam = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
/** The query parameters of a GET, from the zod object that validates them. */
function queryParams(schema: z.ZodObject): Record<string, unknown>[] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, { description?: string }> };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return { name, in: 'query', required: false, ...(description ? { description } : {}), schema: rest };
  });
}
/** A JSON body with an example (the support desk's operations). */
const bodyEx = (id: string, example: unknown) => ({ content: { 'application/json': { schema: ref(id), example } } });
const errorEx = (code: string, message: string) => ({ description: `${code}: ${message}`, ...bodyEx('AdminError', { error: code, message }) });
const idempotencyKeyHeader = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255 },
  description: 'Applies the write once: a replay answers the first answer (X-Idempotent-Replay), the same key with another body 422 idempotency_key_reused',
};
const deskErrors = {
  '400': errorEx('validation_error', 'reason: say why (3 characters or more)'),
  '404': errorEx('app_not_found', 'No app "my-game"'),
  '422': errorEx('idempotency_key_reused', 'This idempotency key was used with a different request'),
};
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
/** operationId and tags of a support-desk operation. */
const desk = (operationId: string) => ({ operationId, tags: ['Support desk'] });

const versionQuery = { name: 'version', in: 'query', required: false, schema: { type: 'integer', minimum: 1 }, description: 'The version read; a stale one answers 409 conflict. Without it the delete is unconditional.' };
const stale = error('conflict: the item changed since that version was read (reload, apply again)');
const common = {
  '401': error('unauthorized: no admin key and no staff session'),
  '403': error('forbidden: the role lacks the capability, or a cookie write came from another origin'),
};

/** One operation: its summary, the capability it needs and its documented answers. */
function op(capability: Capability | 'authenticated', summary: string, responses: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const who = capability === 'authenticated' ? 'any signed-in staff member' : `${capability} (${CAPABILITIES[capability].join(', ')})`;
  return { summary, description: `Needs: ${who}.`, security: [{ adminKey: [] }, { staffSession: [] }], ...extra, responses: { ...responses, ...common } };
}

function buildDocument() {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Questline admin API',
      version: '0.1.0',
      description:
        'Apps, catalog (whole document, or theme presets and campaigns one at a time with optimistic concurrency), staff and support actions, for the console and for automation. Authenticate with `Authorization: Bearer <ADMIN_API_KEY>` (admin rights) or a console session cookie; cookie writes must come from the console’s own origin. No CORS.',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        adminKey: { type: 'http', scheme: 'bearer', description: 'ADMIN_API_KEY' },
        staffSession: { type: 'apiKey', in: 'cookie', name: 'questline.session_token', description: 'Console sign-in (POST /api/auth/sign-in/email)' },
      },
      schemas: components(),
    },
    paths: {
      '/api/admin/me': { get: op('authenticated', 'Who is calling: staff member or admin key, role and capabilities', { '200': { description: 'Caller', ...body('Me') } }) },
      '/api/admin/apps': {
        get: op('apps.read', 'List apps (never their secrets)', { '200': { description: 'Apps', ...body('AppList') } }),
        post: op('apps.manage', 'Create an app; its secrets are answered this once', { '201': { description: 'Created', ...body('CreatedApp') }, '400': error('validation_error'), '409': error('conflict: the id exists') }, { requestBody: { required: true, ...body('CreateApp') } }),
      },
      '/api/admin/apps/{appId}/rotate-secret': {
        post: op('apps.manage', 'New app secret (shown once); the old one, and every token issued before, stop working at once', { '200': { description: 'Rotated', ...body('RotatedAppSecret') }, '404': error('app_not_found') }, { parameters: [pathParam('appId')] }),
      },
      '/api/admin/apps/{appId}/rotate-webhook-secret': {
        post: op('apps.manage', 'New webhook secret (shown once); the previous one stays valid for the grace period (default 24 h, 0 ends it at once)', { '200': { description: 'Rotated', ...body('RotatedWebhookSecret') }, '400': error('validation_error'), '404': error('app_not_found') }, { parameters: [pathParam('appId')], requestBody: { required: false, ...body('RotateWebhookSecret') } }),
      },
      '/api/admin/apps/{appId}/catalog': {
        get: op('catalog.read', 'Export the catalog (missions as code)', { '200': { description: 'Catalog', ...body('Catalog') }, '404': error('app_not_found') }, { parameters: [pathParam('appId')] }),
        put: op('catalog.write', 'Import the catalog: upsert by id, all or nothing', { '200': { description: 'The catalog after the import', ...body('Catalog') }, '400': error('validation_error naming the item'), '404': error('app_not_found') }, { parameters: [pathParam('appId')], requestBody: { required: true, ...body('Catalog') } }),
      },
      '/api/admin/apps/{appId}/themes': {
        get: op('catalog.read', 'List theme presets, each with the campaigns using it', { '200': { description: 'Presets', ...body('ThemeList') }, '404': error('app_not_found') }, { parameters: [pathParam('appId')] }),
        post: op('catalog.write', 'Create a theme preset (version 1)', { '201': { description: 'Created', ...body('ThemeAnswer') }, '400': error('validation_error'), '404': error('app_not_found'), '409': error('conflict: the id exists') }, { parameters: [pathParam('appId')], requestBody: { required: true, ...body('ThemePreset') } }),
      },
      '/api/admin/apps/{appId}/themes/{themeId}': {
        get: op('catalog.read', 'One theme preset', { '200': { description: 'Preset', ...body('ThemeAnswer') }, '404': error('app_not_found, not_found') }, { parameters: [pathParam('appId'), pathParam('themeId')] }),
        put: op('catalog.write', 'Replace a preset (the whole preset and the version read); campaigns using it answer the new colours in /v1 at once', { '200': { description: 'Updated (version + 1)', ...body('ThemeAnswer') }, '400': error('validation_error'), '404': error('app_not_found, not_found'), '409': stale }, { parameters: [pathParam('appId'), pathParam('themeId')], requestBody: { required: true, ...body('UpdateTheme') } }),
        delete: op('catalog.write', 'Delete a preset no campaign uses', { '204': { description: 'Deleted' }, '400': error('validation_error (version)'), '404': error('app_not_found, not_found'), '409': error('conflict: campaigns use it (named in the message), or a stale version') }, { parameters: [pathParam('appId'), pathParam('themeId'), versionQuery] }),
      },
      '/api/admin/apps/{appId}/campaigns': {
        get: op('catalog.read', 'List campaigns as stored (themeId unresolved), with missionIds and version', { '200': { description: 'Campaigns', ...body('CampaignRecordList') }, '404': error('app_not_found') }, { parameters: [pathParam('appId')] }),
        post: op('catalog.write', 'Create a campaign (version 1); missionIds, when given, assigns exactly those missions to it', { '201': { description: 'Created', ...body('CampaignAnswer') }, '400': error('validation_error (bounds, theme and themeId together, unknown preset or mission)'), '404': error('app_not_found'), '409': error('conflict: the id exists') }, { parameters: [pathParam('appId')], requestBody: { required: true, ...body('CreateCampaign') } }),
      },
      '/api/admin/apps/{appId}/campaigns/{campaignId}': {
        get: op('catalog.read', 'One campaign', { '200': { description: 'Campaign', ...body('CampaignAnswer') }, '404': error('app_not_found, campaign_not_found') }, { parameters: [pathParam('appId'), pathParam('campaignId')] }),
        put: op('catalog.write', 'Replace a campaign (the whole campaign and the version read); missionIds, when given, reassigns missions (each change audited)', { '200': { description: 'Updated (version + 1)', ...body('CampaignAnswer') }, '400': error('validation_error'), '404': error('app_not_found, campaign_not_found'), '409': stale }, { parameters: [pathParam('appId'), pathParam('campaignId')], requestBody: { required: true, ...body('UpdateCampaign') } }),
        delete: op('catalog.write', 'Delete a campaign no mission names (archive it otherwise)', { '204': { description: 'Deleted' }, '400': error('validation_error (version)'), '404': error('app_not_found, campaign_not_found'), '409': error('conflict: missions name it (listed in the message), or a stale version') }, { parameters: [pathParam('appId'), pathParam('campaignId'), versionQuery] }),
      },
      '/api/admin/apps/{appId}/revocations': {
        post: op('players.revoke', 'Revoke one token ({jti}) or every token of a user so far ({userId})', { '200': { description: 'Revoked' }, '400': error('validation_error'), '404': error('app_not_found') }, { parameters: [pathParam('appId')], requestBody: { required: true, ...body('Revocation') } }),
      },
      '/api/admin/apps/{appId}/analytics': {
        get: op('analytics.read', 'Counts of events, completions, claims and currency granted over a range, per bucket, event name, mission and currency (the dashboard)', { '200': { description: 'Analytics', ...body('Analytics') }, '400': error('validation_error: a bad parameter, from not before to, a range over 31 days or over 1,500 buckets'), '404': error('app_not_found') }, { parameters: [pathParam('appId'), ...queryParams(analyticsQuerySchema)] }),
      },
      '/api/admin/apps/{appId}/users/{userId}': {
        get: op('players.read', 'Inspect a user: missions with status and lock reason, balances, ledger, recent events with the engine’s verdict per mission', { '200': { description: 'Inspection', ...body('Inspection') }, '400': error('validation_error'), '404': error('app_not_found') }, { parameters: [pathParam('appId'), pathParam('userId')] }),
        delete: op('players.data', 'Erase the user (a data-erasure request), with a required reason, in one transaction: every token of the user so far is revoked; their events, progress, balances, ledger rows, notes, idempotency keys and stream log are removed; the dashboard’s aggregate counters stay; the audit entries about them keep who, what and when without the data, and one entry records the erasure (who, when, reason). A later event for the same id starts a new, empty user. See docs/security.md', { '200': { description: 'Erased: how many rows of each kind', ...bodyEx('ErasureResult', { erased: true, userId: 'player-42', removed: { events: 118, progress: 4, balances: 1, ledger: 3, notes: 1, idempotencyKeys: 2 } }) }, '400': errorEx('validation_error', 'reason: say why (3 characters or more)'), '404': deskErrors['404'] }, { ...desk('erasePlayer'), parameters: [pathParam('appId'), pathParam('userId')], requestBody: { required: true, ...bodyEx('Reason', { reason: 'Data-erasure request #77 from the player' }) } }),
      },
      '/api/admin/apps/{appId}/users/{userId}/export': {
        get: op('players.data', 'Export everything stored about the user (a data-access request) as one JSON document: when first and last seen, every stored event, progress, balances, the ledger, support notes and the audit entries whose target is the user (Questline stores no other user attributes)', { '200': { description: 'The export (Content-Disposition: attachment)', ...bodyEx('UserExport', { appId: 'my-game', userId: 'player-42', exportedAt: 1764000000000, user: { userId: 'player-42', firstSeenAt: 1763000000000, lastSeenAt: 1764000000000, events: 1 }, events: [{ id: 'evt_7c4e', name: 'match_won', payload: { mode: 'ranked' }, timestamp: 1764000000000, receivedAt: 1764000000000, source: 'api', idempotencyKey: null, outcome: [] }], progress: [], balances: [], ledger: [], notes: [], audit: [] }) }, '400': errorEx('validation_error', 'userId: Too big: expected string to have <=256 characters'), '404': deskErrors['404'] }, { ...desk('exportPlayer'), parameters: [pathParam('appId'), pathParam('userId')] }),
      },
      '/api/admin/apps/{appId}/users/{userId}/events': {
        post: op('players.test_event', 'Send a test event as the user: recorded like POST /v1/events (source "test"), audited as user.test_event. It is real: it counts, completes missions and is announced on the player’s stream. With ?dryRun=1 it is not: the answer is the verdicts it would get (DryRunResult), nothing is stored, sent or audited', { '200': { description: 'Recorded (RecordedEvent), or with dryRun=1 the verdicts (DryRunResult)', content: { 'application/json': { schema: { oneOf: [ref('RecordedEvent'), ref('DryRunResult')] }, examples: { recorded: { value: { accepted: true, eventId: 'evt_7c4e', missionsUpdated: ['ranked-wins'] } }, dryRun: { value: EX.dryRun } } } } }, '400': error('validation_error'), '404': error('app_not_found') }, { ...desk('sendTestEvent'), parameters: [pathParam('appId'), pathParam('userId'), { name: 'dryRun', in: 'query', required: false, schema: { type: 'string', enum: ['0', '1', 'true', 'false'] }, description: '1 or true: judge the event without recording it' }], requestBody: { required: true, content: { 'application/json': { schema: ref('TestEvent'), example: { name: 'match_won', payload: { mode: 'ranked' } } } } } }),
      },
      '/api/admin/apps/{appId}/users': {
        get: op('players.read', 'Find a player: the app’s users whose id starts with `query` (case-sensitive; every user without one), most recently seen first, a page at a time (pass nextCursor as `cursor`). A user is seen from their first stored event on', { '200': { description: 'A page of users', ...bodyEx('UserPage', EX.users) }, '400': errorEx('validation_error', 'query.cursor: not a cursor this endpoint gave (pass nextCursor as it came)'), '404': deskErrors['404'] }, { ...desk('searchUsers'), parameters: [pathParam('appId'), ...queryParams(userSearchQuerySchema)] }),
      },
      '/api/admin/apps/{appId}/users/{userId}/grants': {
        post: op('players.adjust', 'Grant (positive amount) or correct (negative) a currency of the player, with a required reason: a ledger row records the amount, the staff member and the reason; balance.changed goes to the player’s stream; audited as user.grant. Never below zero: 409 insufficient_balance, nothing changed', { '200': { description: 'The balance after it and the ledger row', ...bodyEx('GrantResult', EX.grantResult) }, ...deskErrors, '409': errorEx('insufficient_balance', 'The gold balance is 20; a correction of -50 would take it below zero') }, { ...desk('grantCurrency'), parameters: [pathParam('appId'), pathParam('userId'), idempotencyKeyHeader], requestBody: { required: true, ...bodyEx('Grant', EX.grant) } }),
      },
      '/api/admin/apps/{appId}/users/{userId}/missions/{missionId}/reset': {
        post: op('players.adjust', 'Reset the player’s mission to no progress in the current window (active, count 0); a claimed reward is not taken back (correct the currency for that) and the mission can be earned again. mission.progress on the player’s stream; audited as user.mission_reset', { '200': { description: 'The progress after the reset', ...bodyEx('MissionActionResult', EX.progress('active', 0)) }, ...deskErrors, '404': errorEx('mission_not_found', 'No mission "ranked-wins"') }, { ...desk('resetPlayerMission'), parameters: [pathParam('appId'), pathParam('userId'), pathParam('missionId'), idempotencyKeyHeader], requestBody: { required: true, ...bodyEx('Reason', EX.reason) } }),
      },
      '/api/admin/apps/{appId}/users/{userId}/missions/{missionId}/complete': {
        post: op('players.adjust', 'Complete the player’s mission (a player who was wronged): status completed, claimable by the player as usual; mission.completed on the player’s stream; audited as user.mission_complete. 409 conflict when it is already completed, or claimed in this window', { '200': { description: 'The progress after the completion', ...bodyEx('MissionActionResult', EX.progress('completed', 2)) }, ...deskErrors, '404': errorEx('mission_not_found', 'No mission "ranked-wins"'), '409': errorEx('conflict', 'Mission "ranked-wins" is already completed (the player can claim it)') }, { ...desk('completePlayerMission'), parameters: [pathParam('appId'), pathParam('userId'), pathParam('missionId'), idempotencyKeyHeader], requestBody: { required: true, ...bodyEx('Reason', EX.reason) } }),
      },
      '/api/admin/apps/{appId}/users/{userId}/notes': {
        get: op('players.read', 'The player’s support notes, newest first (at most 100), with author and time', { '200': { description: 'Notes', ...bodyEx('NoteList', { notes: [EX.note] }) }, '400': deskErrors['400'], '404': deskErrors['404'] }, { ...desk('listPlayerNotes'), parameters: [pathParam('appId'), pathParam('userId')] }),
        post: op('players.adjust', 'Add a support note on the player (staff only: nothing reaches the player); audited as user.note', { '200': { description: 'The note', ...bodyEx('NoteAnswer', { note: EX.note }) }, ...deskErrors }, { ...desk('addPlayerNote'), parameters: [pathParam('appId'), pathParam('userId'), idempotencyKeyHeader], requestBody: { required: true, ...bodyEx('NoteInput', EX.noteInput) } }),
      },
      '/api/admin/apps/{appId}/users/{userId}/updates': {
        get: op('players.read', 'The user’s stream updates as Server-Sent Events, from the same update log and bus as GET /v1/sse/updates (same frames, Last-Event-ID resume). Authenticated by the session cookie (or the admin key), never a token in the URL; closed when the session ends', { '200': { description: 'text/event-stream of `id: <id>\\ndata: <SDKUpdate JSON>` frames', content: { 'text/event-stream': { schema: { type: 'string' } } } }, '404': error('app_not_found'), '429': error('too_many_streams') }, { parameters: [pathParam('appId'), pathParam('userId'), { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } }] }),
      },
      '/api/admin/staff': {
        get: op('staff.manage', 'List staff accounts', { '200': { description: 'Staff', ...body('StaffList') } }),
        post: op('staff.manage', 'Create a staff account; without a password one is generated and answered this once', { '201': { description: 'Created', ...body('CreatedStaff') }, '400': error('validation_error'), '409': error('conflict: the address has an account') }, { requestBody: { required: true, ...body('CreateStaff') } }),
      },
      '/api/admin/staff/{staffId}': {
        patch: op('staff.manage', 'Change a role (takes effect on the member’s next request)', { '200': { description: 'Updated', content: { 'application/json': { schema: { type: 'object', properties: { staff: ref('StaffMember') }, required: ['staff'] } } } }, '400': error('validation_error'), '404': error('not_found'), '409': error('conflict: the last admin') }, { parameters: [pathParam('staffId')], requestBody: { required: true, ...body('UpdateStaff') } }),
        delete: op('staff.manage', 'Remove an account and end its sessions', { '204': { description: 'Removed' }, '404': error('not_found'), '409': error('conflict: the last admin, or yourself') }, { parameters: [pathParam('staffId')] }),
      },
      '/api/admin/apps/{appId}/missions': {
        get: op('catalog.read', 'List missions, filtered (every given filter must match), ordered by id', { '200': { description: 'Missions', ...body('MissionRecordList') }, '400': error('validation_error naming the query parameter'), '404': error('app_not_found') }, { parameters: [pathParam('appId'), ...queryParams(missionListQuerySchema)] }),
        post: op('catalog.write', 'Create a mission (validated like a catalog item; campaign and prerequisites must exist); audited', { '201': { description: 'Created (version 1)', ...body('MissionRecord') }, '400': error('validation_error naming the field'), '404': error('app_not_found'), '409': error('conflict: the id exists') }, { parameters: [pathParam('appId')], requestBody: { required: true, ...body('MissionDefinition') } }),
      },
      '/api/admin/apps/{appId}/missions/{missionId}': {
        get: op('catalog.read', 'One mission with its version', { '200': { description: 'Mission', ...body('MissionRecord') }, '404': error('app_not_found or mission_not_found') }, { parameters: [pathParam('appId'), pathParam('missionId')] }),
        put: op('catalog.write', 'Replace a mission; `version` must be the one it was read at; audited with before and after', { '200': { description: 'Updated (version + 1)', ...body('MissionRecord') }, '400': error('validation_error naming the field'), '404': error('app_not_found or mission_not_found'), '409': error('conflict: the mission changed since that version (reload and apply the change again)') }, { parameters: [pathParam('appId'), pathParam('missionId')], requestBody: { required: true, ...body('MissionUpdate') } }),
      },
      '/api/admin/apps/{appId}/missions/{missionId}/duplicate': {
        post: op('catalog.write', 'Copy a mission under a new id (default "<id>-copy"), not archived; audited', { '201': { description: 'The copy', ...body('MissionRecord') }, '400': error('validation_error'), '404': error('app_not_found or mission_not_found'), '409': error('conflict: the id exists') }, { parameters: [pathParam('appId'), pathParam('missionId')], requestBody: { required: false, ...body('MissionDuplicate') } }),
      },
      '/api/admin/apps/{appId}/missions/{missionId}/archive': {
        post: op('catalog.write', 'Archive a mission: events stop counting for it and /v1 stops listing it; a completed record stays claimable; audited', { '200': { description: 'Archived', ...body('MissionRecord') }, '404': error('app_not_found or mission_not_found'), '409': error('conflict: stale version') }, { parameters: [pathParam('appId'), pathParam('missionId')], requestBody: { required: false, ...body('MissionArchive') } }),
      },
      '/api/admin/apps/{appId}/missions/{missionId}/unarchive': {
        post: op('catalog.write', 'Bring an archived mission back; audited', { '200': { description: 'Live again', ...body('MissionRecord') }, '404': error('app_not_found or mission_not_found'), '409': error('conflict: stale version') }, { parameters: [pathParam('appId'), pathParam('missionId')], requestBody: { required: false, ...body('MissionArchive') } }),
      },
      '/api/admin/apps/{appId}/event-names': {
        get: op('catalog.read', 'Event-name suggestions: distinct names of the app’s most recent events, then names its missions use', { '200': { description: 'Names', ...body('EventNameList') }, '404': error('app_not_found') }, { parameters: [pathParam('appId')] }),
      },
      '/api/admin/audit': {
        get: op('audit.read', 'The audit log, newest first, a page at a time (pass nextCursor as `before`)', { '200': { description: 'A page', ...body('AuditPage') }, '400': error('validation_error naming the query parameter') }, { parameters: queryParams(auditQuerySchema) }),
      },
      '/api/admin/openapi.json': {
        get: { summary: 'This document (no authentication)', responses: { '200': { description: 'The document', content: { 'application/json': { schema: { type: 'object' } } } } } },
      },
    },
  };
}

let cached: ReturnType<typeof buildDocument> | null = null;

export function getAdminOpenApiDocument() {
  cached ??= buildDocument();
  return cached;
}

export const adminOpenApiDocument = publicRoute(async () => json(getAdminOpenApiDocument()), { cors: false });
