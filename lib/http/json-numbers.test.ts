// Numbers JSON text can write but a double cannot hold (`1e999` → Infinity,
// which would be stored as null): every JSON body refuses them with 400, and
// nothing is written. Over real HTTP, on every endpoint that takes a body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mission, newUser } from '@/lib/testing/fixtures';
import { appRowCounts, rowsNamedBy } from '@/lib/testing/row-counts';
import { createTestApp, startTestServer, uniqueId, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { sendDelivery } from '@/lib/testing/webhook';

let server: TestServer;
let app: TestApp;
beforeAll(async () => {
  server = await startTestServer();
  app = await createTestApp(server, { missions: [mission('m1')], campaigns: [] });
}, 120_000);
afterAll(async () => {
  await server?.close();
});

const OUT_OF_RANGE = ['1e999', '-1e999', '1E400', '123456789e999'];

function admin(method: string, path: string, body: string): Promise<Response> {
  return fetch(server.url + path, { method, headers: { Authorization: `Bearer ${server.adminKey}`, 'Content-Type': 'application/json' }, body });
}

async function expectRefused(res: Response, code: string, field: string): Promise<void> {
  expect(res.status).toBe(400);
  const body = (await res.json()) as { error: string; message: string };
  expect(body.error).toBe(code);
  expect(body.message).toBe(`${field}: number is out of range (JSON numbers must be finite doubles)`);
}

describe('out-of-range JSON numbers are refused with 400, nothing stored', () => {
  it.each(OUT_OF_RANGE)('POST /v1/events with payload.score = %s → 400 invalid_event, no event row', async (n) => {
    const user = await newUser(server, app);
    const before = await appRowCounts([app.appId]);
    const res = await user.client.post('/v1/events', `{"userId":${JSON.stringify(user.userId)},"name":"play","payload":{"score":${n}},"timestamp":${Date.now()}}`);
    await expectRefused(res, 'invalid_event', 'payload.score');
    expect(await appRowCounts([app.appId])).toEqual(before);
    // A finite number in the same place is stored as sent.
    const ok = await user.client.post('/v1/events', `{"userId":${JSON.stringify(user.userId)},"name":"play","payload":{"score":1e308},"timestamp":${Date.now()}}`);
    expect(ok.status).toBe(200);
  });

  it('POST /v1/events with the timestamp 1e999 → 400 invalid_event', async () => {
    const user = await newUser(server, app);
    const res = await user.client.post('/v1/events', `{"userId":${JSON.stringify(user.userId)},"name":"play","payload":{},"timestamp":1e999}`);
    await expectRefused(res, 'invalid_event', 'timestamp');
  });

  it('POST /v1/webhook/incoming (signed) → 400 validation_error, no event row', async () => {
    const before = await appRowCounts([app.appId]);
    const raw = `{"events":[{"userId":"w1","name":"play","payload":{"deep":[1,{"x":-1e999}]},"timestamp":${Date.now()}}]}`;
    const sent = await sendDelivery(server, app, raw);
    expect(sent.status).toBe(400);
    expect(sent.body).toEqual({ error: 'validation_error', message: 'events[0].payload.deep[1].x: number is out of range (JSON numbers must be finite doubles)' });
    expect(await appRowCounts([app.appId])).toEqual(before);
  });

  it('POST /v1/auth/token → 400 validation_error', async () => {
    const res = await fetch(`${server.url}/v1/auth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: `{"appId":${JSON.stringify(app.appId)},"appSecret":${JSON.stringify(app.appSecret)},"userId":"u","n":1e999}`,
    });
    await expectRefused(res, 'validation_error', 'n');
  });

  it('PUT /api/admin/apps/:appId/catalog with a reward amount of 1e999 → 400, the catalog unchanged', async () => {
    const before = await appRowCounts([app.appId]);
    const res = await admin(
      'PUT',
      `/api/admin/apps/${app.appId}/catalog`,
      `{"missions":[{"id":"m2","title":"M","criteria":{"eventName":"play","count":1},"reward":{"kind":"currency","currency":"gems","amount":1e999}}],"campaigns":[]}`,
    );
    await expectRefused(res, 'validation_error', 'missions[0].reward.amount');
    expect(await appRowCounts([app.appId])).toEqual(before);
  });

  it('POST /api/admin/apps → 400, no app created', async () => {
    const id = uniqueId('num-app');
    const res = await admin('POST', '/api/admin/apps', `{"id":${JSON.stringify(id)},"name":"N","limit":1e999}`);
    await expectRefused(res, 'validation_error', 'limit');
    expect(await rowsNamedBy([id])).toBe(0);
  });

  it('POST /api/admin/staff and rotate-webhook-secret → 400', async () => {
    const email = `${uniqueId('num')}@example.com`;
    await expectRefused(
      await admin('POST', '/api/admin/staff', `{"email":${JSON.stringify(email)},"password":"long-enough-password-1","role":"support","x":1e999}`),
      'validation_error',
      'x',
    );
    expect(await rowsNamedBy([email])).toBe(0);
    await expectRefused(
      await admin('POST', `/api/admin/apps/${app.appId}/rotate-webhook-secret`, '{"gracePeriodSeconds":1e999}'),
      'validation_error',
      'gracePeriodSeconds',
    );
  });
});
