import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, issueToken, startTestServer, userClient, type TestServer } from '@/lib/testing/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const admin = (route: string, body: unknown) =>
  fetch(server.url + route, {
    method: 'POST',
    headers: { Authorization: `Bearer ${server.adminKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

const jtiOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).jti as string;

async function auditActions(appId: string): Promise<string[]> {
  const [{ getDb }, { auditLog }] = await Promise.all([import('@/db/client'), import('@/db/schema')]);
  const rows = await (await getDb()).select().from(auditLog).where(and(eq(auditLog.appId, appId)));
  return rows.map((r) => r.action);
}

describe('admin token revocation and secret rotation', () => {
  it('revoking one jti rejects that token at once and leaves the user’s other tokens working', async () => {
    const app = await createTestApp(server);
    const revoked = await issueToken(server, app, 'u1');
    const kept = await issueToken(server, app, 'u1');
    const res = await admin(`/api/admin/apps/${app.appId}/revocations`, { jti: jtiOf(revoked) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ revoked: true, jti: jtiOf(revoked) });
    const refused = await userClient(server, revoked).get('/v1/balance');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: 'unauthorized', message: 'Token revoked' });
    expect((await userClient(server, kept).get('/v1/balance')).status).toBe(200);
    expect(await auditActions(app.appId)).toContain('token.revoke');
  });

  it('revoking a user rejects every token issued before, not those issued after, nor other users’', async () => {
    const app = await createTestApp(server);
    const before = await issueToken(server, app, 'u2');
    const other = await issueToken(server, app, 'u3');
    expect((await admin(`/api/admin/apps/${app.appId}/revocations`, { userId: 'u2' })).status).toBe(200);
    expect((await userClient(server, before).get('/v1/balance')).status).toBe(401);
    expect((await userClient(server, other).get('/v1/balance')).status).toBe(200);
    const after = await issueToken(server, app, 'u2');
    expect((await userClient(server, after).get('/v1/balance')).status).toBe(200);
    expect(await auditActions(app.appId)).toContain('user.revoke_tokens');
  });

  it('a revocation survives the loss of the key-value store (re-warmed from the database at start-up)', async () => {
    const app = await createTestApp(server);
    const token = await issueToken(server, app, 'u4');
    expect((await userClient(server, token).post('/v1/auth/revoke')).status).toBe(200);
    const [{ getKv }, { warmRevocations, denyKey }, { getDb }] = await Promise.all([import('@/lib/kv'), import('@/lib/auth/revocation'), import('@/db/client')]);
    await getKv().del(denyKey(jtiOf(token)));
    await warmRevocations(await getDb());
    expect((await userClient(server, token).get('/v1/balance')).status).toBe(401);
  });

  it('a revocation survives a flushed key-value store without a restart (re-warmed on first use)', async () => {
    const app = await createTestApp(server);
    const token = await issueToken(server, app, 'u6');
    expect((await userClient(server, token).post('/v1/auth/revoke')).status).toBe(200);
    const [{ getKv }, { denyKey, WARM_MARKER }] = await Promise.all([import('@/lib/kv'), import('@/lib/auth/revocation')]);
    // What a FLUSHALL does to the two keys that matter here.
    await getKv().del(denyKey(jtiOf(token)));
    await getKv().del(WARM_MARKER);
    expect((await userClient(server, token).get('/v1/balance')).status).toBe(401);
    expect(await getKv().get(WARM_MARKER)).not.toBeNull();
  });

  it('a revocation body must name exactly one of jti or userId', async () => {
    const app = await createTestApp(server);
    for (const body of [{}, { jti: '' }, { jti: 'a', userId: 'b' }]) {
      const res = await admin(`/api/admin/apps/${app.appId}/revocations`, body);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe('validation_error');
    }
    expect((await admin('/api/admin/apps/no-such-app/revocations', { jti: 'x' })).status).toBe(404);
  });

  it('rotating the app secret stops the old secret at once and the new one works', async () => {
    const app = await createTestApp(server);
    const res = await admin(`/api/admin/apps/${app.appId}/rotate-secret`, {});
    expect(res.status).toBe(200);
    const { appSecret } = (await res.json()) as { appSecret: string };
    expect(appSecret).not.toBe(app.appSecret);
    const old = await fetch(`${server.url}/v1/auth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ appId: app.appId, appSecret: app.appSecret, userId: 'u5' }),
    });
    expect(old.status).toBe(401);
    expect((await old.json()).error).toBe('invalid_credentials');
    expect(await issueToken(server, { ...app, appSecret }, 'u5')).toMatch(/^ey/);
    expect(await auditActions(app.appId)).toContain('app.rotate_secret');
  });

  it('rotating the app secret ends the app’s tokens issued before it (401 unauthorized), not those issued after, nor other apps’', async () => {
    const app = await createTestApp(server);
    const other = await createTestApp(server);
    const before = await issueToken(server, app, 'r1');
    const otherToken = await issueToken(server, other, 'r1');
    // The token check's cache knows nothing of this user yet: the rotation alone must end the token.
    expect((await userClient(server, before).get('/v1/balance')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 5));
    const { appSecret } = (await (await admin(`/api/admin/apps/${app.appId}/rotate-secret`, {})).json()) as { appSecret: string };

    const refused = await userClient(server, before).get('/v1/balance');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: 'unauthorized', message: 'Token issued before the app secret was rotated' });
    expect((await userClient(server, before).post('/v1/events', { userId: 'r1', name: 'x', payload: {}, timestamp: Date.now() })).status).toBe(401);
    expect((await userClient(server, otherToken).get('/v1/balance')).status).toBe(200);
    const after = await issueToken(server, { ...app, appSecret }, 'r1');
    expect((await userClient(server, after).get('/v1/balance')).status).toBe(200);
  });

  it('a rotation survives a flushed key-value store (re-warmed from the apps table on first use)', async () => {
    const app = await createTestApp(server);
    const before = await issueToken(server, app, 'r2');
    await new Promise((r) => setTimeout(r, 5));
    expect((await admin(`/api/admin/apps/${app.appId}/rotate-secret`, {})).status).toBe(200);
    const [{ getKv }, { WARM_MARKER }, { kvKey }] = await Promise.all([import('@/lib/kv'), import('@/lib/auth/revocation'), import('@/lib/kv/keys')]);
    await getKv().del(kvKey('secret-rotated', app.appId));
    await getKv().del(WARM_MARKER);
    expect((await userClient(server, before).get('/v1/balance')).status).toBe(401);
  });

  it('the token check reads the key-value store once per request (denylist, user cut-off, rotation and marker in one MGET)', async () => {
    const app = await createTestApp(server);
    const token = await issueToken(server, app, 'r3');
    const { getKv } = await import('@/lib/kv');
    const kv = getKv();
    const calls: string[] = [];
    const original = { get: kv.get.bind(kv), mget: kv.mget.bind(kv) };
    kv.get = async (key) => (calls.push(`get ${key}`), original.get(key));
    kv.mget = async (keys) => (calls.push(`mget ${keys.length}`), original.mget(keys));
    try {
      expect((await userClient(server, token).get('/v1/missions')).status).toBe(200);
    } finally {
      kv.get = original.get;
      kv.mget = original.mget;
    }
    expect(calls).toEqual(['mget 4']);
  });
});
