// The granular mission API, event-name suggestions and the audit log over real
// HTTP: filters, the catalog schema's validation, optimistic concurrency (a
// stale version answers 409 and writes nothing), duplicate and archive, an
// audit row with before and after for every write, the event path seeing each
// change at once, and roles (support reads, cannot write).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAdminOpenApiDocument } from '@/lib/http/admin/openapi';
import { adminRoutes } from '@/lib/http/routes';
import type { AuditPage } from '@/lib/contract/audit';
import type { MissionRecord } from '@/lib/contract/mission-admin';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { asStaff, signedInStaff, type TestStaff } from '@/lib/testing/staff';
import { campaign, mission, newUser } from '@/lib/testing/fixtures';

let server: TestServer;
let app: TestApp;
let editor: TestStaff;
let support: TestStaff;

beforeAll(async () => {
  server = await startTestServer();
  app = await createTestApp(server, {
    campaigns: [campaign('spring')],
    missions: [
      mission('win-3', { title: 'Win three ranked', criteria: { eventName: 'match_won', count: 3, window: 'daily', filter: { mode: 'ranked' } }, campaignId: 'spring' }),
      mission('play-1', { title: 'Play once' }),
      mission('old', { title: 'Retired', archived: true, criteria: { eventName: 'login', count: 1, window: 'weekly' } }),
    ],
  });
  editor = await signedInStaff(server, 'editor');
  support = await signedInStaff(server, 'support');
});
afterAll(async () => {
  await server?.close();
});

const base = () => `/api/admin/apps/${app.appId}/missions`;

