// GET /api/admin/apps/:appId/event-payload-fields over real HTTP: the dot paths
// of scalar values this app's recent events of one name carried, most common
// first, with up to 5 distinct examples each (most recent first); arrays and
// dotted keys skipped; never another app's or another name's payloads; every
// staff role reads; the query is validated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PayloadFieldList } from '@/lib/contract/mission-admin';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { adminCall, signedInStaff, type TestStaff } from '@/lib/testing/staff';
import { newUser } from '@/lib/testing/fixtures';

let server: TestServer;
let app: TestApp;
let staff: TestStaff[];

beforeAll(async () => {
  server = await startTestServer();
  app = await createTestApp(server);
  staff = await Promise.all((['admin', 'editor', 'support'] as const).map((role) => signedInStaff(server, role)));
});
afterAll(async () => {
  await server?.close();
});

const route = (name: string, appId = app.appId) => `/api/admin/apps/${appId}/event-payload-fields?name=${encodeURIComponent(name)}`;

describe('GET /api/admin/apps/:appId/event-payload-fields', () => {
  it('collects the scalar dot paths of the recent events of that name, most common first, with distinct examples, most recent first', async () => {
    const other = await createTestApp(server);
    await (await newUser(server, other)).event('match_won', { secret_other_app: 'x' });
    const user = await newUser(server, app);
    await user.event('match_won', { mode: 'casual', match: { kills: 3, map: 'dust' }, tags: ['a', 'b'], 'a.b': 1 });
    await user.event('match_won', { mode: 'ranked', match: { kills: 7 }, ranked: true });
    await user.event('shop_opened', { shelf: 'gems' });
    for (const mode of ['ranked', 'arcade', 'duo', 'solo', 'squad']) await user.event('match_won', { mode, match: { kills: 7 }, note: null });

    const { status, body } = await adminCall<PayloadFieldList>(server, 'GET', route('match_won'));
    expect(status).toBe(200);
    expect(body.name).toBe('match_won');
    expect(body.sampled).toBe(7);
    expect(body.fields.map((f) => f.path)).toEqual(['match.kills', 'mode', 'note', 'match.map', 'ranked']);
    const byPath = Object.fromEntries(body.fields.map((f) => [f.path, f]));
    expect(byPath['mode']).toEqual({ path: 'mode', events: 7, examples: ['squad', 'solo', 'duo', 'arcade', 'ranked'] });
    expect(byPath['match.kills']).toEqual({ path: 'match.kills', events: 7, examples: [7, 3] });
    expect(byPath['note']).toEqual({ path: 'note', events: 5, examples: [null] });
    expect(byPath['ranked']).toEqual({ path: 'ranked', events: 1, examples: [true] });
    expect(body.fields.some((f) => f.path.startsWith('tags') || f.path === 'a.b' || f.path === 'shelf' || f.path === 'secret_other_app')).toBe(false);
  });

  it('answers no field for a name the app never received', async () => {
    const { status, body } = await adminCall<PayloadFieldList>(server, 'GET', route('never_sent'));
    expect(status).toBe(200);
    expect(body).toEqual({ name: 'never_sent', sampled: 0, fields: [] });
  });

  it('every staff role reads it; without a name it is 400 validation_error; an unknown app is 404', async () => {
    for (const member of staff) expect((await adminCall(server, 'GET', route('match_won'), undefined, member)).status, member.role).toBe(200);
    const missing = await adminCall(server, 'GET', `/api/admin/apps/${app.appId}/event-payload-fields`);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: 'validation_error' });
    expect(String(missing.body.message)).toContain('query.name');
    expect((await adminCall(server, 'GET', route('match_won', 'no-such-app'))).status).toBe(404);
  });
});
