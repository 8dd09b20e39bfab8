// The admin API over real HTTP: its authentication, app creation with secrets
// shown once, the catalog PUT validated as a whole, export, the audit log, and
// the event path seeing catalog changes at once.
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { auditLog } from '@/db/schema';
import { createTestApp, issueToken, putCatalog, startTestServer, uniqueId, type TestServer } from '@/lib/testing/test-server';
import type { CatalogInput } from '@/lib/testing/types';
import { campaign, mission, newUser } from '@/lib/testing/fixtures';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

function admin(method: string, route: string, body?: unknown, key: string | null = server.adminKey): Promise<Response> {
  return fetch(server.url + route, {
    method,
    headers: { ...(key === null ? {} : { Authorization: `Bearer ${key}` }), 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function auditRows(appId: string) {
  const db = await getDb();
  return db.select().from(auditLog).where(eq(auditLog.appId, appId)).orderBy(asc(auditLog.id));
}

async function exportOf(appId: string): Promise<unknown> {
  const res = await admin('GET', `/api/admin/apps/${appId}/catalog`);
  expect(res.status).toBe(200);
  return res.json();
}

describe('admin authentication', () => {
  it('answers 401 unauthorized without a key, with a wrong key and with an app JWT', async () => {
    const app = await createTestApp(server);
    const jwt = await issueToken(server, app, 'u1');
    for (const key of [null, 'wrong-key-0123456789abcdef', jwt]) {
      for (const [method, route, body] of [
        ['GET', '/api/admin/apps', undefined],
        ['POST', '/api/admin/apps', { id: uniqueId('app'), name: 'x' }],
        ['GET', `/api/admin/apps/${app.appId}/catalog`, undefined],
        ['PUT', `/api/admin/apps/${app.appId}/catalog`, { missions: [mission('sneaky')] }],
      ] as const) {
        const res = await admin(method, route, body, key);
        expect(res.status, `${method} ${route} with ${key === null ? 'no key' : key === jwt ? 'a JWT' : 'a wrong key'}`).toBe(401);
        expect(((await res.json()) as { error: string }).error).toBe('unauthorized');
      }
    }
    expect(((await exportOf(app.appId)) as { missions: unknown[] }).missions).toEqual([]);
  });

  it('sends no CORS headers on admin routes', async () => {
    const res = await fetch(`${server.url}/api/admin/apps`, { headers: { Authorization: `Bearer ${server.adminKey}`, Origin: 'https://evil.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });
});

describe('POST /api/admin/apps', () => {
  it('answers 201 with the app, appSecret and webhookSecret; GET /api/admin/apps never shows secrets', async () => {
    const id = uniqueId('app');
    const res = await admin('POST', '/api/admin/apps', { id, name: 'My game' });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { app: Record<string, unknown>; appSecret: string; webhookSecret: string };
    expect(body.app).toMatchObject({ id, name: 'My game', createdAt: expect.any(Number) });
    expect(body.appSecret).toEqual(expect.any(String));
    expect(body.appSecret.length).toBeGreaterThanOrEqual(32);
    expect(body.webhookSecret).toEqual(expect.any(String));
    expect(body.webhookSecret).not.toBe(body.appSecret);
    // The secret works.
    expect(await issueToken(server, { appId: id, appSecret: body.appSecret, webhookSecret: body.webhookSecret }, 'u')).toEqual(expect.any(String));

    const list = await admin('GET', '/api/admin/apps');
    expect(list.status).toBe(200);
    const text = await list.text();
    expect(text).toContain(id);
    expect(text).not.toContain(body.appSecret);
    expect(text).not.toContain(body.webhookSecret);
    expect(text).not.toMatch(/secretHash|webhookSecret|appSecret/);
  });

  it('answers 409 conflict for an existing id, and keeps the first app’s secret', async () => {
    const app = await createTestApp(server);
    const res = await admin('POST', '/api/admin/apps', { id: app.appId, name: 'again' });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: string }).error).toBe('conflict');
    expect(await issueToken(server, app, 'u')).toEqual(expect.any(String));
  });

  it.each([
    [{ name: 'no id' }, 'id'],
    [{ id: 'has space', name: 'x' }, 'id'],
    [{ id: 'ok-id' }, 'name'],
    [{ id: 'a/b', name: 'x' }, 'id'],
  ])('answers 400 validation_error for a bad body %j, naming %s', async (body, field) => {
    const res = await admin('POST', '/api/admin/apps', body);
    expect(res.status).toBe(400);
    const err = (await res.json()) as { error: string; message: string };
    expect(err.error).toBe('validation_error');
    expect(err.message).toMatch(new RegExp(field));
  });

  it('answers 400 for a body that is not JSON', async () => {
    const res = await fetch(`${server.url}/api/admin/apps`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.adminKey}`, 'Content-Type': 'application/json' },
      body: '{not json',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('validation_error');
  });

  it('records the creation in the audit log, without secrets', async () => {
    const id = uniqueId('app');
    const res = await admin('POST', '/api/admin/apps', { id, name: 'Audited' });
    const { appSecret } = (await res.json()) as { appSecret: string };
    const rows = await auditRows(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor: 'admin-api-key', action: 'app.create', target: `app:${id}`, before: null, after: { id, name: 'Audited' } });
    expect(rows[0].at).toEqual(expect.any(Number));
    expect(JSON.stringify(rows[0])).not.toContain(appSecret);
  });
});

describe('PUT /api/admin/apps/:appId/catalog', () => {
  const base: CatalogInput = {
    campaigns: [campaign('c1')],
    missions: [mission('m1', { campaignId: 'c1' }), mission('m2', { prerequisites: ['m1'] })],
  };

  const invalidCases: [string, CatalogInput, string][] = [
    ['a filter with an unknown operator', { missions: [mission('ok'), mission('bad', { criteria: { eventName: 'e', count: 1, filter: { level: { regex: '.*' } } } })] }, 'bad'],
    ['an unknown prerequisite', { missions: [mission('ok'), mission('bad', { prerequisites: ['ghost'] })] }, 'bad'],
    ['a prerequisite cycle', { missions: [mission('x', { prerequisites: ['y'] }), mission('y', { prerequisites: ['x'] })] }, 'x'],
    ['a cycle through an existing mission', { missions: [mission('m1', { campaignId: 'c1', prerequisites: ['m2'] })] }, 'm'],
    ['an unknown campaignId', { missions: [mission('ok'), mission('bad', { campaignId: 'nowhere' })] }, 'bad'],
    ['endAt equal to startAt', { campaigns: [campaign('badc', { startAt: 1000, endAt: 1000 })], missions: [mission('ok')] }, 'badc'],
    ['endAt before startAt', { campaigns: [campaign('badc', { startAt: 2000, endAt: 1000 })] }, 'badc'],
    ['a duplicate mission id', { missions: [mission('dup'), mission('ok'), mission('dup')] }, 'dup'],
    ['a duplicate campaign id', { campaigns: [campaign('dupc'), campaign('dupc')] }, 'dupc'],
    ['a mission without a title', { missions: [mission('ok'), { ...mission('bad'), title: '' }] }, 'bad'],
    ['an unknown reward kind', { missions: [{ ...mission('bad'), reward: { kind: 'gold' } as never }] }, 'bad'],
    ['an unknown window', { missions: [mission('bad', { criteria: { eventName: 'e', count: 1, window: 'hourly' as never } })] }, 'bad'],
  ];

  it.each(invalidCases)('rejects a catalog with %s: 400 validation_error naming the item, nothing written', async (_name, catalog, itemId) => {
    const app = await createTestApp(server, base);
    const before = await exportOf(app.appId);
    const auditBefore = (await auditRows(app.appId)).length;
    // A valid change in the same request must not be written either.
    const withValid: CatalogInput = { missions: [mission('m-extra'), ...(catalog.missions ?? [])], campaigns: [campaign('c-extra'), ...(catalog.campaigns ?? [])] };
    const res = await putCatalog(server, app.appId, withValid);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; message: string };
    expect(body.error).toBe('validation_error');
    expect(body.message).toContain(`"${itemId}`);
    expect(await exportOf(app.appId)).toEqual(before);
    expect(await auditRows(app.appId)).toHaveLength(auditBefore);
  });

  it('answers 404 app_not_found for an unknown app', async () => {
    const res = await putCatalog(server, uniqueId('ghost'), base);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: string }).error).toBe('app_not_found');
  });

  it('GET exports the catalog in the same shape as PUT takes, and re-putting the export changes nothing', async () => {
    const app = await createTestApp(server, base);
    const exported = (await exportOf(app.appId)) as { missions: Record<string, unknown>[]; campaigns: Record<string, unknown>[] };
    expect(exported.missions.map((m) => m.id)).toEqual(['m1', 'm2']);
    expect(exported.missions[0]).toMatchObject({ id: 'm1', title: 'Mission m1', campaignId: 'c1', criteria: { eventName: 'play', count: 1, window: 'lifetime' }, reward: { kind: 'currency', currency: 'gems', amount: 10 }, prerequisites: [], archived: false });
    expect(exported.campaigns).toEqual([expect.objectContaining({ id: 'c1', missionIds: ['m1'], bannerUrl: 'https://cdn.example.com/c1.png', archived: false })]);

    // Moving the catalog to another environment: the export is a valid PUT body.
    const copy = await createTestApp(server);
    const put = await putCatalog(server, copy.appId, exported as CatalogInput);
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual(exported);
    expect(await exportOf(copy.appId)).toEqual(exported);
  });

  it('upserts by id: items not named in the request are kept', async () => {
    const app = await createTestApp(server, base);
    const res = await putCatalog(server, app.appId, { missions: [mission('m2', { title: 'Renamed', prerequisites: ['m1'] }), mission('m3')] });
    expect(res.status).toBe(200);
    const exported = (await exportOf(app.appId)) as { missions: { id: string; title: string }[] };
    expect(exported.missions.map((m) => [m.id, m.title])).toEqual([
      ['m1', 'Mission m1'],
      ['m2', 'Renamed'],
      ['m3', 'Mission m3'],
    ]);
  });

  it('writes an audit row per change with who, action, before and after', async () => {
    const app = await createTestApp(server, { missions: [mission('m1')] });
    const res = await putCatalog(server, app.appId, { campaigns: [campaign('c9')], missions: [mission('m1', { title: 'New title' }), mission('m9')] });
    expect(res.status).toBe(200);
    const rows = await auditRows(app.appId);
    const summary = rows.map((r) => [r.action, r.target, r.actor]);
    expect(summary).toEqual([
      ['app.create', `app:${app.appId}`, 'admin-api-key'],
      ['mission.create', 'mission:m1', 'admin-api-key'],
      // Every catalog write is a release (docs/api.md, "Drafts and releases"), audited in the same transaction.
      ['catalog.release', 'release:1', 'admin-api-key'],
      ['campaign.create', 'campaign:c9', 'admin-api-key'],
      ['mission.update', 'mission:m1', 'admin-api-key'],
      ['mission.create', 'mission:m9', 'admin-api-key'],
      ['catalog.release', 'release:2', 'admin-api-key'],
    ]);
    const update = rows[4];
    expect(update.before).toMatchObject({ id: 'm1', title: 'Mission m1' });
    expect(update.after).toMatchObject({ id: 'm1', title: 'New title' });
    expect(rows[5].before).toBeNull();
    expect(rows[6].after).toMatchObject({ release: 2, changes: [{ kind: 'mission', id: 'm1', change: 'changed' }, { kind: 'mission', id: 'm9', change: 'added' }, { kind: 'campaign', id: 'c9', change: 'added' }] });
    for (const r of rows) expect(r.at).toEqual(expect.any(Number));
  });
});

describe('the event path sees catalog changes at once', () => {
  it('a mission put after the catalog was read is advanced by the next event', async () => {
    const app = await createTestApp(server, { missions: [mission('old', { criteria: { eventName: 'old-event', count: 5 } })] });
    const user = await newUser(server, app);
    // Warm the in-memory catalog through the event path.
    expect((await user.event('new-event')).body.missionsUpdated).toEqual([]);
    expect((await putCatalog(server, app.appId, { missions: [mission('fresh', { criteria: { eventName: 'new-event', count: 2 } })] })).status).toBe(200);
    expect((await user.event('new-event')).body.missionsUpdated).toEqual(['fresh']);
    // And an archived mission stops counting at once.
    expect((await putCatalog(server, app.appId, { missions: [mission('fresh', { archived: true, criteria: { eventName: 'new-event', count: 2 } })] })).status).toBe(200);
    expect((await user.event('new-event')).body.missionsUpdated).toEqual([]);
  });
});


describe('PUT /api/admin/apps/:appId/catalog: body size', () => {
  it('refuses a catalog body over 64 KiB with 413 payload_too_large and writes nothing', async () => {
    const app = await createTestApp(server);
    const missions = Array.from({ length: 400 }, (_, i) => ({
      id: `big-${i}`,
      title: `Mission ${i}`,
      description: 'x'.repeat(150),
      criteria: { eventName: 'play', count: 1 },
      reward: { kind: 'currency', currency: 'gold', amount: 1 },
    }));
    expect(JSON.stringify({ missions }).length).toBeGreaterThan(64 * 1024);
    const res = await admin('PUT', `/api/admin/apps/${app.appId}/catalog`, { missions });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toBe('payload_too_large');
    expect(await exportOf(app.appId)).toEqual({ missions: [], campaigns: [] });
  });
});
