// Themes and campaigns one at a time over real HTTP: create, list, update
// with the version read (a stale one is 409 conflict and changes
// nothing), delete with its guards, the audit log, roles, /v1 answering the
// resolved theme at once, and the catalog document carrying `themes`.
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { auditLog } from '@/db/schema';
import type { CampaignRecord, ThemeRecord } from '@/lib/contract/catalog-admin';
import { createTestApp, putCatalog, startTestServer, uniqueId, type TestServer } from '@/lib/testing/test-server';
import { adminCall, signedInStaff, type AdminAnswer, type TestStaff } from '@/lib/testing/staff';
import { campaign, DAY, mission, newUser, themePreset } from '@/lib/testing/fixtures';

let server: TestServer;
let editor: TestStaff;
let support: TestStaff;
beforeAll(async () => {
  server = await startTestServer();
  editor = await signedInStaff(server, 'editor');
  support = await signedInStaff(server, 'support');
});
afterAll(async () => {
  await server?.close();
});

type Answer<T = Record<string, unknown>> = AdminAnswer<T>;

function call<T = Record<string, unknown>>(method: string, route: string, body?: unknown, who: TestStaff | 'key' = 'key'): Promise<Answer<T>> {
  return adminCall<T>(server, method, route, body, who);
}

async function auditOf(appId: string, target: string) {
  const db = await getDb();
  return db.select().from(auditLog).where(and(eq(auditLog.appId, appId), eq(auditLog.target, target))).orderBy(asc(auditLog.id));
}

const themesOf = (appId: string) => `/api/admin/apps/${appId}/themes`;
const campaignsOf = (appId: string) => `/api/admin/apps/${appId}/campaigns`;

