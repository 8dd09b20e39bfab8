// GET /v1/openapi.json: an OpenAPI 3.1 document that documents every /v1 route
// of the route table, and whose schemas accept the service's REAL responses.
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, type ErrorCode } from '@/lib/contract/errors';
import { v1Routes } from '@/lib/http/routes';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { campaign, mission, newUser, type TestUser } from '@/lib/testing/fixtures';
import { sendDelivery } from '@/lib/testing/webhook';

interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
  components: { schemas: Record<string, unknown> };
}

const DOC_ID = 'https://questline.test/openapi.json';

let server: TestServer;
let doc: OpenApiDoc;
let ajv: Ajv2020;
let app: TestApp;
let user: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  const res = await fetch(`${server.url}/v1/openapi.json`);
  expect(res.status).toBe(200);
  doc = (await res.json()) as OpenApiDoc;
  // The components as one schema resource, so `#/components/schemas/X` refs resolve inside it.
  ajv = new Ajv2020({ strict: true, allErrors: true });
  ajv.addKeyword('components'); // a container, not a validation keyword
  ajv.addSchema({ $id: DOC_ID, components: doc.components }, DOC_ID);
  const now = Date.now();
  app = await createTestApp(server, {
    campaigns: [campaign('c1', { theme: { primaryColor: '#123456' } }), campaign('c2', { startAt: now + 1000_000, endAt: now + 2000_000 })],
    missions: [
      mission('gems', { campaignId: 'c1', iconUrl: 'https://x/i.png' }),
      mission('badge', { reward: { kind: 'badge', badgeId: 'b1' }, criteria: { eventName: 'play', count: 1, filter: { level: { gte: 1 } } } }),
      mission('item', { reward: { kind: 'item', itemId: 'sword', quantity: 1 }, criteria: { eventName: 'play', count: 3, window: 'daily' }, expiresAt: now + 1000_000 }),
      mission('locked', { prerequisites: ['gems'], criteria: { eventName: 'x', count: 1 } }),
    ],
  });
  user = await newUser(server, app);
});
afterAll(async () => {
  await server?.close();
});

/** The schema of a documented response, compiled against the components. */
function responseValidator(path: string, method: string, status: string): ValidateFunction {
  const operation = doc.paths[path]?.[method];
  expect(operation, `${method.toUpperCase()} ${path} is documented`).toBeDefined();
  const schema = operation.responses[status]?.content?.['application/json']?.schema;
  expect(schema, `${method.toUpperCase()} ${path} documents a ${status} JSON body`).toBeDefined();
  // Rewrite local refs onto the components resource.
  const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${DOC_ID}#/components/`));
  return ajv.compile(rebased);
}

async function expectConforms(res: Response, path: string, method: string): Promise<unknown> {
  const body: unknown = await res.json();
  const validate = responseValidator(path, method, String(res.status));
  const ok = validate(body);
  expect(ok, `${method.toUpperCase()} ${path} ${res.status}: ${JSON.stringify(validate.errors)}\n${JSON.stringify(body)}`).toBe(true);
  return body;
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with components that compile as JSON Schema 2020-12', () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    for (const name of Object.keys(doc.components.schemas)) {
      expect(() => ajv.getSchema(`${DOC_ID}#/components/schemas/${name}`), name).not.toThrow();
      expect(ajv.getSchema(`${DOC_ID}#/components/schemas/${name}`), name).toBeDefined();
    }
  });

  it('gives component schemas no $id of their own (2020-12 forbids a fragment in $id; refs resolve in the document)', () => {
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      expect(schema, name).not.toHaveProperty('$id');
      expect(JSON.stringify(schema), name).not.toMatch(/"\$ref":"(?!#\/components\/schemas\/)/);
    }
  });

  it('documents every path and method of v1Routes', () => {
    for (const route of v1Routes) {
      const path = route.path.replace(/:([A-Za-z]+)/g, '{$1}');
      expect(doc.paths, path).toHaveProperty([path]);
      for (const method of Object.keys(route.handlers)) expect(doc.paths[path], `${method} ${path}`).toHaveProperty([method.toLowerCase()]);
    }
  });

  it('derives every error answer from the error table: it names only codes of its own status', () => {
    let answers = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, answer] of Object.entries(operation.responses as Record<string, { description: string }>)) {
          if (Number(status) < 400) continue;
          const codes = [...answer.description.matchAll(/`(\w+)`/g)].map((m) => m[1]);
          expect(codes.length, `${method} ${path} ${status}`).toBeGreaterThan(0);
          for (const code of codes) expect(ERRORS[code as ErrorCode]?.status, `${method} ${path} ${status} ${code}`).toBe(Number(status));
          answers += 1;
        }
      }
    }
    expect(answers).toBeGreaterThan(20);
  });

  it('documents no path that the route table does not serve', () => {
    const served = new Set(v1Routes.map((r) => r.path.replace(/:([A-Za-z]+)/g, '{$1}')));
    for (const path of Object.keys(doc.paths)) expect(served.has(path), path).toBe(true);
  });
});

