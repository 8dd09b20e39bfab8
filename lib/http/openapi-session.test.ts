// A real HTTP session of a game and of its staff, every request and every
// answer checked against the OpenAPI documents the server itself serves
// (lib/testing/openapi-validator.ts, failing on the first mismatch): token,
// events (and an idempotent replay), missions, claim, balance, campaigns,
// recommendations, the stream, the webhook, revocation, the admin API's calls,
// and the errors (a malformed path escape, a bad include or currency, 401,
// 403, 404, 409, 413, 422, 429).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenApiValidator, validatingFetch, type CheckedInit, type OpenApiDocument } from '@/lib/testing/openapi-validator';
import { startTestServer, uniqueId, type TestServer } from '@/lib/testing/test-server';
import { campaign, mission, themePreset } from '@/lib/testing/fixtures';
import { signedInStaff } from '@/lib/testing/staff';
import { sign } from '@/lib/testing/webhook';
import { startReceiver } from '@/lib/testing/receiver';

let server: TestServer;
let v1: OpenApiValidator;
let adminDoc: OpenApiValidator;
let call: ReturnType<typeof validatingFetch>;

const appId = uniqueId('oa');
let appSecret = '';
let webhookSecret = '';
let token = '';
const userId = 'player-42';
const bearer = () => ({ Authorization: `Bearer ${token}` });
const admin = (init: Omit<CheckedInit, 'headers'> & { headers?: Record<string, string> } = {}) => ({ ...init, headers: { Authorization: `Bearer ${server.adminKey}`, ...init.headers } });
const base = () => `/api/admin/apps/${appId}`;

beforeAll(async () => {
  server = await startTestServer();
  // The documents as the server answers them (fetched outside the validators: they describe themselves).
  const docs = await Promise.all(['/v1/openapi.json', '/api/admin/openapi.json'].map(async (p) => (await fetch(server.url + p)).json() as Promise<OpenApiDocument>));
  v1 = new OpenApiValidator(docs[0]);
  adminDoc = new OpenApiValidator(docs[1]);
  call = validatingFetch(server.url, [v1, adminDoc]);
});
afterAll(async () => {
  await server?.close();
});

