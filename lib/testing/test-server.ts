// Test support: the real service on a real port (the plain Node server over
// the same handlers), on the embedded PGlite in a fresh directory, or on the
// PostgreSQL/Redis named by DATABASE_URL/REDIS_URL when set.
import type { AddressInfo } from 'node:net';
import { prepareTestEnv, uniqueId } from './test-env';
import type { CatalogInput } from './types';

// The server-less part lives in ./test-env (a file importing only it stays in the fast tier).
export { prepareTestEnv, TEST_ADMIN_KEY, uniqueId } from './test-env';

export interface TestServer {
  url: string;
  adminKey: string;
  close(): Promise<void>;
}

export async function startTestServer(): Promise<TestServer> {
  prepareTestEnv('started');
  const [{ boot }, { createNodeServer }] = await Promise.all([import('@/lib/boot'), import('@/lib/http/node-server')]);
  await boot();
  const server = createNodeServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    adminKey: process.env.ADMIN_API_KEY!,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      const [{ closeDb }, { closeKv }, bus] = await Promise.all([import('@/db/client'), import('@/lib/kv'), import('@/lib/bus')]);
      await bus.closeBus();
      await closeKv();
      await closeDb();
    },
  };
}

export interface TestApp {
  appId: string;
  appSecret: string;
  webhookSecret: string;
}

async function admin(server: TestServer, method: string, route: string, body?: unknown): Promise<Response> {
  return fetch(server.url + route, {
    method,
    headers: { Authorization: `Bearer ${server.adminKey}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Creates an app through the admin API and puts its catalog. */
export async function createTestApp(server: TestServer, catalog: CatalogInput = { missions: [], campaigns: [] }): Promise<TestApp> {
  const appId = uniqueId('app');
  const created = await admin(server, 'POST', '/api/admin/apps', { id: appId, name: `Test ${appId}` });
  if (created.status !== 201) throw new Error(`create app: ${created.status} ${await created.text()}`);
  const { appSecret, webhookSecret } = (await created.json()) as { appSecret: string; webhookSecret: string };
  const put = await admin(server, 'PUT', `/api/admin/apps/${appId}/catalog`, catalog);
  if (put.status !== 200) throw new Error(`put catalog: ${put.status} ${await put.text()}`);
  return { appId, appSecret, webhookSecret };
}

export async function putCatalog(server: TestServer, appId: string, catalog: CatalogInput): Promise<Response> {
  return admin(server, 'PUT', `/api/admin/apps/${appId}/catalog`, catalog);
}

export async function issueToken(server: TestServer, app: TestApp, userId: string): Promise<string> {
  const res = await fetch(`${server.url}/v1/auth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ appId: app.appId, appSecret: app.appSecret, userId }),
  });
  if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

/** A small authenticated client for one user. */
export function userClient(server: TestServer, token: string) {
  const call = (method: string, route: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(server.url + route, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  return {
    get: (route: string, headers?: Record<string, string>) => call('GET', route, undefined, headers),
    post: (route: string, body?: unknown, headers?: Record<string, string>) => call('POST', route, body, headers),
    call,
  };
}