describe('real responses conform to the documented schemas', () => {
  it('POST /v1/auth/token', async () => {
    const res = await fetch(`${server.url}/v1/auth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ appId: app.appId, appSecret: app.appSecret, userId: 'someone' }),
    });
    expect(res.status).toBe(200);
    await expectConforms(res, '/v1/auth/token', 'post');
  });

  it('POST /v1/events, GET /v1/missions and GET /v1/missions/:id (with and without progress)', async () => {
    const ev = await user.client.post('/v1/events', { userId: user.userId, name: 'play', payload: { level: 2 }, timestamp: Date.now() });
    expect(ev.status).toBe(200);
    await expectConforms(ev, '/v1/events', 'post');

    const list = await user.client.get('/v1/missions?include=expired');
    expect(list.status).toBe(200);
    const body = (await expectConforms(list, '/v1/missions', 'get')) as { progress: Record<string, unknown> };
    expect(Object.keys(body.progress).length).toBeGreaterThan(0);

    const paged = await user.client.get('/v1/missions?limit=1');
    expect(((await expectConforms(paged, '/v1/missions', 'get')) as { nextCursor: unknown }).nextCursor).toEqual(expect.any(String));

    for (const id of ['gems', 'item', 'locked']) {
      const res = await user.client.get(`/v1/missions/${id}`);
      expect(res.status).toBe(200);
      await expectConforms(res, '/v1/missions/{id}', 'get');
    }
  });

  it('POST /v1/missions/:id/claim (currency, badge), GET /v1/balance (list and single)', async () => {
    await user.client.post('/v1/events', { userId: user.userId, name: 'play', payload: { level: 2 }, timestamp: Date.now() });
    for (const id of ['gems', 'badge']) {
      const res = await user.claim(id);
      expect(res.status).toBe(200);
      await expectConforms(res, '/v1/missions/{id}/claim', 'post');
    }
    const list = await user.client.get('/v1/balance');
    expect(list.status).toBe(200);
    await expectConforms(list, '/v1/balance', 'get');
    const single = await user.client.get('/v1/balance?currency=gems');
    expect(single.status).toBe(200);
    await expectConforms(single, '/v1/balance', 'get');
  });

  it('GET /v1/campaigns and GET /v1/campaigns/:id (plain and with missions)', async () => {
    const list = await user.client.get('/v1/campaigns');
    expect(list.status).toBe(200);
    await expectConforms(list, '/v1/campaigns', 'get');
    for (const q of ['', '?include=missions']) {
      const res = await user.client.get(`/v1/campaigns/c1${q}`);
      expect(res.status).toBe(200);
      await expectConforms(res, '/v1/campaigns/{id}', 'get');
    }
  });

  it('POST /v1/webhook/incoming (applied, and its 400 and 401)', async () => {
    const at = Date.now();
    const sent = await sendDelivery(server, app, { events: [{ userId: 'hooked', name: 'play', payload: { level: 1 }, timestamp: at }, { userId: 'other', name: 'x', payload: {}, timestamp: at }] });
    expect(sent.status).toBe(200);
    const validate = responseValidator('/v1/webhook/incoming', 'post', '200');
    expect(validate(sent.body), JSON.stringify(validate.errors)).toBe(true);
    const bad = await sendDelivery(server, app, { events: [] });
    expect(bad.status).toBe(400);
    expect(responseValidator('/v1/webhook/incoming', 'post', '400')(bad.body)).toBe(true);
    const unsigned = await sendDelivery(server, app, { events: [] }, { secret: 'wrong' });
    expect(unsigned.status).toBe(401);
    expect(responseValidator('/v1/webhook/incoming', 'post', '401')(unsigned.body)).toBe(true);
  });

  it('GET /v1/recommendations', async () => {
    const res = await user.client.get('/v1/recommendations?limit=10');
    expect(res.status).toBe(200);
    await expectConforms(res, '/v1/recommendations', 'get');
  });

  it('error bodies: 404, 409, 400 and 401', async () => {
    const notFound = await user.client.get('/v1/missions/nope');
    expect(notFound.status).toBe(404);
    await expectConforms(notFound, '/v1/missions/{id}', 'get');
    const notReady = await user.claim('locked');
    expect(notReady.status).toBe(409);
    await expectConforms(notReady, '/v1/missions/{id}/claim', 'post');
    const bad = await user.client.get('/v1/missions?limit=0');
    expect(bad.status).toBe(400);
    await expectConforms(bad, '/v1/missions', 'get');
    const unauth = await fetch(`${server.url}/v1/balance`);
    expect(unauth.status).toBe(401);
    await expectConforms(unauth, '/v1/balance', 'get');
    const noBalance = await user.client.get('/v1/balance?currency=none');
    expect(noBalance.status).toBe(404);
    await expectConforms(noBalance, '/v1/balance', 'get');
  });

  it('a schema rejects a body that breaks it (the validation is not vacuous)', () => {
    const validate = responseValidator('/v1/missions/{id}/claim', 'post', '200');
    expect(validate({ progress: { userId: 'u', missionId: 'm', status: 'claimed', progress: 1, currentCount: 1, targetCount: 1, updatedAt: 1 }, balance: null, reward: { kind: 'badge', badgeId: 'b' }, rewards: [{ kind: 'badge', badgeId: 'b' }], balances: [] })).toBe(true);
    expect(validate({ progress: { userId: 'u', missionId: 'm', status: 'done', progress: 1, currentCount: 1, targetCount: 1, updatedAt: 1 }, balance: null, reward: { kind: 'badge', badgeId: 'b' }, rewards: [{ kind: 'badge', badgeId: 'b' }], balances: [] })).toBe(false);
    expect(validate({ progress: { userId: 'u', missionId: 'm', status: 'claimed', progress: 1, currentCount: 1, targetCount: 1, updatedAt: 1 }, reward: { kind: 'gold' } })).toBe(false);
  });
});
