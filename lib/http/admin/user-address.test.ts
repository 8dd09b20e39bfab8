// Users whose ids no path segment carries (`.`, `..`) or that look like a
// route or URL syntax, over real HTTP on the Node server of the route table:
// every admin operation reaches exactly that user (`.` and `..` through
// …/users/by-id?userId=), a dot segment in a path is refused rather than
// resolved into another route, and new `.`/`..` users are refused at token
// issue and at the webhook (docs/api.md, "Addressing a user").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { ADDRESS_CATALOG, eraseUsers, exerciseUsers, expectDotSegmentsRefused } from '@/lib/testing/user-address';
import { sendDelivery, whEvent } from '@/lib/testing/webhook';

let server: TestServer;
let app: TestApp;

beforeAll(async () => {
  server = await startTestServer();
  app = await createTestApp(server, ADDRESS_CATALOG);
});
afterAll(async () => server?.close());

const admin = (method: string, path: string) => fetch(server.url + path, { method, headers: { Authorization: `Bearer ${server.adminKey}` } });

describe('addressing a user in the admin API', () => {
  it('reaches every user, `.` and `..` included, for every operation, and erases each alone', async () => {
    await exerciseUsers(server, app.appId);
    await eraseUsers(server, app.appId);
  });

  it('refuses a dot segment (also as %2E) instead of answering for the route it resolves to', async () => {
    await expectDotSegmentsRefused(server, app.appId);
  });

  it('names the user once: by-id without ?userId= is the user "by-id", a query userId beside another segment is a 400', async () => {
    const both = await admin('GET', `/api/admin/apps/${app.appId}/users/export?userId=..`);
    expect(both.status).toBe(400);
    expect(await both.json()).toMatchObject({ error: 'validation_error', message: expect.stringContaining('by-id') });
    const empty = await admin('GET', `/api/admin/apps/${app.appId}/users/by-id?userId=`);
    expect(empty.status).toBe(400);
  });
});

describe('creating a `.` or `..` user', () => {
  it('is refused at token issue and at the webhook with 400 validation_error naming userId', async () => {
    for (const userId of ['.', '..']) {
      const res = await fetch(`${server.url}/v1/auth/token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ appId: app.appId, appSecret: app.appSecret, userId }) });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'validation_error', message: expect.stringMatching(/userId.*"\.\." /) });
      const event = await sendDelivery(server, app, { events: [whEvent(userId)] });
      expect([event.status, event.body.error, event.body.message]).toEqual([400, 'validation_error', expect.stringContaining('events[0].userId')]);
      const user = await sendDelivery(server, app, { users: [{ userId, attributes: { level: 1 } }] });
      expect([user.status, user.body.error, user.body.message]).toEqual([400, 'validation_error', expect.stringContaining('users[0].userId')]);
    }
    // Three dots is an ordinary id.
    expect((await fetch(`${server.url}/v1/auth/token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ appId: app.appId, appSecret: app.appSecret, userId: '...' }) })).status).toBe(200);
  });
});