function admin(method: string, route: string, body?: unknown): Promise<Response> {
  return fetch(server.url + route, {
    method,
    headers: { Authorization: `Bearer ${server.adminKey}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function ok<T>(res: Response | Promise<Response>, status = 200): Promise<T> {
  const r = await res;
  const text = await r.text();
  expect(r.status, text).toBe(status);
  return JSON.parse(text) as T;
}

async function ids(query = ''): Promise<string[]> {
  const { missions } = await ok<{ missions: MissionRecord[] }>(admin('GET', `${base()}${query}`));
  return missions.map((m) => m.id);
}

async function audit(query: string): Promise<AuditPage> {
  return ok<AuditPage>(admin('GET', `/api/admin/audit?${query}`));
}

describe('GET /api/admin/apps/:appId/missions', () => {
  it('lists every mission with its version, and each filter narrows the list', async () => {
    const { missions } = await ok<{ missions: MissionRecord[] }>(admin('GET', base()));
    expect(missions.map((m) => m.id)).toEqual(['old', 'play-1', 'win-3']);
    expect(missions.every((m) => m.version >= 1 && m.createdAt > 0)).toBe(true);
    expect(await ids('?status=live')).toEqual(['play-1', 'win-3']);
    expect(await ids('?status=archived')).toEqual(['old']);
    expect(await ids('?campaignId=spring')).toEqual(['win-3']);
    expect(await ids('?campaignId=none')).toEqual(['old', 'play-1']);
    expect(await ids('?eventName=match_won')).toEqual(['win-3']);
    expect(await ids('?window=weekly')).toEqual(['old']);
    expect(await ids('?q=RANKED')).toEqual(['win-3']);
    expect(await ids('?q=%25')).toEqual([]);
    expect(await ids('?status=live&window=lifetime')).toEqual(['play-1']);
  });

  it('answers validation_error naming a bad query parameter, app_not_found for an unknown app', async () => {
    const res = await admin('GET', `${base()}?window=hourly`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'validation_error', message: expect.stringContaining('query.window') });
    expect((await admin('GET', '/api/admin/apps/no-such-app/missions')).status).toBe(404);
    expect((await admin('GET', `${base()}/nope`)).status).toBe(404);
    expect(await (await admin('GET', `${base()}/nope`)).json()).toMatchObject({ error: 'mission_not_found' });
  });
});

describe('writing one mission', () => {
  it('creates with the catalog schema (defaults applied, version 1), audited; a taken id is 409 conflict', async () => {
    const created = await ok<MissionRecord>(
      asStaff(server, editor.cookie, 'POST', base(), mission('kills', { criteria: { eventName: 'enemy_killed', count: 5, filter: { level: { gte: 3 } } } })),
      201,
    );
    expect(created).toMatchObject({ id: 'kills', version: 1, archived: false, prerequisites: [], criteria: { window: 'lifetime', filter: { level: { gte: 3 } } } });
    const again = await asStaff(server, editor.cookie, 'POST', base(), mission('kills'));
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: 'conflict' });
    const { entries } = await audit(`appId=${app.appId}&target=mission:kills`);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: 'mission.create', actor: `staff:${editor.email}`, before: null, after: { id: 'kills', criteria: { eventName: 'enemy_killed' } } });
  });

  it('refuses what the catalog PUT refuses, naming the field: a bad filter operator, unknown references, a cycle', async () => {
    const cases: [unknown, string][] = [
      [mission('bad', { criteria: { eventName: 'x', count: 1, filter: { level: { between: [1, 2] } } } }), 'unknown operator "between"'],
      [{ ...mission('bad'), reward: { kind: 'currency', currency: 'gems', amount: -1 } }, 'reward.amount'],
      [mission('bad', { campaignId: 'winter' }), 'campaignId'],
      [mission('bad', { prerequisites: ['ghost'] }), '"ghost" is not a mission'],
    ];
    for (const [body, message] of cases) {
      const res = await admin('POST', base(), body);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'validation_error', message: expect.stringContaining(message) });
    }
    // play-1 → win-3 exists; win-3 → play-1 would close the loop.
    const play = await ok<MissionRecord>(admin('GET', `${base()}/play-1`));
    await ok(admin('PUT', `${base()}/play-1`, { ...play, prerequisites: ['win-3'] }));
    const win = await ok<MissionRecord>(admin('GET', `${base()}/win-3`));
    const cycle = await admin('PUT', `${base()}/win-3`, { ...win, prerequisites: ['play-1'] });
    expect(cycle.status).toBe(400);
    expect(await cycle.json()).toMatchObject({ message: expect.stringContaining('cycle') });
    const reverted = await ok<MissionRecord>(admin('GET', `${base()}/play-1`));
    await ok(admin('PUT', `${base()}/play-1`, { ...reverted, prerequisites: [] }));
    expect(await ids('?q=bad')).toEqual([]);
  });

  it('updates at the version read (version + 1, audited with before and after); a stale version is 409 and writes nothing', async () => {
    const read = await ok<MissionRecord>(admin('GET', `${base()}/kills`));
    const { version, createdAt: _c, updatedAt: _u, ...fields } = read;
    const updated = await ok<MissionRecord>(asStaff(server, editor.cookie, 'PUT', `${base()}/kills`, { ...fields, version, title: 'Slay five', criteria: { ...fields.criteria, count: 6 } }));
    expect(updated).toMatchObject({ title: 'Slay five', version: version + 1, criteria: { count: 6 } });

    // A second editor still holding the first read: refused, nothing written.
    const stale = await asStaff(server, editor.cookie, 'PUT', `${base()}/kills`, { ...fields, version, title: 'Lost update' });
    expect(stale.status).toBe(409);
    const body = (await stale.json()) as { error: string; message: string };
    expect(body.error).toBe('conflict');
    expect(body.message).toContain(`version ${version}`);
    expect(Object.keys(body).sort()).toEqual(['error', 'message']);
    expect((await ok<MissionRecord>(admin('GET', `${base()}/kills`))).title).toBe('Slay five');

    const { entries } = await audit(`appId=${app.appId}&target=mission:kills&entity=mission`);
    expect(entries.map((e) => e.action)).toEqual(['mission.update', 'mission.create']);
    expect(entries[0]).toMatchObject({ before: { title: 'Mission kills', criteria: { count: 5 } }, after: { title: 'Slay five', criteria: { count: 6 } } });
  });

  it('an unchanged save is a no-op: the mission as it is, same version and updatedAt, no audit row; archiving an archived one likewise', async () => {
    const read = await ok<MissionRecord>(admin('GET', `${base()}/win-3`));
    const before = (await audit(`appId=${app.appId}&target=mission:win-3`)).entries.length;
    const { createdAt: _c, updatedAt: _u, ...fields } = read;
    // The body as the console sends it: the filter's keys in another order than stored, defaults spelled out.
    const body = { ...fields, criteria: { filter: fields.criteria.filter, window: fields.criteria.window, count: fields.criteria.count, eventName: fields.criteria.eventName } };
    for (let i = 0; i < 2; i++) {
      const same = await ok<MissionRecord>(asStaff(server, editor.cookie, 'PUT', `${base()}/win-3`, body));
      expect(same).toEqual(read);
    }
    expect(await ok<MissionRecord>(admin('GET', `${base()}/win-3`))).toEqual(read);
    expect((await audit(`appId=${app.appId}&target=mission:win-3`)).entries).toHaveLength(before);

    // One field changed: a write, the next version, one audit row.
    const changed = await ok<MissionRecord>(admin('PUT', `${base()}/win-3`, { ...body, description: 'Three ranked wins' }));
    expect(changed).toMatchObject({ description: 'Three ranked wins', version: read.version + 1 });
    expect((await audit(`appId=${app.appId}&target=mission:win-3`)).entries).toHaveLength(before + 1);
    // A stale version is still refused, even for the same content.
    expect((await admin('PUT', `${base()}/win-3`, { ...body, description: 'Three ranked wins' })).status).toBe(409);

    const archived = await ok<MissionRecord>(admin('POST', `${base()}/old/archive`));
    const again = await ok<MissionRecord>(admin('POST', `${base()}/old/archive`, { version: archived.version }));
    expect(again).toEqual(archived);
    expect((await audit(`appId=${app.appId}&target=mission:old&entity=mission`)).entries.map((e) => e.action)).not.toContain('mission.archive');
  });

  it('a catalog PUT bumps the version too, so an edit based on the earlier read is refused', async () => {
    const read = await ok<MissionRecord>(admin('GET', `${base()}/play-1`));
    await ok(admin('PUT', `/api/admin/apps/${app.appId}/catalog`, { missions: [mission('play-1', { title: 'Play once (as code)' })] }));
    expect((await ok<MissionRecord>(admin('GET', `${base()}/play-1`))).version).toBe(read.version + 1);
    const stale = await admin('PUT', `${base()}/play-1`, { ...read, title: 'From the console' });
    expect(stale.status).toBe(409);
  });

  it('the id in the body must be the path’s; a body without version is a validation_error', async () => {
    const read = await ok<MissionRecord>(admin('GET', `${base()}/kills`));
    const renamed = await admin('PUT', `${base()}/kills`, { ...read, id: 'kills-2' });
    expect(renamed.status).toBe(400);
    expect(await renamed.json()).toMatchObject({ message: expect.stringContaining('ids never change') });
    const noVersion = await admin('PUT', `${base()}/kills`, { ...read, version: undefined });
    expect(noVersion.status).toBe(400);
    expect(await noVersion.json()).toMatchObject({ message: expect.stringContaining('version') });
  });

  it('duplicates under "<id>-copy" (then "-copy-2"), live, audited; or under a chosen id', async () => {
    const first = await ok<MissionRecord>(admin('POST', `${base()}/old/duplicate`), 201);
    expect(first).toMatchObject({ id: 'old-copy', title: 'Retired (copy)', archived: false, version: 1, criteria: { eventName: 'login', window: 'weekly' } });
    expect((await ok<MissionRecord>(admin('POST', `${base()}/old/duplicate`, {}), 201)).id).toBe('old-copy-2');
    expect((await ok<MissionRecord>(admin('POST', `${base()}/old/duplicate`, { id: 'login-weekly', title: 'Log in weekly' }), 201)).title).toBe('Log in weekly');
    expect((await admin('POST', `${base()}/old/duplicate`, { id: 'login-weekly' })).status).toBe(409);
    const { entries } = await audit(`appId=${app.appId}&target=mission:old-copy`);
    expect(entries[0]).toMatchObject({ action: 'mission.duplicate', before: null, after: { id: 'old-copy', duplicatedFrom: 'old' } });
  });

  it('archive and unarchive: /v1 stops and starts listing it and counting its events at once; a stale version is refused', async () => {
    const user = await newUser(server, app);
    const listed = async () => ((await user.getJson<{ missions: { id: string }[] }>('/v1/missions')).body.missions ?? []).map((m) => m.id);
    expect(await listed()).toContain('kills');

    const read = await ok<MissionRecord>(admin('GET', `${base()}/kills`));
    const archived = await ok<MissionRecord>(asStaff(server, editor.cookie, 'POST', `${base()}/kills/archive`, { version: read.version }));
    expect(archived).toMatchObject({ archived: true, version: read.version + 1 });
    expect(await listed()).not.toContain('kills');
    expect((await user.event('enemy_killed', { level: 5 })).body.missionsUpdated).not.toContain('kills');
    expect((await admin('POST', `${base()}/kills/unarchive`, { version: read.version })).status).toBe(409);

    await ok(admin('POST', `${base()}/kills/unarchive`));
    expect(await listed()).toContain('kills');
    expect((await user.event('enemy_killed', { level: 5 })).body.missionsUpdated).toContain('kills');
    expect((await user.event('enemy_killed', { level: 1 })).body.missionsUpdated).not.toContain('kills');
    const { entries } = await audit(`appId=${app.appId}&target=mission:kills`);
    expect(entries.slice(0, 2).map((e) => e.action)).toEqual(['mission.unarchive', 'mission.archive']);
    expect(entries[1]).toMatchObject({ before: { archived: false }, after: { archived: true } });
  });

  it('an edit reaches the event path at once (the cached catalog is invalidated)', async () => {
    const user = await newUser(server, app);
    expect((await user.event('boss_down')).body.missionsUpdated).not.toContain('play-1');
    const read = await ok<MissionRecord>(admin('GET', `${base()}/play-1`));
    await ok(admin('PUT', `${base()}/play-1`, { ...read, criteria: { eventName: 'boss_down', count: 2 } }));
    expect((await user.event('boss_down')).body.missionsUpdated).toContain('play-1');
  });
});

describe('roles', () => {
  it('support reads missions, event names and the audit log, and every mission write is 403 forbidden', async () => {
    expect((await asStaff(server, support.cookie, 'GET', base())).status).toBe(200);
    expect((await asStaff(server, support.cookie, 'GET', `${base()}/win-3`)).status).toBe(200);
    expect((await asStaff(server, support.cookie, 'GET', `/api/admin/apps/${app.appId}/event-names`)).status).toBe(200);
    expect((await asStaff(server, support.cookie, 'GET', `/api/admin/audit?appId=${app.appId}`)).status).toBe(200);
    const read = await ok<MissionRecord>(admin('GET', `${base()}/win-3`));
    const writes: [string, string, unknown][] = [
      ['POST', base(), mission('by-support')],
      ['PUT', `${base()}/win-3`, { ...read, title: 'by support' }],
      ['POST', `${base()}/win-3/duplicate`, {}],
      ['POST', `${base()}/win-3/archive`, {}],
      ['POST', `${base()}/old/unarchive`, {}],
    ];
    for (const [method, route, body] of writes) {
      const res = await asStaff(server, support.cookie, method, route, body);
      expect(res.status, `${method} ${route}`).toBe(403);
      expect(await res.json()).toMatchObject({ error: 'forbidden' });
    }
    expect(await ok<MissionRecord>(admin('GET', `${base()}/win-3`))).toMatchObject({ title: 'Win three ranked', version: read.version, archived: false });
  });

  it('an editor may not read the audit log (audit.read is admin and support)', async () => {
    expect((await asStaff(server, editor.cookie, 'GET', '/api/admin/audit')).status).toBe(403);
  });
});

describe('GET /api/admin/apps/:appId/event-names', () => {
  it('answers the distinct names this app received, most recent first, then names its missions use; never another app’s', async () => {
    const other = await createTestApp(server);
    const stranger = await newUser(server, other);
    await stranger.event('other_app_only');
    const user = await newUser(server, app);
    await user.event('shop_opened');
    await user.event('chest_opened');
    await user.event('shop_opened');
    const { eventNames } = await ok<{ eventNames: { name: string; lastSeenAt: number | null }[] }>(admin('GET', `/api/admin/apps/${app.appId}/event-names`));
    const names = eventNames.map((e) => e.name);
    expect(names.slice(0, 2)).toEqual(['shop_opened', 'chest_opened']);
    expect(new Set(names).size).toBe(names.length);
    expect(names).not.toContain('other_app_only');
    // match_won is only named by a mission: suggested, without a last-seen time.
    expect(eventNames.find((e) => e.name === 'match_won')).toEqual({ name: 'match_won', lastSeenAt: null });
    expect(eventNames.find((e) => e.name === 'shop_opened')?.lastSeenAt).toBeGreaterThan(0);
  });
});

describe('GET /api/admin/audit', () => {
  it('filters by actor, entity and time, and pages newest first with a cursor', async () => {
    const byEditor = await audit(`actor=${encodeURIComponent(editor.email.toUpperCase())}&appId=${app.appId}`);
    expect(byEditor.entries.length).toBeGreaterThanOrEqual(3);
    expect(byEditor.entries.every((e) => e.actor === `staff:${editor.email}`)).toBe(true);

    const all = await audit(`appId=${app.appId}&entity=mission&limit=200`);
    expect(all.entries.every((e) => e.target.startsWith('mission:'))).toBe(true);
    expect(all.entries.map((e) => e.id)).toEqual([...all.entries.map((e) => e.id)].sort((a, b) => b - a));
    expect((await audit(`appId=${app.appId}&entity=campaign`)).entries.map((e) => e.target)).toEqual(['campaign:spring']);

    const pages: number[] = [];
    let cursor: number | null = null;
    do {
      const page: AuditPage = await audit(`appId=${app.appId}&entity=mission&limit=3${cursor ? `&before=${cursor}` : ''}`);
      expect(page.entries.length).toBeLessThanOrEqual(3);
      pages.push(...page.entries.map((e) => e.id));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(pages).toEqual(all.entries.map((e) => e.id));

    const middle = all.entries[Math.floor(all.entries.length / 2)];
    const since = await audit(`appId=${app.appId}&entity=mission&from=${middle.at}&limit=200`);
    expect(since.entries.every((e) => e.at >= middle.at)).toBe(true);
    const until = await audit(`appId=${app.appId}&entity=mission&to=${middle.at}&limit=200`);
    expect(until.entries.every((e) => e.at < middle.at)).toBe(true);
    expect(since.entries.length + until.entries.length).toBe(all.entries.length);

    const bad = await admin('GET', '/api/admin/audit?limit=5000');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: 'validation_error', message: expect.stringContaining('query.limit') });
  });
});

describe('admin OpenAPI', () => {
  it('documents every admin route and method', () => {
    const doc = getAdminOpenApiDocument() as { paths: Record<string, Record<string, unknown>> };
    for (const route of adminRoutes) {
      const path = route.path.replace(/:([A-Za-z]+)/g, '{$1}');
      for (const method of Object.keys(route.handlers)) expect(doc.paths[path]?.[method.toLowerCase()], `${method} ${route.path}`).toBeDefined();
    }
    expect(Object.keys((doc as unknown as { components: { schemas: Record<string, unknown> } }).components.schemas)).toEqual(
      expect.arrayContaining(['MissionRecord', 'MissionUpdate', 'MissionDefinition', 'AuditPage', 'EventNameList']),
    );
  });
});
