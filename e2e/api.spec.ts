// The production build and a real browser: the same contract as the Vitest
// suite, once through `npm start` (the custom server's route table) and once
// through `next start` (the Next.js route files and proxy.ts): see the two
// projects of playwright.config.ts.
import { expect, test, type APIRequestContext } from '@playwright/test';
import { MALFORMED_PATHS } from '../lib/testing/malformed-paths';

const ADMIN = { Authorization: 'Bearer e2e-admin-key-0123456789abcdef' };

async function setUp(request: APIRequestContext) {
  const appId = `e2e-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const created = await request.post('/api/admin/apps', { headers: ADMIN, data: { id: appId, name: 'E2E game' } });
  expect(created.status()).toBe(201);
  const { appSecret } = await created.json();
  const put = await request.put(`/api/admin/apps/${appId}/catalog`, {
    headers: ADMIN,
    data: {
      missions: [
        { id: 'win-one', title: 'Win one', criteria: { eventName: 'match_won', count: 1 }, reward: { kind: 'currency', currency: 'gems', amount: 25 } },
      ],
    },
  });
  expect(put.status()).toBe(200);
  const token = await request.post('/v1/auth/token', { data: { appId, appSecret, userId: 'player-1' } });
  expect(token.status()).toBe(200);
  return { appId, accessToken: (await token.json()).accessToken as string };
}

test('the walkthrough works: token, event, missions, claim, balance', async ({ request }) => {
  const { accessToken } = await setUp(request);
  const auth = { Authorization: `Bearer ${accessToken}` };
  const event = await request.post('/v1/events', {
    headers: auth,
    data: { userId: 'player-1', name: 'match_won', payload: {}, timestamp: Date.now() },
  });
  expect(event.status()).toBe(200);
  expect(event.headers()['x-request-id']).toBeTruthy();
  expect((await event.json()).missionsUpdated).toEqual(['win-one']);
  expect((await event.json()).accepted).toBe(true);

  const missions = await (await request.get('/v1/missions', { headers: auth })).json();
  expect(missions.progress['win-one'].status).toBe('completed');
  expect(missions.nextCursor).toBeNull();

  const claim = await request.post('/v1/missions/win-one/claim', { headers: auth });
  expect(claim.status()).toBe(200);
  expect((await claim.json()).balance.amount).toBe(25);

  const balance = await (await request.get('/v1/balance?currency=gems', { headers: auth })).json();
  expect(balance.balance).toMatchObject({ userId: 'player-1', currency: 'gems', amount: 25 });
});

test('the served OpenAPI document carries its component schemas', async ({ request }) => {
  const res = await request.get('/v1/openapi.json');
  expect(res.status()).toBe(200);
  const doc = await res.json();
  expect(doc.openapi).toBe('3.1.0');
  for (const name of ['Mission', 'MissionProgress', 'Campaign', 'Balance', 'SDKUpdate', 'Error', 'EventResponse']) {
    expect(doc.components.schemas[name], name).toBeTruthy();
  }
});

test('unknown /v1 routes and wrong methods answer in the error shape', async ({ request }) => {
  const unknown = await request.get('/v1/nope');
  expect(unknown.status()).toBe(404);
  expect(await unknown.json()).toMatchObject({ error: 'not_found' });
  const wrong = await request.delete('/v1/events');
  expect(wrong.status()).toBe(405);
  expect(await wrong.json()).toMatchObject({ error: 'method_not_allowed' });
});

test('a CORS preflight (proxy.ts under next start) allows Authorization from any origin', async ({ request }) => {
  const res = await request.fetch('/v1/events', {
    method: 'OPTIONS',
    headers: { Origin: 'https://game.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' },
  });
  expect(res.status()).toBe(204);
  expect(res.headers()['access-control-allow-origin']).toBe('*');
  expect(res.headers()['access-control-allow-headers']).toMatch(/Authorization/);
});

test('a browser page on another origin calls the API with a bearer token', async ({ page, request, baseURL }) => {
  const { accessToken } = await setUp(request);
  // 127.0.0.1 and localhost are different origins: the call below is cross-origin.
  await page.goto(baseURL!.replace('127.0.0.1', 'localhost') + '/');
  const result = await page.evaluate(
    async ({ api, token }) => {
      const res = await fetch(`${api}/v1/missions`, { headers: { Authorization: `Bearer ${token}` } });
      return { status: res.status, requestId: res.headers.get('x-request-id'), body: await res.json() };
    },
    { api: baseURL!, token: accessToken },
  );
  expect(result.status).toBe(200);
  expect(result.requestId).toBeTruthy();
  expect(result.body.missions.map((m: { id: string }) => m.id)).toEqual(['win-one']);
});

test('a path with a malformed percent-escape answers 400 validation_error in the error shape, never a bare 500', async ({ request }) => {
  for (const [method, path] of MALFORMED_PATHS) {
    const res = await request.fetch(path, { method, headers: path.startsWith('/api/admin') ? ADMIN : {} });
    expect(res.status(), `${method} ${path}`).toBe(400);
    expect(await res.json(), `${method} ${path}`).toEqual({ error: 'validation_error', message: `path ${path}: malformed percent-escape` });
    expect(res.headers()['x-request-id'], `${method} ${path}`).toBeTruthy();
    expect(res.headers()['access-control-allow-origin'], `${method} ${path}`).toBe(path.startsWith('/api/admin') ? undefined : '*');
  }
});

test('an unknown /api/admin path answers 404 not_found in the error shape', async ({ request }) => {
  const res = await request.get('/api/admin/nope', { headers: ADMIN });
  expect(res.status()).toBe(404);
  expect(await res.json()).toMatchObject({ error: 'not_found' });
});

test('the home page is rendered by Next.js', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle(/Questline/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});