describe('a real session conforms to the OpenAPI documents', () => {
  it('the documents themselves', async () => {
    expect((await call('GET', '/v1/openapi.json')).status).toBe(200);
    expect((await call('GET', '/api/admin/openapi.json')).status).toBe(200);
  });

  it('admin: an app, its catalog, themes, campaigns and missions', async () => {
    const me = await call('GET', '/api/admin/me', admin());
    expect(me.status).toBe(200);
    const created = await call('POST', '/api/admin/apps', admin({ body: { id: appId, name: 'OpenAPI session' } }));
    expect(created.status).toBe(201);
    ({ appSecret, webhookSecret } = created.json<{ appSecret: string; webhookSecret: string }>());
    expect((await call('GET', '/api/admin/apps', admin())).status).toBe(200);

    const now = Date.now();
    const catalog = {
      themes: [themePreset('winter')],
      campaigns: [campaign('fest', { themeId: 'winter' }), campaign('later', { startAt: now + 86_400_000, endAt: now + 2 * 86_400_000 })],
      missions: [
        mission('win', { campaignId: 'fest', criteria: { eventName: 'match_won', count: 1, filter: { mode: 'ranked' } }, reward: { kind: 'currency', currency: 'gems', amount: 50 } }),
        mission('daily', { criteria: { eventName: 'match_won', count: 3, window: 'daily' }, reward: { kind: 'item', itemId: 'sword', quantity: 1 } }),
        mission('after-win', { prerequisites: ['win'], criteria: { eventName: 'x', count: 1 } }),
      ],
    };
    expect((await call('PUT', `${base()}/catalog`, admin({ body: catalog }))).status).toBe(200);
    expect((await call('GET', `${base()}/catalog`, admin())).status).toBe(200);

    // Drafts and releases: write, read, schedule and cancel, publish, list, restore, discard.
    expect((await call('GET', `${base()}/draft`, admin())).status).toBe(404);
    expect((await call('PUT', `${base()}/draft`, admin({ body: catalog }))).status).toBe(200);
    expect((await call('GET', `${base()}/draft`, admin())).status).toBe(200);
    expect((await call('POST', `${base()}/draft/impact`, admin({ body: { days: 7 } }))).status).toBe(200);
    expect((await call('POST', `${base()}/draft/preview`, admin({ body: { userId: 'openapi-session-player' } }))).status).toBe(200);
    // One item at a time (the console's editors): put, revert and remove a theme, a campaign and a mission; a live mission's progress counts.
    expect((await call('PUT', `${base()}/draft/themes/spring`, admin({ body: themePreset('spring') }))).status).toBe(200);
    expect((await call('PUT', `${base()}/draft/campaigns/side`, admin({ body: campaign('side') }))).status).toBe(200);
    expect((await call('PUT', `${base()}/draft/missions/extra-draft`, admin({ body: mission('extra-draft') }))).status).toBe(200);
    expect((await call('POST', `${base()}/draft/campaigns/fest/duplicate`, admin({ body: { id: 'fest-2' } }))).status).toBe(201);
    expect((await call('POST', `${base()}/draft/missions/win/revert`, admin())).status).toBe(200);
    expect((await call('POST', `${base()}/draft/campaigns/fest/revert`, admin())).status).toBe(200);
    expect((await call('POST', `${base()}/draft/themes/winter/revert`, admin())).status).toBe(200);
    expect((await call('DELETE', `${base()}/draft/missions/extra-draft`, admin())).status).toBe(200);
    expect((await call('DELETE', `${base()}/draft/campaigns/side`, admin())).status).toBe(200);
    expect((await call('DELETE', `${base()}/draft/themes/spring`, admin())).status).toBe(200);
    expect((await call('GET', `${base()}/missions/win/progress`, admin())).status).toBe(200);
    expect((await call('GET', `${base()}/event-payload-fields?name=match_won`, admin())).status).toBe(200);
    expect((await call('POST', `${base()}/draft/publish`, admin({ body: { at: Date.now() + 3_600_000 } }))).status).toBe(202);
    expect((await call('DELETE', `${base()}/draft/publish`, admin())).status).toBe(200);
    expect((await call('POST', `${base()}/draft/publish`, admin({ body: {} }))).status).toBe(200);
    expect((await call('GET', `${base()}/releases`, admin())).status).toBe(200);
    expect((await call('POST', `${base()}/releases/1/restore`, admin())).status).toBe(200);
    expect((await call('DELETE', `${base()}/draft`, admin())).status).toBe(204);
    // The economy: the app's currencies and items, and a draft's sections (discarded: nothing published).
    expect((await call('GET', `${base()}/economy`, admin())).status).toBe(200);
    const economy = { currencies: [{ id: 'gems', name: 'Gems', maxBalance: 100_000 }], items: [{ id: 'sword', name: 'Sword', kind: 'item' }] };
    expect((await call('PUT', `${base()}/draft/economy`, admin({ body: economy }))).status).toBe(200);
    expect((await call('DELETE', `${base()}/draft`, admin())).status).toBe(204);

    expect((await call('GET', `${base()}/themes`, admin())).status).toBe(200);
    expect((await call('POST', `${base()}/themes`, admin({ body: themePreset('spring') }))).status).toBe(201);
    const theme = await call('GET', `${base()}/themes/spring`, admin());
    const { version: themeVersion } = theme.json<{ theme: { version: number } }>().theme;
    expect((await call('PUT', `${base()}/themes/spring`, admin({ body: { ...themePreset('spring'), primaryColor: '#04a5e5', version: themeVersion } }))).status).toBe(200);
    expect((await call('PUT', `${base()}/themes/spring`, admin({ body: { ...themePreset('spring'), version: themeVersion } }))).status).toBe(409);
    expect((await call('DELETE', `${base()}/themes/spring`, admin())).status).toBe(204);

    expect((await call('GET', `${base()}/campaigns`, admin())).status).toBe(200);
    expect((await call('POST', `${base()}/campaigns`, admin({ body: campaign('side', { theme: { primaryColor: '#123456' } }) }))).status).toBe(201);
    const side = (await call('GET', `${base()}/campaigns/side`, admin())).json<{ campaign: { version: number } }>().campaign;
    expect((await call('PUT', `${base()}/campaigns/side`, admin({ body: { ...campaign('side', { title: 'Side quests' }), version: side.version } }))).status).toBe(200);
    expect((await call('DELETE', `${base()}/campaigns/side?version=${side.version + 1}`, admin())).status).toBe(204);

    expect((await call('GET', `${base()}/missions?status=live&window=daily`, admin())).status).toBe(200);
    expect((await call('POST', `${base()}/missions`, admin({ body: mission('extra') }))).status).toBe(201);
    const extra = (await call('GET', `${base()}/missions/extra`, admin())).json<{ version: number }>();
    expect((await call('PUT', `${base()}/missions/extra`, admin({ body: { ...mission('extra', { title: 'Extra' }), version: extra.version } }))).status).toBe(200);
    expect((await call('POST', `${base()}/missions/extra/duplicate`, admin({ body: { id: 'extra-2' } }))).status).toBe(201);
    expect((await call('POST', `${base()}/missions/extra-2/archive`, admin())).status).toBe(200);
    expect((await call('POST', `${base()}/missions/extra-2/unarchive`, admin({ body: {} }))).status).toBe(200);
    expect((await call('GET', `${base()}/event-names`, admin())).status).toBe(200);
    expect((await call('PATCH', base(), admin({ body: { webhookEventsPerMinute: 120_000 } }))).status).toBe(200);
  });

  it('a player: token, events (and a replay), missions, claim, balance, campaigns, recommendations, the stream, revoke', async () => {
    const issued = await call('POST', '/v1/auth/token', { body: { appId, appSecret, userId } });
    expect(issued.status).toBe(200);
    token = issued.json<{ accessToken: string }>().accessToken;

    const event = { userId, name: 'match_won', payload: { mode: 'ranked' }, timestamp: Date.now() };
    const key = randomUUID();
    const first = await call('POST', '/v1/events', { headers: { ...bearer(), 'Idempotency-Key': key }, body: event });
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-remaining')).not.toBeNull();
    const replay = await call('POST', '/v1/events', { headers: { ...bearer(), 'Idempotency-Key': key }, body: event });
    expect(replay.headers.get('x-idempotent-replay')).toBe('hit');

    expect((await call('GET', '/v1/missions', { headers: bearer() })).status).toBe(200);
    expect((await call('GET', '/v1/missions?status=completed&limit=1&include=expired', { headers: bearer() })).status).toBe(200);
    expect((await call('GET', '/v1/missions/win', { headers: bearer() })).status).toBe(200);
    const claimed = await call('POST', '/v1/missions/win/claim', { headers: { ...bearer(), 'Idempotency-Key': randomUUID() } });
    expect(claimed.status).toBe(200);
    expect((await call('GET', '/v1/balance', { headers: bearer() })).status).toBe(200);
    expect((await call('GET', '/v1/balance?currency=gems', { headers: bearer() })).status).toBe(200);
    // The game backend spends (app secret), then asks for more than is left, and a player's token is refused.
    const backend = { Authorization: `Basic ${Buffer.from(`${appId}:${appSecret}`).toString('base64')}` };
    expect((await call('POST', '/v1/balance/spend', { headers: { ...backend, 'Idempotency-Key': randomUUID() }, body: { userId, currency: 'gems', amount: 1, reason: 'shop' } })).status).toBe(200);
    expect((await call('POST', '/v1/balance/spend', { headers: { ...backend, 'Idempotency-Key': randomUUID() }, body: { userId, currency: 'gems', amount: 1_000_000 } })).status).toBe(409);
    expect((await call('POST', '/v1/balance/spend', { headers: { ...bearer(), 'Idempotency-Key': randomUUID() }, body: { userId, currency: 'gems', amount: 1 } })).status).toBe(401);
    expect((await call('GET', '/v1/campaigns', { headers: bearer() })).status).toBe(200);
    expect((await call('GET', '/v1/campaigns?include=expired', { headers: bearer() })).status).toBe(200);
    expect((await call('GET', '/v1/campaigns/fest?include=missions', { headers: bearer() })).status).toBe(200);
    expect((await call('GET', '/v1/recommendations?limit=2', { headers: bearer() })).status).toBe(200);

    // The stream from the start of the log: its first data frame is checked against SDKUpdate.
    const stream = await call('GET', '/v1/sse/updates', { headers: { ...bearer(), 'Last-Event-ID': '0-0' }, stream: true });
    expect(stream.status).toBe(200);
    expect(stream.text).toMatch(/^data: /m);
    const byQuery = await call('GET', `/v1/sse/updates?access_token=${encodeURIComponent(token)}&lastEventId=0-0`, { stream: true });
    expect(byQuery.status).toBe(200);
    // HEAD: the stream's status and headers, no body.
    const probe = await call('HEAD', '/v1/sse/updates', { headers: bearer() });
    expect(probe.status).toBe(200);
    expect(probe.headers.get('content-type')).toBe('text/event-stream');
    expect(probe.text).toBe('');
    expect((await call('HEAD', '/v1/sse/updates')).status).toBe(401);
  });

  it('the signed webhook', async () => {
    const body = JSON.stringify({ events: [{ userId, name: 'match_won', payload: { mode: 'casual' }, timestamp: Date.now() }] });
    const timestamp = String(Date.now());
    const headers = { 'X-App-Id': appId, 'X-Webhook-Id': randomUUID(), 'X-Webhook-Timestamp': timestamp, 'X-Webhook-Signature': sign(webhookSecret, timestamp, body) };
    expect((await call('POST', '/v1/webhook/incoming', { headers, body })).status).toBe(200);
    const replay = await call('POST', '/v1/webhook/incoming', { headers, body });
    expect(replay.headers.get('x-idempotent-replay')).not.toBeNull();
    expect((await call('POST', '/v1/webhook/incoming', { headers: { ...headers, 'X-Webhook-Id': randomUUID(), 'X-Webhook-Signature': `v1=${'0'.repeat(64)}` }, body })).status).toBe(401);
  });

  it('outbound webhooks: an endpoint, a notification to a real receiver, its delivery log, a redelivery, the deletion', async () => {
    const receiver = await startReceiver();
    const saved = process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE;
    process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE = '1';
    try {
      const created = await call('POST', `${base()}/endpoints`, admin({ body: { url: receiver.url, events: ['balance.changed'] } }));
      expect(created.status).toBe(201);
      const endpointId = created.json<{ id: string }>().id;
      expect((await call('GET', `${base()}/endpoints`, admin())).status).toBe(200);
      const grant = await call('POST', `${base()}/users/${userId}/grants`, admin({ body: { currency: 'gems', amount: 1, reason: 'OpenAPI session' } }));
      expect(grant.status).toBe(200);
      await receiver.until((r) => r.length >= 1, 15_000, 'the notification');
      const log = await call('GET', `${base()}/endpoints/${endpointId}/deliveries`, admin());
      expect(log.status).toBe(200);
      const [delivery] = log.json<{ deliveries: Array<{ id: string }> }>().deliveries;
      expect((await call('POST', `${base()}/endpoints/${endpointId}/deliveries/${delivery.id}/redeliver`, admin())).status).toBe(202);
      expect((await call('DELETE', `${base()}/endpoints/${endpointId}`, admin())).status).toBe(204);
    } finally {
      if (saved === undefined) delete process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE;
      else process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE = saved;
      await receiver.close();
    }
  });

  it('support: inspect the player, a test event, its stream, the audit log, analytics, a revocation', async () => {
    expect((await call('GET', `${base()}/users/${userId}`, admin())).status).toBe(200);
    expect((await call('GET', `${base()}/users/${userId}/events?limit=5&name=match_won`, admin())).status).toBe(200);
    expect((await call('POST', `${base()}/users/${userId}/events`, admin({ body: { name: 'match_won', payload: { mode: 'ranked' } } }))).status).toBe(200);
    const updates = await call('GET', `${base()}/users/${userId}/updates`, admin({ headers: { 'Last-Event-ID': '0-0' }, stream: true }));
    expect(updates.status).toBe(200);
    expect((await call('GET', `/api/admin/audit?appId=${appId}&limit=5`, admin())).status).toBe(200);
    const now = Date.now();
    expect((await call('GET', `${base()}/analytics?from=${now - 3_600_000}&to=${now}`, admin())).status).toBe(200);
    expect((await call('POST', `${base()}/revocations`, admin({ body: { userId: 'someone-else' } }))).status).toBe(200);
    // A copy of the embedded database (a gzipped tar); on PostgreSQL the route says to use pg_dump.
    expect((await call('GET', '/api/admin/backup', admin())).status).toBe(process.env.DATABASE_URL ? 409 : 200);
  });

  it('the support desk: find, grant and correct, reset, complete, notes, dry run, export, erase', async () => {
    expect((await call('GET', `${base()}/users?query=player-`, admin())).status).toBe(200);
    const grant = (body: unknown, key: string) => call('POST', `${base()}/users/${userId}/grants`, admin({ headers: { 'Idempotency-Key': key }, body }));
    expect((await grant({ currency: 'gold', amount: 50, reason: 'Ticket 1: a lost win' }, randomUUID())).status).toBe(200);
    expect((await grant({ currency: 'gold', amount: -500, reason: 'Ticket 2: too much' }, randomUUID())).status).toBe(409);
    const reason = { reason: 'Ticket 3: the ranked win was lost' };
    expect((await call('POST', `${base()}/users/${userId}/missions/daily/reset`, admin({ headers: { 'Idempotency-Key': randomUUID() }, body: reason }))).status).toBe(200);
    expect((await call('POST', `${base()}/users/${userId}/missions/daily/complete`, admin({ headers: { 'Idempotency-Key': randomUUID() }, body: reason }))).status).toBe(200);
    expect((await call('POST', `${base()}/users/${userId}/notes`, admin({ body: { text: 'Granted 50 gold for ticket 1.' } }))).status).toBe(200);
    expect((await call('GET', `${base()}/users/${userId}/notes`, admin())).status).toBe(200);
    expect((await call('POST', `${base()}/users/${userId}/events?dryRun=1`, admin({ body: { name: 'match_won', payload: { mode: 'casual' } } }))).status).toBe(200);
    expect((await call('GET', `${base()}/users/${userId}/export`, admin())).status).toBe(200);
    expect((await call('DELETE', `${base()}/users/erase-me`, admin({ body: { reason: 'Data-erasure request 77' } }))).status).toBe(200);
  });

  it('staff accounts, and a role that lacks a capability (403)', async () => {
    expect((await call('GET', '/api/admin/staff', admin())).status).toBe(200);
    const created = await call('POST', '/api/admin/staff', admin({ body: { email: `${uniqueId('oa')}@example.test`.toLowerCase(), name: 'Dana', role: 'editor' } }));
    expect(created.status).toBe(201);
    const { id } = created.json<{ staff: { id: string } }>().staff;
    expect((await call('PATCH', `/api/admin/staff/${id}`, admin({ body: { role: 'support' } }))).status).toBe(200);
    expect((await call('DELETE', `/api/admin/staff/${id}`, admin())).status).toBe(204);
    const support = await signedInStaff(server, 'support');
    const refused = await call('POST', `${base()}/missions`, { headers: { Cookie: support.cookie, Origin: server.url }, body: mission('nope') });
    expect(refused.status).toBe(403);
  });

  it('the two-person rule: ask, self-approval refused (403), withdraw, reject, approve', async () => {
    const other = uniqueId('oa');
    expect((await call('POST', '/api/admin/apps', admin({ body: { id: other, name: 'Approval session' } }))).status).toBe(201);
    const at = `/api/admin/apps/${other}`;
    expect((await call('PATCH', at, admin({ body: { requireApproval: true } }))).status).toBe(200);
    const editor = await signedInStaff(server, 'editor');
    const asEditor = (body?: unknown) => ({ headers: { Cookie: editor.cookie, Origin: server.url }, ...(body === undefined ? {} : { body }) });
    expect((await call('PUT', `${at}/draft`, asEditor({ missions: [mission('one')], campaigns: [] }))).status).toBe(200);
    expect((await call('POST', `${at}/draft/publish`, asEditor({}))).status).toBe(202);
    expect((await call('GET', `${at}/draft`, admin())).status).toBe(200);
    expect((await call('POST', `${at}/draft/publish`, asEditor({}))).status).toBe(409);
    expect((await call('POST', `${at}/draft/approve`, asEditor({}))).status).toBe(403);
    expect((await call('POST', `${at}/draft/withdraw`, admin())).status).toBe(403);
    expect((await call('POST', `${at}/draft/withdraw`, asEditor())).status).toBe(200);
    expect((await call('POST', `${at}/draft/publish`, asEditor({}))).status).toBe(202);
    expect((await call('POST', `${at}/draft/reject`, admin({ body: { reason: 'Not before the patch' } }))).status).toBe(200);
    expect((await call('POST', `${at}/draft/reject`, admin({ body: { reason: 'again' } }))).status).toBe(409);
    expect((await call('POST', `${at}/draft/publish`, asEditor({}))).status).toBe(202);
    expect((await call('POST', `${at}/draft/approve`, admin({ body: {} }))).status).toBe(200);
  });

  it('errors: malformed path escape, bad include and currency, 401, 404, 409, 413, 422, 429', async () => {
    const expectStatus = async (status: number, method: string, target: string, init: CheckedInit = {}) => {
      const res = await call(method, target, init);
      expect(res.status, `${method} ${target}: ${res.text}`).toBe(status);
      return res;
    };
    await expectStatus(400, 'GET', '/v1/missions/%ff', { headers: bearer(), invalid: true });
    await expectStatus(400, 'GET', '/v1/campaigns?include=everything', { headers: bearer(), invalid: true });
    await expectStatus(400, 'GET', '/v1/campaigns/fest?include=all', { headers: bearer(), invalid: true });
    await expectStatus(400, 'GET', '/v1/balance?currency=', { headers: bearer(), invalid: true });
    await expectStatus(400, 'POST', '/v1/events', { headers: bearer(), body: { userId, name: 'x' }, invalid: true });
    await expectStatus(400, 'GET', `${base()}/missions/%C0%AF`, admin({ invalid: true }));
    await expectStatus(401, 'GET', '/v1/balance');
    await expectStatus(401, 'POST', '/v1/auth/token', { body: { appId, appSecret: 'wrong', userId } });
    await expectStatus(401, 'GET', '/api/admin/apps');
    await expectStatus(403, 'POST', '/v1/events', { headers: bearer(), body: { userId: 'someone-else', name: 'x', payload: {}, timestamp: Date.now() } });
    await expectStatus(404, 'GET', '/v1/missions/nope', { headers: bearer() });
    await expectStatus(404, 'GET', '/v1/balance?currency=coins', { headers: bearer() });
    await expectStatus(404, 'GET', '/v1/campaigns/nope', { headers: bearer() });
    await expectStatus(404, 'GET', '/api/admin/apps/no-such-app/catalog', admin());
    await expectStatus(409, 'POST', '/v1/missions/after-win/claim', { headers: bearer() });
    await expectStatus(409, 'POST', '/api/admin/apps', admin({ body: { id: appId, name: 'again' } }));
    const big = { userId, name: 'x', payload: { blob: 'x'.repeat(70_000) }, timestamp: Date.now() };
    await expectStatus(413, 'POST', '/v1/events', { headers: bearer(), body: big });
    const bigCatalog = { missions: Array.from({ length: 40 }, (_, i) => mission(`big-${i}`, { description: 'x'.repeat(2000) })), campaigns: [] };
    await expectStatus(413, 'PUT', `${base()}/catalog`, admin({ body: bigCatalog }));
    const key = randomUUID();
    await expectStatus(200, 'POST', '/v1/events', { headers: { ...bearer(), 'Idempotency-Key': key }, body: { userId, name: 'a', payload: {}, timestamp: Date.now() } });
    await expectStatus(422, 'POST', '/v1/events', { headers: { ...bearer(), 'Idempotency-Key': key }, body: { userId, name: 'b', payload: {}, timestamp: Date.now() } });
    // The recommendations limiter (20 a minute per token): the 429 carries Retry-After and the RateLimit-* headers.
    let limited = null;
    for (let i = 0; i < 25 && !limited; i++) {
      const res = await call('GET', '/v1/recommendations', { headers: bearer() });
      if (res.status === 429) limited = res;
    }
    expect(limited?.headers.get('retry-after')).toMatch(/^\d+$/);
    // Wrong secrets for the app (10 a minute): then 429.
    let refused = null;
    for (let i = 0; i < 12 && !refused; i++) {
      const res = await call('POST', '/v1/auth/token', { body: { appId, appSecret: 'wrong', userId } });
      if (res.status === 429) refused = res;
    }
    expect(refused?.json()).toMatchObject({ error: 'rate_limited' });
  });

  it('revoke, then rotate the secrets (last: they end the session)', async () => {
    expect((await call('POST', `${base()}/rotate-webhook-secret`, admin({ body: { gracePeriodSeconds: 0 } }))).status).toBe(200);
    expect((await call('POST', '/v1/auth/revoke', { headers: bearer() })).status).toBe(200);
    expect((await call('GET', '/v1/missions', { headers: bearer() })).status).toBe(401);
    expect((await call('POST', `${base()}/rotate-secret`, admin())).status).toBe(200);
  });

  it('the validator is not vacuous: it refuses a wrong body, an undocumented status, header or parameter', () => {
    const url = new URL(`${server.url}/v1/missions/win/claim`);
    const json = (extra: Record<string, string> = {}) => new Headers({ 'content-type': 'application/json', 'x-request-id': 'r1', ...extra });
    const progress = { userId, missionId: 'win', status: 'claimed', progress: 1, currentCount: 1, targetCount: 1, updatedAt: 1 };
    const ok = JSON.stringify({ progress, balance: null, reward: { kind: 'badge', badgeId: 'b' }, rewards: [{ kind: 'badge', badgeId: 'b' }], balances: [] });
    expect(() => v1.checkResponse('POST', url, 200, json(), ok)).not.toThrow();
    expect(() => v1.checkResponse('POST', url, 200, json(), ok.replace('"claimed"', '"done"'))).toThrow(/body/);
    expect(() => v1.checkResponse('POST', url, 201, json(), ok)).toThrow(/status not documented/);
    expect(() => v1.checkResponse('POST', url, 200, json({ 'retry-after': '3' }), ok)).toThrow(/retry-after is sent but not documented/);
    expect(() => v1.checkResponse('POST', url, 200, new Headers({ 'content-type': 'application/json' }), ok)).toThrow(/x-request-id is required/);
    expect(() => v1.checkResponse('POST', url, 200, json({ 'content-type': 'text/plain' }), 'ok')).toThrow(/media type/);
    expect(v1.requestProblems('GET', new URL(`${server.url}/v1/missions?limit=0`), new Headers(), undefined).problems).not.toEqual([]);
    expect(v1.requestProblems('GET', new URL(`${server.url}/v1/missions?sort=id`), new Headers(), undefined).problems).toEqual(['query parameter sort is not documented']);
  });

  it('checked an answer of every documented operation', () => {
    const missing = (v: OpenApiValidator, doc: 'v1' | 'admin') =>
      v
        .operationIds()
        .filter((id) => !v.answered.has(id))
        .map((id) => `${doc} ${id}`);
    expect([...missing(v1, 'v1'), ...missing(adminDoc, 'admin')]).toEqual([]);
  });
});