describe('themes', () => {
  it('create answers 201 with version 1; list and get answer it with the campaigns using it', async () => {
    const app = await createTestApp(server);
    const created = await call<{ theme: ThemeRecord }>('POST', themesOf(app.appId), themePreset('night'), editor);
    expect(created.status).toBe(201);
    expect(created.body.theme).toMatchObject({ id: 'night', name: 'Theme night', primaryColor: '#7c3aed', version: 1, usedBy: [] });

    await call('POST', campaignsOf(app.appId), campaign('c1', { themeId: 'night' }));
    const list = await call<{ themes: ThemeRecord[] }>('GET', themesOf(app.appId), undefined, support);
    expect(list.status).toBe(200);
    expect(list.body.themes).toEqual([expect.objectContaining({ id: 'night', usedBy: ['c1'] })]);
    const one = await call<{ theme: ThemeRecord }>('GET', `${themesOf(app.appId)}/night`);
    expect(one.body.theme.usedBy).toEqual(['c1']);
    expect((await call('GET', `${themesOf(app.appId)}/ghost`)).status).toBe(404);
  });

  it('refuses a bad colour (400 naming the field) and an existing id (409 conflict)', async () => {
    const app = await createTestApp(server);
    const bad = await call<{ error: string; message: string }>('POST', themesOf(app.appId), themePreset('t', { primaryColor: 'purple' }));
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('validation_error');
    expect(bad.body.message).toMatch(/^primaryColor: /);
    expect((await call('POST', themesOf(app.appId), themePreset('t'))).status).toBe(201);
    const again = await call<{ error: string }>('POST', themesOf(app.appId), themePreset('t'));
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('conflict');
    expect((await call('POST', themesOf(uniqueId('ghost')), themePreset('t'))).body).toMatchObject({ error: 'app_not_found' });
  });

  it('an update with the version read answers the next version; a stale one is 409 conflict and changes nothing', async () => {
    const app = await createTestApp(server);
    await call('POST', themesOf(app.appId), themePreset('t'));
    const first = await call<{ theme: ThemeRecord }>('PUT', `${themesOf(app.appId)}/t`, { ...themePreset('t', { name: 'Dusk' }), version: 1 }, editor);
    expect(first.status).toBe(200);
    expect(first.body.theme).toMatchObject({ name: 'Dusk', version: 2 });

    // A second editor still holding version 1.
    const stale = await call<{ error: string; message: string }>('PUT', `${themesOf(app.appId)}/t`, { ...themePreset('t', { name: 'Lost' }), version: 1 }, editor);
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe('conflict');
    expect(stale.body.message).toContain('version 2');
    expect((await call<{ theme: ThemeRecord }>('GET', `${themesOf(app.appId)}/t`)).body.theme).toMatchObject({ name: 'Dusk', version: 2 });

    // Optional colours left out are cleared (the body is the whole preset).
    const cleared = await call<{ theme: ThemeRecord }>('PUT', `${themesOf(app.appId)}/t`, { id: 't', name: 'Dusk', primaryColor: '#000', version: 2 });
    expect(cleared.body.theme).not.toHaveProperty('accentColor');
    expect((await call('PUT', `${themesOf(app.appId)}/t`, { id: 'other', name: 'x', primaryColor: '#000', version: 3 })).status).toBe(400);
    expect((await call('PUT', `${themesOf(app.appId)}/t`, { name: 'x', primaryColor: '#000' })).status).toBe(400);
  });

  it('an unchanged save is a no-op: the preset as it is, same version, no audit row', async () => {
    const app = await createTestApp(server);
    const created = (await call<{ theme: ThemeRecord }>('POST', themesOf(app.appId), themePreset('t', { textColor: undefined }), editor)).body.theme;
    const { createdAt: _c, updatedAt: _u, usedBy: _b, ...fields } = created;
    const same = await call<{ theme: ThemeRecord }>('PUT', `${themesOf(app.appId)}/t`, fields, editor);
    expect(same.status).toBe(200);
    expect(same.body.theme).toEqual(created);
    expect((await auditOf(app.appId, 'theme:t')).map((r) => r.action)).toEqual(['theme.create']);
    const changed = await call<{ theme: ThemeRecord }>('PUT', `${themesOf(app.appId)}/t`, { ...fields, textColor: '#fff' }, editor);
    expect(changed.body.theme).toMatchObject({ textColor: '#fff', version: 2 });
    expect((await auditOf(app.appId, 'theme:t')).map((r) => r.action)).toEqual(['theme.create', 'theme.update']);
  });

  it('delete refuses a preset in use (409 conflict naming the campaign) and a stale version, then deletes', async () => {
    const app = await createTestApp(server);
    await call('POST', themesOf(app.appId), themePreset('t'));
    await call('POST', campaignsOf(app.appId), campaign('uses-it', { themeId: 't' }));
    const inUse = await call<{ error: string; message: string }>('DELETE', `${themesOf(app.appId)}/t?version=1`);
    expect(inUse.status).toBe(409);
    expect(inUse.body).toMatchObject({ error: 'conflict', message: expect.stringContaining('"uses-it"') });

    const c = (await call<{ campaign: CampaignRecord }>('GET', `${campaignsOf(app.appId)}/uses-it`)).body.campaign;
    await call('PUT', `${campaignsOf(app.appId)}/uses-it`, { ...c, themeId: undefined, theme: { primaryColor: '#123456' } });
    expect((await call('DELETE', `${themesOf(app.appId)}/t?version=7`)).body).toMatchObject({ error: 'conflict', message: expect.stringContaining('at version 1, not 7') });
    expect((await call('DELETE', `${themesOf(app.appId)}/t?version=abc`)).status).toBe(400);
    expect((await call('DELETE', `${themesOf(app.appId)}/t?version=1`, undefined, editor)).status).toBe(204);
    expect((await call('GET', `${themesOf(app.appId)}/t`)).status).toBe(404);
    expect((await call('DELETE', `${themesOf(app.appId)}/t`)).status).toBe(404);
  });

  it('records every write in the audit log with who, before and after', async () => {
    const app = await createTestApp(server);
    await call('POST', themesOf(app.appId), themePreset('t'), editor);
    await call('PUT', `${themesOf(app.appId)}/t`, { ...themePreset('t', { primaryColor: '#ff0000' }), version: 1 }, editor);
    await call('DELETE', `${themesOf(app.appId)}/t`, undefined, editor);
    const rows = await auditOf(app.appId, 'theme:t');
    expect(rows.map((r) => [r.action, r.actor])).toEqual([
      ['theme.create', `staff:${editor.email}`],
      ['theme.update', `staff:${editor.email}`],
      ['theme.delete', `staff:${editor.email}`],
    ]);
    expect(rows[0].before).toBeNull();
    expect(rows[1].before).toMatchObject({ primaryColor: '#7c3aed', version: 1 });
    expect(rows[1].after).toMatchObject({ primaryColor: '#ff0000', version: 2 });
    expect(rows[2].before).toMatchObject({ version: 2 });
    expect(rows[2].after).toBeNull();
  });

  it('support reads but cannot write (403 forbidden, nothing written)', async () => {
    const app = await createTestApp(server);
    await call('POST', themesOf(app.appId), themePreset('t'));
    expect((await call('GET', themesOf(app.appId), undefined, support)).status).toBe(200);
    for (const [method, route, body] of [
      ['POST', themesOf(app.appId), themePreset('t2')],
      ['PUT', `${themesOf(app.appId)}/t`, { ...themePreset('t', { name: 'x' }), version: 1 }],
      ['DELETE', `${themesOf(app.appId)}/t`, undefined],
      ['POST', campaignsOf(app.appId), campaign('c')],
    ] as const) {
      const res = await call<{ error: string }>(method, route, body, support);
      expect(res.status, `${method} ${route}`).toBe(403);
      expect(res.body.error).toBe('forbidden');
    }
    expect((await call<{ theme: ThemeRecord }>('GET', `${themesOf(app.appId)}/t`)).body.theme).toMatchObject({ name: 'Theme t', version: 1 });
  });
});

