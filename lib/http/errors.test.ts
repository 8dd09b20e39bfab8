// Cross-cutting HTTP contract over real HTTP: X-Request-Id, 404/405 for unknown
// routes and methods, CORS on /v1 (and none on admin), and error bodies that
// never leak internals.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { getDb } from '@/db/client';
import { getKv } from '@/lib/kv';
import { httpFrom } from '@/lib/testing/http-from';
import {
  createTestApp,
  issueToken,
  startTestServer,
  uniqueId,
  userClient,
  type TestApp,
  type TestServer,
} from '@/lib/testing/test-server';

let server: TestServer;
let app: TestApp;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  app = await createTestApp(server);
  token = await issueToken(server, app, uniqueId('user'));
});
afterAll(async () => {
  await server?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function call(method: string, route: string, headers: Record<string, string> = {}, body?: string): Promise<Response> {
  return fetch(server.url + route, { method, headers, body });
}
const bearer = () => ({ Authorization: `Bearer ${token}` });
const admin = () => ({ Authorization: `Bearer ${server.adminKey}` });

function expectErrorShape(body: Record<string, unknown>, code: string): void {
  expect(body.error).toBe(code);
  expect(Object.keys(body).every((k) => k === 'error' || k === 'message')).toBe(true);
  if ('message' in body) expect(typeof body.message).toBe('string');
}

describe('X-Request-Id', () => {
  const cases: [string, () => Promise<Response>, number][] = [
    ['a 200 read', () => call('GET', '/v1/missions', bearer()), 200],
    ['a 200 token issue', () => call('POST', '/v1/auth/token', { 'Content-Type': 'application/json' }, JSON.stringify({ appId: app.appId, appSecret: app.appSecret, userId: 'u' })), 200],
    ['a 400', () => call('POST', '/v1/auth/token', { 'Content-Type': 'application/json' }, '{}'), 400],
    ['a 401', () => call('GET', '/v1/missions'), 401],
    ['a 404 unknown route', () => call('GET', '/v1/does-not-exist'), 404],
    ['a 404 mission', () => call('GET', '/v1/missions/nope', bearer()), 404],
    ['a 405', () => call('DELETE', '/v1/events'), 405],
    ['a 413', () => call('POST', '/v1/events', { ...bearer(), 'Content-Type': 'application/json' }, 'x'.repeat(70_000)), 413],
    ['a CORS preflight', () => call('OPTIONS', '/v1/events', { Origin: 'https://game.example', 'Access-Control-Request-Method': 'POST' }), 204],
    ['an admin 200', () => call('GET', '/api/admin/apps', admin()), 200],
    ['an admin 401', () => call('GET', '/api/admin/apps'), 401],
  ];
  it.each(cases)('is set on %s', async (_name, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.headers.get('x-request-id')).toMatch(UUID);
  });

  it('is a new id per request', async () => {
    const a = await call('GET', '/v1/missions', bearer());
    const b = await call('GET', '/v1/missions', bearer());
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  it.each([
    ['a 200', () => ({ method: 'GET', route: '/v1/missions', headers: bearer() }), 200],
    ['a 401', () => ({ method: 'GET', route: '/v1/missions', headers: {} }), 401],
    ['a 404', () => ({ method: 'GET', route: '/v1/nope', headers: {} }), 404],
    ['a preflight', () => ({ method: 'OPTIONS', route: '/v1/missions', headers: { 'Access-Control-Request-Method': 'GET' } }), 204],
    ['an admin response', () => ({ method: 'GET', route: '/api/admin/apps', headers: admin() }), 200],
  ])("echoes a caller's well-formed X-Request-Id on %s", async (_name, build, status) => {
    const { method, route, headers } = build();
    const id = `trace-${uniqueId('req')}`;
    const res = await call(method, route, { ...headers, 'X-Request-Id': id });
    expect(res.status).toBe(status);
    expect(res.headers.get('x-request-id')).toBe(id);
  });

  it.each([['short'], ['has spaces in it'], ['semi;colons;here'], ['x'.repeat(129)]])(
    'replaces a malformed X-Request-Id (%s) with a generated one',
    async (id) => {
      const res = await call('GET', '/v1/missions', { ...bearer(), 'X-Request-Id': id });
      expect(res.headers.get('x-request-id')).toMatch(UUID);
    },
  );
});

describe('unknown routes and methods', () => {
  it.each([['GET', '/v1/nope'], ['POST', '/v1/missions/a/claim/extra'], ['GET', '/v1'], ['GET', '/v1/missions/x/y'], ['POST', '/v2/events']])(
    'answers %s %s with 404 not_found',
    async (method, route) => {
      const res = await call(method, route, bearer());
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expectErrorShape((await res.json()) as Record<string, unknown>, 'not_found');
    },
  );

  it.each([
    ['DELETE', '/v1/events', 'POST'],
    ['GET', '/v1/events', 'POST'],
    ['GET', '/v1/auth/token', 'POST'],
    ['PUT', '/v1/missions', 'GET'],
    ['POST', '/v1/missions/some-id', 'GET'],
    ['PATCH', '/v1/balance', 'GET'],
  ])('answers %s %s with 405 method_not_allowed and an Allow header listing %s', async (method, route, allowed) => {
    const res = await call(method, route, bearer());
    expect(res.status).toBe(405);
    expectErrorShape((await res.json()) as Record<string, unknown>, 'method_not_allowed');
    expect(res.headers.get('allow')?.split(/,\s*/)).toContain(allowed);
  });

  it('answers the wrong method before authentication (405, not 401, without a token)', async () => {
    const res = await call('DELETE', '/v1/missions');
    expect(res.status).toBe(405);
  });

  it.each([
    ['TRACE', '/v1/missions', 'GET, HEAD, OPTIONS'],
    ['TRACE', '/v1/events', 'POST, OPTIONS'],
    ['TRACE', '/api/admin/apps', 'GET, HEAD, POST'],
    ['PROPFIND', '/api/admin/apps/a/themes/t', 'GET, HEAD, PUT, DELETE'],
    ['PURGE', '/api/health', 'GET, HEAD'],
  ])('answers %s %s (a method outside the table) with 405 and Allow: %s, never a 500 or an error log', async (method, route, allow) => {
    const logged = vi.spyOn(console, 'error');
    const res = await httpFrom('127.0.0.1', server.url + route, { method, headers: bearer() });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe(allow);
    expect(res.headers['x-request-id']).toMatch(UUID);
    expectErrorShape(res.body as Record<string, unknown>, 'method_not_allowed');
    expect((res.body as { message: string }).message).toBe(`Method ${method} is not allowed here`);
    expect(logged.mock.calls.map((c) => String(c[0])).filter((line) => line.includes('"level":"error"'))).toEqual([]);
  });

  it('answers OPTIONS as its Allow header says: 204 listing OPTIONS under /v1, 405 not listing it under /api/admin and the ops paths', async () => {
    const v1 = await call('OPTIONS', '/v1/missions');
    expect(v1.status).toBe(204);
    expect(v1.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    for (const route of ['/api/admin/apps', '/api/admin/apps/a/catalog', '/api/ready']) {
      const res = await call('OPTIONS', route, admin());
      expect(res.status, route).toBe(405);
      const allowed = res.headers.get('allow')!.split(', ');
      expect(allowed, route).not.toContain('OPTIONS');
      expect(allowed, route).toContain('GET');
    }
    // And a 405 for another method lists OPTIONS exactly where OPTIONS answers 204.
    expect((await call('DELETE', '/v1/missions')).headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect((await call('DELETE', '/api/admin/apps', admin())).headers.get('allow')).toBe('GET, HEAD, POST');
  });
});

describe('CORS', () => {
  it.each([
    ['/v1/events', 'POST'],
    ['/v1/auth/token', 'POST'],
    ['/v1/missions', 'GET'],
    ['/v1/missions/some-id/claim', 'POST'],
    ['/v1/sse/updates', 'GET'],
  ])('answers a preflight on %s with 204, Allow-Origin * and Authorization allowed', async (route, method) => {
    const res = await call('OPTIONS', route, {
      Origin: 'https://game.example',
      'Access-Control-Request-Method': method,
      'Access-Control-Request-Headers': 'authorization, content-type, idempotency-key',
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const allowHeaders = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/,\s*/);
    expect(allowHeaders).toEqual(expect.arrayContaining(['authorization', 'content-type', 'idempotency-key']));
    expect((res.headers.get('access-control-allow-methods') ?? '').split(/,\s*/)).toContain(method);
    expect(await res.text()).toBe('');
  });

  it.each([
    ['a 200', () => call('GET', '/v1/missions', { ...bearer(), Origin: 'https://game.example' }), 200],
    ['a 401', () => call('GET', '/v1/missions', { Origin: 'https://game.example' }), 401],
    ['a 404', () => call('GET', '/v1/nope', { Origin: 'https://game.example' }), 404],
    ['a 405', () => call('DELETE', '/v1/events', { Origin: 'https://game.example' }), 405],
    [
      'a token issue',
      () =>
        call('POST', '/v1/auth/token', { Origin: 'https://x.example', 'Content-Type': 'application/json' }, JSON.stringify({ appId: app.appId, appSecret: app.appSecret, userId: 'u' })),
      200,
    ],
  ])('puts Access-Control-Allow-Origin * on %s of /v1', async (_name, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('exposes the headers a browser client must read (X-Request-Id, X-Idempotent-Replay, Retry-After, RateLimit-*)', async () => {
    const res = await call('GET', '/v1/missions', { ...bearer(), Origin: 'https://game.example' });
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/,\s*/);
    expect(exposed).toEqual(
      expect.arrayContaining(['x-request-id', 'x-idempotent-replay', 'retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']),
    );
  });

  it('puts no CORS headers on admin routes (responses, errors or preflights)', async () => {
    const responses = [
      await call('GET', '/api/admin/apps', { ...admin(), Origin: 'https://evil.example' }),
      await call('GET', '/api/admin/apps', { Origin: 'https://evil.example' }),
      await call('OPTIONS', '/api/admin/apps', { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization' }),
      await call('GET', `/api/admin/apps/${app.appId}/catalog`, { ...admin(), Origin: 'https://evil.example' }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 401, 405, 200]);
    for (const res of responses) {
      for (const name of ['access-control-allow-origin', 'access-control-allow-headers', 'access-control-allow-methods']) {
        expect(res.headers.get(name)).toBeNull();
      }
    }
  });

  it('never accepts an app JWT on the admin API', async () => {
    const res = await call('GET', '/api/admin/apps', bearer());
    expect(res.status).toBe(401);
  });
});

describe('errors never leak internals', () => {
  it('answers an unexpected failure with 500 internal_error: no stack, no SQL, no internal message', async () => {
    const internal = new Error('select "jti" from "revoked_tokens" where "app_id" = $1: relation does not exist');
    vi.spyOn(getKv(), 'mget').mockRejectedValueOnce(internal);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const res = await call('GET', '/v1/missions', bearer());
    expect(res.status).toBe(500);
    // The detail goes to the server log under the request id the client can quote.
    const line = logged.mock.calls.map((c) => String(c[0])).find((l) => l.includes(res.headers.get('x-request-id')!));
    expect(line).toContain('revoked_tokens');
    const text = await res.text();
    const body = JSON.parse(text) as Record<string, unknown>;
    expectErrorShape(body, 'internal_error');
    expect(text).not.toMatch(/select|revoked_tokens|relation|\$1/i);
    expect(text).not.toMatch(/\bat .*\(|\.ts:\d+|node_modules|Error:/);
    expect(res.headers.get('x-request-id')).toMatch(UUID);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('checks revocations against the database while the key-value store is down (no 503 for that alone)', async () => {
    const down = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' });
    vi.spyOn(getKv(), 'mget').mockRejectedValueOnce(down);
    expect((await call('GET', '/v1/missions', bearer())).status).toBe(200);
  });

  it('answers a dependency that is down with 503 unavailable and no internal detail', async () => {
    const down = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' });
    // The store and then the database (the revocation check's fallback) refuse the connection.
    vi.spyOn(getKv(), 'mget').mockRejectedValueOnce(down);
    vi.spyOn(await getDb(), 'select').mockImplementationOnce(() => {
      throw down;
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const res = await call('GET', '/v1/missions', bearer());
    expect(res.status).toBe(503);
    // Transient: the client is told when to send again.
    expect(res.headers.get('retry-after')).toBe('1');
    const text = await res.text();
    expectErrorShape(JSON.parse(text) as Record<string, unknown>, 'unavailable');
    expect(text).not.toMatch(/ECONNREFUSED|6379|127\.0\.0\.1/);
  });

  it('recovers after the failure: the next request succeeds', async () => {
    vi.spyOn(getKv(), 'mget').mockRejectedValueOnce(new Error('boom'));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect((await call('GET', '/v1/missions', bearer())).status).toBe(500);
    expect((await call('GET', '/v1/missions', bearer())).status).toBe(200);
  });

  it('answers a validation failure with a message naming the field but no internals', async () => {
    const res = await userClient(server, token).get('/v1/missions?limit=1000');
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; message: string };
    expectErrorShape(body as unknown as Record<string, unknown>, 'validation_error');
    expect(body.message).toContain('limit');
    expect(body.message).not.toMatch(/ZodError|\bat |\.ts:/);
  });
});

describe('text PostgreSQL cannot store, in a path or query', () => {
  it.each([
    ['a query value', () => fetch(`${server.url}/v1/balance?currency=%00`, { headers: bearer() }), 'currency:'],
    ['a path parameter with an idempotency key', () => fetch(`${server.url}/v1/missions/%00/claim`, { method: 'POST', headers: { ...bearer(), 'Idempotency-Key': 'nul-1' } }), 'path parameter id:'],
    ['an admin path parameter', () => fetch(`${server.url}/api/admin/apps/%00/catalog`, { headers: admin() }), 'path parameter appId:'],
  ] as const)('answers 400 validation_error for NUL in %s, not a 500', async (_what, send, prefix) => {
    const res = await send();
    const body = (await res.json()) as { error: string; message: string };
    expect(res.status).toBe(400);
    expect(body.error).toBe('validation_error');
    expect(body.message.startsWith(prefix)).toBe(true);
  });
});
