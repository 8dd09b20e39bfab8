// Test support: the real service on a real port (the plain Node server over
// the same handlers), on the embedded PGlite in a fresh directory, or on the
// PostgreSQL/Redis named by DATABASE_URL/REDIS_URL when set.
import type { AddressInfo } from 'node:net';
import path from 'node:path';
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
  const [{ boot }, { createNodeServer }, { getConfig }] = await Promise.all([import('@/lib/boot'), import('@/lib/http/node-server'), import('@/lib/config')]);
  await boot();
  assertConfigOfThisFile(getConfig());
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

/**
 * The server must run on the configuration this file's environment gives. In
 * a shared worker (lib/testing/fresh-env.ts) a configuration read before
 * prepareTestEnv (a previous file's background work reading it after the
 * environment was given back) holds another data directory and admin key:
 * every admin call then answered 401 "Missing or wrong admin key" (seen once
 * for lib/http/admin/grant-limits.test.ts in a full embedded run, not
 * reproduced). Fail here instead, naming what was read.
 */
function assertConfigOfThisFile(config: { dataDir: string; adminApiKey: string | null }): void {
  const dataDir = path.resolve(process.env.QUESTLINE_DATA_DIR!);
  if (config.dataDir === dataDir && config.adminApiKey === process.env.ADMIN_API_KEY) return;
  throw new Error(
    `startTestServer: the configuration was read before this file set its environment (data directory ${config.dataDir}, not ${dataDir}; ` +
      `admin key ${config.adminApiKey === process.env.ADMIN_API_KEY ? 'the same' : 'another'}): background work of an earlier file in this worker read it after lib/testing/fresh-env.ts gave the environment back`,
  );
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