describe('campaigns', () => {
  it('refuses an own theme colour that is not a CSS colour (API and catalog import, 400 naming the field), nothing stored', async () => {
    const app = await createTestApp(server);
    const attack = 'red),url(http://127.0.0.1:9/hit)/*';
    for (const theme of [{ primaryColor: attack }, { primaryColor: '#7c3aed', backgroundColor: 'url(http://x/y)' }, { primaryColor: 'rgb(1 2 calc(3))' }]) {
      const bad = await call<{ error: string; message: string }>('POST', campaignsOf(app.appId), campaign('c', { theme }), editor);
      expect(bad.status, JSON.stringify(theme)).toBe(400);
      expect(bad.body.error).toBe('validation_error');
      expect(bad.body.message).toMatch(/^theme\.(primaryColor|backgroundColor): must be a CSS colour/);
    }
    const imported = await putCatalog(server, app.appId, { missions: [], campaigns: [campaign('c', { theme: { primaryColor: attack } })] });
    expect(imported.status).toBe(400);
    expect(((await imported.json()) as { message: string }).message).toMatch(/^campaigns\[0\] \(id "c"\): theme\.primaryColor: must be a CSS colour/);
    expect((await call<{ campaigns: unknown[] }>('GET', campaignsOf(app.appId))).body.campaigns).toEqual([]);
    for (const primaryColor of ['#7c3aed', '#fff8', 'rgb(124 58 237 / 50%)', 'hsl(270, 60%, 50%)', 'oklch(0.6 0.2 300)', 'RebeccaPurple']) {
      const ok = await call('POST', campaignsOf(app.appId), campaign(uniqueId('c'), { theme: { primaryColor } }), editor);
      expect(ok.status, primaryColor).toBe(201);
    }
  });

  it('create with a preset and missions: /v1 answers the resolved theme and the missionIds, and follows a preset change at once', async () => {
    const app = await createTestApp(server, { missions: [mission('m1'), mission('m2'), mission('m3')] });
    const user = await newUser(server, app);
    // Warm this instance's catalog before the writes: the writes must invalidate it.
    expect((await user.getJson<{ campaigns: unknown[] }>('/v1/campaigns')).body.campaigns).toEqual([]);

    expect((await call('POST', themesOf(app.appId), themePreset('gold', { primaryColor: '#d4a017', textColor: undefined }), editor)).status).toBe(201);
    const created = await call<{ campaign: CampaignRecord }>('POST', campaignsOf(app.appId), campaign('spring', { themeId: 'gold', missionIds: ['m2', 'm1'] }), editor);
    expect(created.status).toBe(201);
    expect(created.body.campaign).toMatchObject({ id: 'spring', themeId: 'gold', missionIds: ['m1', 'm2'], version: 1 });
    expect(created.body.campaign).not.toHaveProperty('theme');

    const v1 = await user.getJson<{ campaigns: Record<string, unknown>[] }>('/v1/campaigns');
    expect(v1.body.campaigns).toEqual([
      expect.objectContaining({ id: 'spring', missionIds: ['m1', 'm2'], theme: { primaryColor: '#d4a017', accentColor: '#f59e0b', backgroundColor: '#0f172a' } }),
    ]);
    expect(v1.body.campaigns[0]).not.toHaveProperty('themeId');

    await call('PUT', `${themesOf(app.appId)}/gold`, { id: 'gold', name: 'Gold', primaryColor: '#ffd700', version: 1 }, editor);
    const after = await user.getJson<{ campaign: { theme: unknown } }>('/v1/campaigns/spring');
    expect(after.body.campaign.theme).toEqual({ primaryColor: '#ffd700' });
  });

  it('update reassigns missions exactly (audited per mission), and a stale version is 409 conflict', async () => {
    const app = await createTestApp(server, { campaigns: [campaign('old')], missions: [mission('m1', { campaignId: 'old' }), mission('m2'), mission('m3')] });
    const created = (await call<{ campaign: CampaignRecord }>('POST', campaignsOf(app.appId), campaign('c', { missionIds: ['m1', 'm2'] }))).body.campaign;
    expect(created.missionIds).toEqual(['m1', 'm2']);
    expect((await call<{ campaign: CampaignRecord }>('GET', `${campaignsOf(app.appId)}/old`)).body.campaign.missionIds).toEqual([]);

    const { createdAt: _c, updatedAt: _u, ...fields } = created;
    const updated = await call<{ campaign: CampaignRecord }>('PUT', `${campaignsOf(app.appId)}/c`, { ...fields, title: 'Renamed', missionIds: ['m3', 'm2'] }, editor);
    expect(updated.status).toBe(200);
    expect(updated.body.campaign).toMatchObject({ title: 'Renamed', missionIds: ['m2', 'm3'], version: 2 });

    const stale = await call<{ error: string }>('PUT', `${campaignsOf(app.appId)}/c`, { ...fields, title: 'Lost', version: 1 }, editor);
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe('conflict');
    expect((await call<{ campaign: CampaignRecord }>('GET', `${campaignsOf(app.appId)}/c`)).body.campaign).toMatchObject({ title: 'Renamed', version: 2 });

    const m1 = (await auditOf(app.appId, 'mission:m1')).filter((r) => r.action === 'mission.update');
    expect(m1.map((r) => [r.action, (r.before as { campaignId: string | null }).campaignId, (r.after as { campaignId: string | null }).campaignId])).toEqual([
      ['mission.update', 'old', 'c'],
      ['mission.update', 'c', null],
    ]);
    const rows = await auditOf(app.appId, 'campaign:c');
    expect(rows.map((r) => r.action)).toEqual(['campaign.create', 'campaign.update']);
    expect(rows[1].before).toMatchObject({ title: 'Campaign c', missionIds: ['m1', 'm2'], version: 1 });
    expect(rows[1].after).toMatchObject({ title: 'Renamed', missionIds: ['m2', 'm3'], version: 2 });
  });

  it.each([
    ['endAt before startAt', { startAt: 2000, endAt: 1000 }, /^endAt: /],
    ['a preset and an own theme', { themeId: 't', theme: { primaryColor: '#000' } }, /^themeId: /],
    ['an unknown preset', { themeId: 'ghost' }, /themeId: "ghost"/],
    ['an unknown mission', { missionIds: ['ghost'] }, /missionIds: "ghost"/],
  ])('refuses %s with 400 validation_error naming the field, writing nothing', async (_name, overrides, message) => {
    const app = await createTestApp(server, { themes: [themePreset('t')] });
    const res = await call<{ error: string; message: string }>('POST', campaignsOf(app.appId), campaign('bad', overrides));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('validation_error');
    expect(res.body.message).toMatch(message);
    expect((await call<{ campaigns: unknown[] }>('GET', campaignsOf(app.appId))).body.campaigns).toEqual([]);
  });

  it('an unchanged save is a no-op (missions in any order, or left out): same version, no audit row for it or its missions', async () => {
    const app = await createTestApp(server, { missions: [mission('m1'), mission('m2')] });
    await call('POST', themesOf(app.appId), themePreset('t'));
    const created = (await call<{ campaign: CampaignRecord }>('POST', campaignsOf(app.appId), campaign('c', { themeId: 't', missionIds: ['m1', 'm2'] }), editor)).body.campaign;
    const auditRows = async () => [...(await auditOf(app.appId, 'campaign:c')), ...(await auditOf(app.appId, 'mission:m1')), ...(await auditOf(app.appId, 'mission:m2'))].length;
    const rowsBefore = await auditRows();
    const { createdAt: _c, updatedAt: _u, ...fields } = created;
    for (const body of [fields, { ...fields, missionIds: ['m2', 'm1'] }, { ...fields, missionIds: undefined }]) {
      const same = await call<{ campaign: CampaignRecord }>('PUT', `${campaignsOf(app.appId)}/c`, body, editor);
      expect(same.status).toBe(200);
      expect(same.body.campaign).toEqual(created);
    }
    expect(await auditRows()).toBe(rowsBefore);

    // A mission leaving is a change: the next version, audited.
    const changed = await call<{ campaign: CampaignRecord }>('PUT', `${campaignsOf(app.appId)}/c`, { ...fields, missionIds: ['m1'] }, editor);
    expect(changed.body.campaign).toMatchObject({ missionIds: ['m1'], version: 2 });
    expect(await auditRows()).toBe(rowsBefore + 2);
  });

  it('delete refuses a campaign with missions (409 conflict), then deletes it once they moved out', async () => {
    const app = await createTestApp(server, { missions: [mission('m1')] });
    const c = (await call<{ campaign: CampaignRecord }>('POST', campaignsOf(app.appId), campaign('c', { missionIds: ['m1'] }))).body.campaign;
    const refused = await call<{ error: string; message: string }>('DELETE', `${campaignsOf(app.appId)}/c?version=1`, undefined, editor);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'conflict', message: expect.stringContaining('"m1"') });
    expect((await call('PUT', `${campaignsOf(app.appId)}/c`, { ...c, missionIds: [] })).status).toBe(200);
    expect((await call('DELETE', `${campaignsOf(app.appId)}/c?version=1`)).status).toBe(409);
    expect((await call('DELETE', `${campaignsOf(app.appId)}/c?version=2`, undefined, editor)).status).toBe(204);
    expect((await call<{ error: string }>('GET', `${campaignsOf(app.appId)}/c`)).body.error).toBe('campaign_not_found');
    expect((await auditOf(app.appId, 'campaign:c')).map((r) => r.action)).toEqual(['campaign.create', 'campaign.update', 'campaign.delete']);
  });

  it('a catalog PUT moves the version too, so an edit begun before it is refused', async () => {
    const app = await createTestApp(server, { campaigns: [campaign('c')] });
    const read = (await call<{ campaign: CampaignRecord }>('GET', `${campaignsOf(app.appId)}/c`)).body.campaign;
    expect((await putCatalog(server, app.appId, { campaigns: [campaign('c', { title: 'From the pipeline' })] })).status).toBe(200);
    const { createdAt: _c, updatedAt: _u, ...fields } = read;
    expect((await call('PUT', `${campaignsOf(app.appId)}/c`, { ...fields, title: 'From the console' })).body).toMatchObject({ error: 'conflict', message: expect.stringContaining('at version 2, not 1') });
  });
});

