// Ids that are path segments a URL resolves away ("." and "..") are refused
// for new writes over real HTTP (embedded, or PostgreSQL/Redis with
// DATABASE_URL/REDIS_URL): an app, a mission, a campaign, a theme preset, the
// catalog document and a duplicate's id answer 400 validation_error naming the
// field, and nothing is written; a dot inside an id stays allowed; a row
// stored before the rule is still read.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { apps } from '@/db/schema';
import { adminCall, type AdminAnswer } from '@/lib/testing/staff';
import { campaign, mission, themePreset } from '@/lib/testing/fixtures';
import { createTestApp, putCatalog, startTestServer, uniqueId, type TestServer } from '@/lib/testing/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

type Refusal = { error: string; message: string };
const call = <T = Refusal>(method: string, route: string, body?: unknown): Promise<AdminAnswer<T>> => adminCall<T>(server, method, route, body);

function expectRefused(res: AdminAnswer<Refusal>, field: RegExp) {
  expect(res.status).toBe(400);
  expect(Object.keys(res.body).sort()).toEqual(['error', 'message']);
  expect(res.body.error).toBe('validation_error');
  expect(res.body.message).toMatch(field);
  expect(res.body.message).toContain('not "." or ".."');
}

describe('the ids "." and ".."', () => {
  it.each(['.', '..'])('"%s" is refused as an app, mission, campaign, theme, catalog or duplicate id; nothing is written', async (id) => {
    expectRefused(await call('POST', '/api/admin/apps', { id, name: 'Dots' }), /^id: /);
    const db = await getDb();
    expect(await db.select().from(apps).where(eq(apps.id, id))).toEqual([]);

    const app = await createTestApp(server, { missions: [mission('m1')], campaigns: [] });
    const base = `/api/admin/apps/${app.appId}`;
    expectRefused(await call('POST', `${base}/missions`, mission(id)), /^id: /);
    expectRefused(await call('POST', `${base}/campaigns`, campaign(id)), /^id: /);
    expectRefused(await call('POST', `${base}/themes`, themePreset(id)), /^id: /);
    expectRefused(await call('POST', `${base}/missions/m1/duplicate`, { id }), /^id: /);
    const put = await putCatalog(server, app.appId, { missions: [mission('m1'), mission(id)], campaigns: [] });
    expectRefused({ status: put.status, body: (await put.json()) as Refusal }, /missions\[1\]/);

    const catalog = await call<{ missions: Array<{ id: string }>; campaigns: unknown[]; themes?: unknown[] }>('GET', `${base}/catalog`);
    expect(catalog.body.missions.map((m) => m.id)).toEqual(['m1']);
    expect(catalog.body.campaigns).toEqual([]);
    expect(catalog.body.themes ?? []).toEqual([]);
  });

  it('a dot inside an id is allowed; a row stored before the rule is still listed', async () => {
    const id = `${uniqueId('app')}.v2`;
    expect((await call('POST', '/api/admin/apps', { id, name: 'Dotted' })).status).toBe(201);
    const base = `/api/admin/apps/${id}`;
    for (const [route, body] of [
      ['missions', mission('season.1')],
      ['themes', themePreset('dark..mode')],
      ['campaigns', campaign('.hidden')],
    ] as const) {
      expect((await call('POST', `${base}/${route}`, body)).status, route).toBe(201);
    }
    // An old row named "..": the rule is for new writes; reads leave it as it is.
    const db = await getDb();
    await db.execute(sql`insert into missions select (json_populate_record(null::missions, jsonb_set(to_jsonb(m), '{id}', '".."')::json)).*
      from missions m where m.app_id = ${id} and m.id = 'season.1'`);
    const list = await call<{ missions: Array<{ id: string }> }>('GET', `${base}/missions`);
    expect(list.status).toBe(200);
    expect(list.body.missions.map((m) => m.id).sort()).toEqual(['..', 'season.1']);
  });
});
