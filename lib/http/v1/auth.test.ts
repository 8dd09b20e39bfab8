// HTTP contract of POST /v1/auth/token, POST /v1/auth/revoke and bearer-token
// rejection, over real HTTP against the in-process service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { randomUUID } from 'node:crypto';
import {
  createTestApp,
  issueToken,
  startTestServer,
  uniqueId,
  userClient,
  type TestApp,
  type TestServer,
} from '@/lib/testing/test-server';
import { freshWindowInProcess } from '@/lib/testing/rate-window';

let server: TestServer;
let app: TestApp;
const MISSION = { id: 'm-first', title: 'First', criteria: { eventName: 'win', count: 1 }, reward: { kind: 'currency' as const, currency: 'gold', amount: 5 } };

beforeAll(async () => {
  server = await startTestServer();
  app = await createTestApp(server, { missions: [MISSION] });
});
afterAll(async () => {
  await server?.close();
});

const secretKey = () => new TextEncoder().encode(process.env.JWT_SECRET!);

function postToken(body: unknown, raw = false): Promise<Response> {
  return fetch(`${server.url}/v1/auth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: raw ? (body as string) : JSON.stringify(body),
  });
}


function expectUnauthorizedBody(body: Record<string, unknown>): void {
  expect(body.error).toBe('unauthorized');
  expect(Object.keys(body).every((k) => k === 'error' || k === 'message')).toBe(true);
  if ('message' in body) expect(typeof body.message).toBe('string');
}

async function signToken(claims: Record<string, unknown>, opts: { key?: Uint8Array; alg?: string; exp?: number } = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: opts.alg ?? 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(opts.exp ?? now + 3600)
    .sign(opts.key ?? secretKey());
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('POST /v1/auth/token', () => {
  it('issues {accessToken, tokenType: Bearer, expiresIn: 3600, expiresAt} for a right secret', async () => {
    const before = Date.now();
    const res = await postToken({ appId: app.appId, appSecret: app.appSecret, userId: 'alice' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['accessToken', 'expiresAt', 'expiresIn', 'tokenType']);
    expect(body.tokenType).toBe('Bearer');
    expect(body.expiresIn).toBe(3600);
    expect(typeof body.accessToken).toBe('string');
    expect(typeof body.expiresAt).toBe('number');
    expect(body.expiresAt as number).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 3600_000);
    expect(body.expiresAt as number).toBeLessThanOrEqual(Date.now() + 3600_000 + 1000);
  });

  it('signs an HS256 JWT with sub = userId, app = appId, a unique jti and exp = iat + 3600 = expiresAt/1000', async () => {
    const userId = uniqueId('user');
    const one = (await (await postToken({ appId: app.appId, appSecret: app.appSecret, userId })).json()) as { accessToken: string; expiresAt: number };
    const two = (await (await postToken({ appId: app.appId, appSecret: app.appSecret, userId })).json()) as { accessToken: string };
    const header = decodeProtectedHeader(one.accessToken);
    expect(header.alg).toBe('HS256');
    const claims = decodeJwt(one.accessToken);
    expect(claims.sub).toBe(userId);
    expect(claims.app).toBe(app.appId);
    expect(typeof claims.jti).toBe('string');
    expect((claims.jti as string).length).toBeGreaterThan(0);
    expect(typeof claims.iat).toBe('number');
    expect(claims.exp).toBe(claims.iat! + 3600);
    expect(one.expiresAt).toBe(claims.exp! * 1000);
    expect(decodeJwt(two.accessToken).jti).not.toBe(claims.jti);
  });

  it.each([
    ['appId', { appSecret: 'x', userId: 'u' }],
    ['appSecret', { appId: 'a', userId: 'u' }],
    ['userId', { appId: 'a', appSecret: 'x' }],
    ['userId', { appId: 'a', appSecret: 'x', userId: 42 }],
    ['appId', { appId: '', appSecret: 'x', userId: 'u' }],
    ['appId', { appId: 'a\u0000', appSecret: 'x', userId: 'u' }],
    ['userId', { appId: 'a', appSecret: 'x', userId: 'u\ud800' }],
  ])('answers 400 validation_error naming the field %s for a bad body shape', async (field, body) => {
    const res = await postToken(body);
    expect(res.status).toBe(400);
    const json = (await res.json()) as { error: string; message: string };
    expect(json.error).toBe('validation_error');
    expect(json.message).toContain(field);
  });

  it.each([
    ['malformed JSON', '{"appId": '],
    ['an empty body', ''],
    ['a JSON array', '[]'],
  ])('answers 400 validation_error for %s', async (_name, raw) => {
    const res = await postToken(raw, true);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('validation_error');
  });

  it('answers an unknown app and a wrong secret with the same 401 invalid_credentials', async () => {
    const wrong = await postToken({ appId: app.appId, appSecret: app.appSecret + 'x', userId: 'u' });
    const unknown = await postToken({ appId: uniqueId('no-such-app'), appSecret: app.appSecret, userId: 'u' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const a = await wrong.json();
    const b = await unknown.json();
    expect(a).toEqual({ error: 'invalid_credentials', message: expect.any(String) as string });
    expect(b).toEqual(a);
  });

  it('refuses with 429 rate_limited after 10 failures per 60 s per (appId, IP), even with the right secret; other apps are unaffected', async () => {
    const target = await createTestApp(server);
    const other = await createTestApp(server);
    freshWindowInProcess(20_000);
    for (let i = 0; i < 10; i++) {
      const res = await postToken({ appId: target.appId, appSecret: 'wrong-secret', userId: 'u' });
      expect(res.status, `failure ${i + 1}`).toBe(401);
    }
    for (const secret of ['wrong-secret', target.appSecret]) {
      const res = await postToken({ appId: target.appId, appSecret: secret, userId: 'u' });
      expect(res.status).toBe(429);
      const body = (await res.json()) as { error: string; retryAfterMs: number };
      expect(body.error).toBe('rate_limited');
      expect(Number.isInteger(body.retryAfterMs)).toBe(true);
      expect(body.retryAfterMs).toBeGreaterThan(0);
      expect(body.retryAfterMs).toBeLessThanOrEqual(60_000);
      expect(res.headers.get('retry-after')).toBe(String(Math.ceil(body.retryAfterMs / 1000)));
      expect(res.headers.get('ratelimit-limit')).toBe('10');
      expect(res.headers.get('ratelimit-remaining')).toBe('0');
      expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    }
    // Another app from the same IP: its own budget.
    expect((await postToken({ appId: other.appId, appSecret: other.appSecret, userId: 'u' })).status).toBe(200);
    expect((await postToken({ appId: other.appId, appSecret: 'wrong-secret', userId: 'u' })).status).toBe(401);
  });

  it('holds the cap of 10 under 15 concurrent wrong secrets: exactly 10 answer 401, 5 answer 429', async () => {
    const target = await createTestApp(server);
    freshWindowInProcess(20_000);
    const statuses = await Promise.all(
      Array.from({ length: 15 }, () => postToken({ appId: target.appId, appSecret: 'wrong-secret', userId: 'u' }).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
  });

  it('counts failures for an unknown appId too (10 then 429)', async () => {
    const appId = uniqueId('ghost-app');
    freshWindowInProcess(20_000);
    for (let i = 0; i < 10; i++) expect((await postToken({ appId, appSecret: 's', userId: 'u' })).status).toBe(401);
    expect((await postToken({ appId, appSecret: 's', userId: 'u' })).status).toBe(429);
  });

  it('never limits successful issuance (30 in a row) and successes do not count as failures', async () => {
    const target = await createTestApp(server);
    freshWindowInProcess(30_000);
    for (let i = 0; i < 9; i++) expect((await postToken({ appId: target.appId, appSecret: 'nope', userId: 'u' })).status).toBe(401);
    const results = [];
    for (let i = 0; i < 30; i++) results.push((await postToken({ appId: target.appId, appSecret: target.appSecret, userId: `u${i}` })).status);
    expect(results).toEqual(Array(30).fill(200));
    // The 10th failure is still allowed (the 30 successes consumed nothing); the 11th attempt is refused.
    expect((await postToken({ appId: target.appId, appSecret: 'nope', userId: 'u' })).status).toBe(401);
    expect((await postToken({ appId: target.appId, appSecret: target.appSecret, userId: 'u' })).status).toBe(429);
  });
});

describe('POST /v1/auth/revoke', () => {
  it('revokes the presented token: 200 {revoked: true}, then 401 unauthorized everywhere, while another token of the user still works', async () => {
    const userId = uniqueId('user');
    const revoked = await issueToken(server, app, userId);
    const kept = await issueToken(server, app, userId);
    const a = userClient(server, revoked);
    const b = userClient(server, kept);
    expect((await a.get('/v1/missions')).status).toBe(200);

    const res = await a.post('/v1/auth/revoke');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ revoked: true });

    const event = { userId, name: 'win', payload: {}, timestamp: Date.now() };
    for (const r of [
      await a.get('/v1/missions'),
      await a.get(`/v1/missions/${MISSION.id}`),
      await a.get('/v1/balance'),
      await a.post('/v1/events', event),
      await a.post(`/v1/missions/${MISSION.id}/claim`),
      await a.post('/v1/auth/revoke'),
    ]) {
      expect(r.status).toBe(401);
      expectUnauthorizedBody((await r.json()) as Record<string, unknown>);
    }
    expect((await b.get('/v1/missions')).status).toBe(200);
    expect((await b.post('/v1/events', event)).status).toBe(200);
  });

  it('requires a bearer token (401 unauthorized without one)', async () => {
    const res = await fetch(`${server.url}/v1/auth/revoke`, { method: 'POST' });
    expect(res.status).toBe(401);
    expectUnauthorizedBody((await res.json()) as Record<string, unknown>);
  });
});

describe('bearer token rejection', () => {
  async function callWith(authorization: string | null): Promise<Response> {
    return fetch(`${server.url}/v1/missions`, { headers: authorization === null ? {} : { Authorization: authorization } });
  }
  async function expectRejected(authorization: string | null): Promise<void> {
    const res = await callWith(authorization);
    expect(res.status).toBe(401);
    expectUnauthorizedBody((await res.json()) as Record<string, unknown>);
    // The same token is refused on a write too, and nothing is stored.
    const write = await fetch(`${server.url}/v1/events`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(authorization === null ? {} : { Authorization: authorization }) },
      body: JSON.stringify({ userId: 'u', name: 'win', payload: {}, timestamp: Date.now() }),
    });
    expect(write.status).toBe(401);
    expectUnauthorizedBody((await write.json()) as Record<string, unknown>);
  }

  const full = () => ({ sub: uniqueId('user'), app: app.appId, jti: randomUUID() });

  it('accepts a well-formed token signed by the test helper (control for the cases below)', async () => {
    const token = await signToken(full());
    expect((await callWith(`Bearer ${token}`)).status).toBe(200);
  });

  it('rejects a missing Authorization header with 401 unauthorized', async () => {
    await expectRejected(null);
  });

  it.each([['Bearer not-a-jwt'], ['Bearer a.b.c'], ['Bearer '], ['Basic dXNlcjpwYXNz'], ['Token abc']])(
    'rejects a malformed Authorization header (%s) with 401 unauthorized',
    async (header) => {
      await expectRejected(header);
    },
  );

  it('rejects a token whose scheme is right but whose issued token is truncated', async () => {
    const token = await issueToken(server, app, 'someone');
    await expectRejected(`Bearer ${token.slice(0, -3)}`);
  });

  it('rejects an expired token with 401 unauthorized', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT(full())
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(secretKey());
    await expectRejected(`Bearer ${token}`);
  });

  it('rejects an unsigned token (alg: none) with 401 unauthorized', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...full(), iat: now, exp: now + 3600 })}.`;
    await expectRejected(`Bearer ${token}`);
  });

  it('rejects a token signed with another key with 401 unauthorized', async () => {
    const token = await signToken(full(), { key: new TextEncoder().encode('another-secret-that-is-long-enough-0123456789') });
    await expectRejected(`Bearer ${token}`);
  });

  it('rejects a token signed with the right key but another algorithm (HS512) with 401 unauthorized', async () => {
    const token = await signToken(full(), { alg: 'HS512' });
    await expectRejected(`Bearer ${token}`);
  });

  it.each([['jti'], ['sub'], ['app']])('rejects a token without the %s claim with 401 unauthorized', async (claim) => {
    const claims: Record<string, unknown> = full();
    delete claims[claim];
    await expectRejected(`Bearer ${await signToken(claims)}`);
  });

  it('rejects a token without exp with 401 unauthorized', async () => {
    const token = await new SignJWT(full()).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().sign(secretKey());
    await expectRejected(`Bearer ${token}`);
  });

  it("a token of another app cannot see or change the first app's data", async () => {
    const userId = uniqueId('user');
    const otherApp = await createTestApp(server);
    const mine = userClient(server, await issueToken(server, app, userId));
    const foreign = userClient(server, await issueToken(server, otherApp, userId));

    const seen = await foreign.get(`/v1/missions/${MISSION.id}`);
    expect(seen.status).toBe(404);
    expect(((await seen.json()) as { error: string }).error).toBe('mission_not_found');
    const list = (await (await foreign.get('/v1/missions')).json()) as { missions: { id: string }[] };
    expect(list.missions).toEqual([]);

    // The other app's token posts the qualifying event and tries to claim: nothing changes in the first app.
    expect((await foreign.post('/v1/events', { userId, name: 'win', payload: {}, timestamp: Date.now() })).status).toBe(200);
    expect((await foreign.post(`/v1/missions/${MISSION.id}/claim`)).status).toBe(404);
    const detail = (await (await mine.get(`/v1/missions/${MISSION.id}`)).json()) as { progress: unknown };
    expect(detail.progress).toBeNull();
    expect(((await (await mine.get('/v1/balance')).json()) as { balances: unknown[] }).balances).toEqual([]);
  });
});