describe('the catalog document with themes', () => {
  const now = Date.now();
  const themed = {
    themes: [themePreset('night'), themePreset('day', { primaryColor: '#fff', accentColor: undefined, backgroundColor: undefined, textColor: undefined })],
    campaigns: [campaign('c1', { themeId: 'night', startAt: now - DAY, endAt: now + DAY }), campaign('c2', { theme: { primaryColor: 'rebeccapurple', pattern: 'stars' } })],
    missions: [mission('m1', { campaignId: 'c1' })],
  };

  it('round-trips: the export carries themes and campaigns’ themeId, and putting it into another app gives the same document', async () => {
    const app = await createTestApp(server, themed);
    const exported = (await call<Record<string, unknown>>('GET', `/api/admin/apps/${app.appId}/catalog`)).body;
    expect(exported.themes).toEqual([
      { id: 'day', name: 'Theme day', primaryColor: '#fff' },
      { id: 'night', name: 'Theme night', primaryColor: '#7c3aed', accentColor: '#f59e0b', backgroundColor: '#0f172a', textColor: '#f8fafc' },
    ]);
    expect(exported.campaigns).toEqual([
      expect.objectContaining({ id: 'c1', themeId: 'night', missionIds: ['m1'] }),
      expect.objectContaining({ id: 'c2', theme: { primaryColor: 'rebeccapurple', pattern: 'stars' } }),
    ]);
    const copy = await createTestApp(server);
    const put = await putCatalog(server, copy.appId, exported);
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual(exported);
    expect((await call('GET', `/api/admin/apps/${copy.appId}/catalog`)).body).toEqual(exported);

    // /v1 answers each campaign's theme, resolved or its own.
    const user = await newUser(server, copy);
    const { body } = await user.getJson<{ campaigns: { id: string; theme: unknown }[] }>('/v1/campaigns');
    expect(body.campaigns.map((c) => [c.id, c.theme])).toEqual([
      ['c1', { primaryColor: '#7c3aed', accentColor: '#f59e0b', backgroundColor: '#0f172a', textColor: '#f8fafc' }],
      ['c2', { primaryColor: 'rebeccapurple', pattern: 'stars' }],
    ]);
  });

  it('an app without presets exports no themes field (the historical shape)', async () => {
    const app = await createTestApp(server, { campaigns: [campaign('c')] });
    expect((await call('GET', `/api/admin/apps/${app.appId}/catalog`)).body).not.toHaveProperty('themes');
  });

  it.each([
    ['a campaign naming an unknown preset', { themes: [themePreset('ok')], campaigns: [campaign('c-ok'), campaign('bad', { themeId: 'ghost' })] }, 'campaigns[1] (id "bad")'],
    ['a bad preset colour', { themes: [themePreset('ok'), themePreset('bad', { accentColor: 'orange' })] }, 'themes[1] (id "bad")'],
    ['a duplicate preset id', { themes: [themePreset('dup'), themePreset('dup')] }, 'themes[1] (id "dup")'],
    ['a campaign with a preset and an own theme', { themes: [themePreset('ok')], campaigns: [campaign('bad', { themeId: 'ok', theme: { primaryColor: '#000' } })] }, 'campaigns[0] (id "bad")'],
  ])('refuses %s as a whole: 400 naming the item, nothing written', async (_name, catalog, where) => {
    const app = await createTestApp(server, themed);
    const before = (await call('GET', `/api/admin/apps/${app.appId}/catalog`)).body;
    const res = await putCatalog(server, app.appId, { ...catalog, missions: [mission('m-extra')] });
    expect(res.status).toBe(400);
    const err = (await res.json()) as { error: string; message: string };
    expect(err.error).toBe('validation_error');
    expect(err.message).toContain(where);
    expect((await call('GET', `/api/admin/apps/${app.appId}/catalog`)).body).toEqual(before);
  });

  it('a preset a campaign names in the same document may come in the same PUT; the audit has a row per preset', async () => {
    const app = await createTestApp(server);
    const res = await putCatalog(server, app.appId, { themes: [themePreset('t')], campaigns: [campaign('c', { themeId: 't' })] });
    expect(res.status).toBe(200);
    expect((await auditOf(app.appId, 'theme:t')).map((r) => [r.action, r.actor])).toEqual([['theme.create', 'admin-api-key']]);
  });
});

describe('the admin OpenAPI document', () => {
  it('documents every method of the theme and campaign routes with its capability, and every $ref resolves', async () => {
    const doc = (await call<{ paths: Record<string, Record<string, { description: string }>>; components: { schemas: Record<string, unknown> } }>('GET', '/api/admin/openapi.json')).body;
    const { adminRoutes } = await import('@/lib/http/routes');
    for (const route of adminRoutes.filter((r) => /\/(themes|campaigns)(\/|$)/.test(r.path))) {
      const path = route.path.replace(/:([A-Za-z]+)/g, '{$1}');
      for (const [method, handler] of Object.entries(route.handlers)) {
        const op = doc.paths[path]?.[method.toLowerCase()];
        expect(op, `${method} ${path}`).toBeDefined();
        expect(op.description).toContain((handler as unknown as { capability: string }).capability);
      }
    }
    const refs = [...JSON.stringify(doc).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    for (const ref of refs) expect(doc.components.schemas, ref).toHaveProperty(ref);
  });
});
