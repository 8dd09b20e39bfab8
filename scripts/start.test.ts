// `npm start` as a user runs it: the production build served by Questline's
// own server (scripts/server.ts, bundled to .next/questline-server.mjs),
// /v1 and /api/admin from the route table, /api/auth from the staff sign-in
// handler, the rest from Next.js.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '@/lib/testing/processes';
import { untilRefused } from '@/lib/testing/serve-process';
import { httpFrom, tokenFrom } from '@/lib/testing/http-from';
import { MALFORMED_PATHS } from '@/lib/testing/malformed-paths';
import { describeWithBuild, startProduction, type Instance } from '@/lib/testing/production';
import { openSse } from '@/lib/testing/sse-client';
import { awayFromWindowEdge } from '@/lib/testing/rate-window';

const ADMIN_KEY = 'start-test-admin-key-0123456789';
const embedded = !process.env.DATABASE_URL?.trim();

describeWithBuild('npm start (the custom server)', () => {
  let server: Instance;

  beforeAll(async () => {
    server = await startProduction({ env: { ADMIN_API_KEY: ADMIN_KEY, QUESTLINE_QUIET: undefined, TRUST_PROXY: undefined } });
  }, 120_000);
  afterAll(async () => {
    await server?.stop('SIGKILL');
  });

  async function newApp(): Promise<{ appId: string; appSecret: string }> {
    const appId = `start-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
    const res = await fetch(`${server.url}/api/admin/apps`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: appId, name: 'Start test' }),
    });
    expect(res.status).toBe(201);
    return { appId, appSecret: ((await res.json()) as { appSecret: string }).appSecret };
  }

  it('prints the start-up lines once (the instrumentation hook does not boot again), then serves the API and the pages', async () => {
    const out = server.output();
    expect(out.match(/^Questline: database /gm)).toHaveLength(1);
    expect(out.match(/^Questline: listening on http:\/\/localhost:\d+$/gm)).toHaveLength(1);
    expect(out).not.toContain('TRUST_PROXY is not set');
    if (embedded) expect(out.match(/^Demo app: appId=demo appSecret=qs_/gm)).toHaveLength(1);

    const api = await fetch(`${server.url}/v1/openapi.json`);
    expect(api.status).toBe(200);
    expect(((await api.json()) as { openapi: string }).openapi).toBe('3.1.0');
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('Questline');
  });

  it('the client is the socket address: a rotating X-Forwarded-For does not bypass the token guard', async () => {
    const app = await newApp();
    const statuses: number[] = [];
    await awayFromWindowEdge(30_000);
    for (let i = 0; i < 30; i++) statuses.push(await tokenFrom(server.url, '127.0.0.2', { ...app, appSecret: 'wrong' }, `203.0.113.${i + 1}`));
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(20).fill(429));
  });

  it('a spoofed X-Forwarded-For cannot lock out another address', async () => {
    const app = await newApp();
    await awayFromWindowEdge(20_000);
    for (let i = 0; i < 10; i++) expect(await tokenFrom(server.url, '127.0.0.2', { ...app, appSecret: 'wrong' }, '127.0.0.1')).toBe(401);
    expect(await tokenFrom(server.url, '127.0.0.1', app)).toBe(200);
    expect(await tokenFrom(server.url, '127.0.0.2', app, '127.0.0.1')).toBe(429);
  });

  it('staff sign-in is served with the socket address: 10 wrong passwords from one client (a spoofed X-Forwarded-For changes nothing) leave the right password working from another', async () => {
    const email = `start-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@example.test`;
    const password = 'start test password 0123';
    const created = await fetch(`${server.url}/api/admin/staff`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, name: 'Start test', role: 'support', password }),
    });
    expect(created.status).toBe(201);
    const attacker = `127.${1 + Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}.9`;
    const signIn = (from: string, pass: string, type: 'json' | 'form') =>
      httpFrom(from, `${server.url}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: {
          Origin: server.url,
          'X-Forwarded-For': '127.0.0.1',
          'Content-Type': type === 'json' ? 'application/json' : 'application/x-www-form-urlencoded',
        },
        raw: type === 'json' ? JSON.stringify({ email, password: pass }) : new URLSearchParams({ email, password: pass }).toString(),
      });
    await awayFromWindowEdge(60_000, 15 * 60_000);
    for (let i = 0; i < 10; i++) expect((await signIn(attacker, `wrong password ${i}!`, i % 2 ? 'form' : 'json')).status).toBe(401);
    expect((await signIn(attacker, password, 'json')).status).toBe(429);
    const owner = await signIn('127.0.0.1', password, 'form');
    expect(owner.status).toBe(200);
    expect(String(owner.headers['set-cookie'])).toContain('questline.session_token=');
    // One line per failure with the client's socket address and no address in clear.
    const failures = server
      .output()
      .split('\n')
      .filter((l) => l.includes('"staff sign-in failed"'))
      .map((l) => JSON.parse(l) as { client: string; account: string });
    expect(failures.filter((l) => l.client === attacker)).toHaveLength(10);
    expect(server.output()).not.toContain(email);
  });

  it('a path with a malformed percent-escape answers 400 validation_error with X-Request-Id (and CORS under /v1)', async () => {
    for (const [method, path] of MALFORMED_PATHS) {
      const res = await fetch(server.url + path, { method });
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(await res.json()).toEqual({ error: 'validation_error', message: `path ${path}: malformed percent-escape` });
      expect(res.headers.get('x-request-id')).toBeTruthy();
      expect(res.headers.get('access-control-allow-origin')).toBe(path.startsWith('/api/admin') ? null : '*');
    }
  });

  it.skipIf(!embedded)('a second npm start on the same embedded data directory exits 1 with one line naming it and the holder; the first keeps serving', async () => {
    const dataDir = /in (\/\S+)\/pg, key-value store/.exec(server.output())![1];
    const second = await startProduction({ env: { ADMIN_API_KEY: ADMIN_KEY, QUESTLINE_DATA_DIR: dataDir, QUESTLINE_QUIET: '1' }, wait: false });
    expect(await second.exited).toBe(1);
    const lines = second.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`the data directory ${dataDir} is in use by process ${server.child.pid}`);
    expect((await newApp()).appSecret).toMatch(/^qs_/);
  });

  it('TRACE and other methods outside the table answer 405 with Allow on every path (API, Better Auth, pages), never a 500 or an error stack', async () => {
    const before = server.output().length;
    for (const [method, path, allow] of [
      ['TRACE', '/v1/missions', 'GET, HEAD, OPTIONS'],
      ['TRACE', '/api/admin/apps', 'GET, HEAD, POST'],
      ['PROPFIND', '/api/admin/apps', 'GET, HEAD, POST'],
      ['TRACE', '/api/auth/get-session', 'GET, HEAD, POST'],
      ['TRACE', '/', 'GET, HEAD, POST'],
      ['PROPFIND', '/admin', 'GET, HEAD, POST'],
    ]) {
      const res = await httpFrom('127.0.0.1', server.url + path, { method });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.allow, `${method} ${path}`).toBe(allow);
      expect(res.body, `${method} ${path}`).toEqual({ error: 'method_not_allowed', message: `Method ${method} is not allowed here` });
    }
    expect(server.output().slice(before)).not.toMatch(/"level":"error"|TypeError|\n\s+at /);
  });

  it('a malformed percent-escape under Better Auth (/api/auth/%ff) is the same JSON 400, without CORS', async () => {
    const res = await fetch(`${server.url}/api/auth/%ff`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'validation_error', message: 'path /api/auth/%ff: malformed percent-escape' });
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('the home page lists the console as built (nothing "next"); the walkthrough names the origin it was requested on and shows no markdown link syntax', async () => {
    const home = await (await fetch(`${server.url}/`)).text();
    expect(home).toContain('Missions, campaigns and themes, the player inspector, the dashboard');
    expect(home).not.toContain('the dashboard next');
    const page = await httpFrom('127.0.0.1', `${server.url}/walkthrough`, { headers: { Host: 'questline.test:8443' } });
    expect(page.status).toBe(200);
    const html = String(page.body);
    expect(html).toContain('curl -s http://questline.test:8443/v1/auth/token');
    expect(html).not.toContain('localhost:3000');
    expect(html).not.toContain('](docs/webhooks.md)');
    expect(html).toContain('docs/webhooks.md</code>');
  });

  it('a second npm start on a PORT in use exits 1 with one line before creating anything (no data directory, no secrets)', async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'questline-port-')), 'never-created');
    const port = new URL(server.url).port;
    const second = await startProduction({ env: { PORT: port, QUESTLINE_DATA_DIR: dataDir, ADMIN_API_KEY: undefined, QUESTLINE_QUIET: undefined }, wait: false });
    expect(await second.exited).toBe(1);
    expect(second.output().trim().split('\n')).toEqual([`Questline: PORT ${port} is already in use (another Questline or another server?); stop it or set PORT to a free port`]);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('GET /api/health and /api/ready are served by the route table (JSON with a request id), /api/metrics behind the admin key', async () => {
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect(health.headers.get('x-request-id')).toBeTruthy();
    const ready = await fetch(`${server.url}/api/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', store: 'ok' } });
    expect((await fetch(`${server.url}/api/metrics`)).status).toBe(401);
    const metrics = await fetch(`${server.url}/api/metrics`, { headers: { Authorization: `Bearer ${ADMIN_KEY}` } });
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/^questline_http_requests_total\{route="\/api\/ready",method="GET",status="200"\} [1-9]/m);
  });

  it('SIGTERM ends open streams with a last comment, closes the server and exits 0', async () => {
    const app = await newApp();
    const token = await httpFrom('127.0.0.1', `${server.url}/v1/auth/token`, { body: { ...app, userId: 'u' } });
    const stream = await openSse(`${server.url}/v1/sse/updates`, { Authorization: `Bearer ${(token.body as { accessToken: string }).accessToken}` });
    await stream.waitFor((s) => s.raw.startsWith(': connected'), 'connected');
    expect(await server.stop('SIGTERM')).toBe(0);
    await stream.waitFor((s) => s.ended, 'the stream to end');
    expect(stream.raw.endsWith(': server shutting down; reconnect (with Last-Event-ID) to resume\n\n')).toBe(true);
    expect(server.output()).toContain('Questline: SIGTERM, shutting down');
  });
});

describeWithBuild('next start (the route files): the ops endpoints', () => {
  let server: Instance;

  beforeAll(async () => {
    server = await startProduction({ env: { ADMIN_API_KEY: ADMIN_KEY, QUESTLINE_QUIET: '1' }, nextStart: true });
  }, 120_000);
  afterAll(async () => {
    await server?.stop('SIGKILL');
  });

  it('GET /api/health, /api/ready and /api/metrics answer as under npm start', async () => {
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${server.url}/api/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', store: 'ok' } });
    const refused = await fetch(`${server.url}/api/metrics`, { headers: { Authorization: 'Bearer wrong' } });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: string }).error).toBe('unauthorized');
    // One registry for the process, whichever route chunk counted: the /api/ready request above shows up here.
    const metrics = await fetch(`${server.url}/api/metrics`, { headers: { Authorization: `Bearer ${ADMIN_KEY}` } });
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toMatch(/^questline_http_requests_total\{route="\/api\/ready",method="GET",status="200"\} [1-9]/m);
    expect(text).toMatch(/^questline_http_requests_total\{route="\/api\/metrics",method="GET",status="401"\} [1-9]/m);
  });
});

describeWithBuild('npm start ends with npm', () => {
  it.each(['SIGTERM', 'SIGKILL'] as const)('a %s to npm\'s pid stops the server it started (no orphan left serving)', async (signal) => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), ADMIN_API_KEY: ADMIN_KEY, QUESTLINE_QUIET: '1' };
    env.QUESTLINE_DATA_DIR = mkdtempSync(path.join(tmpdir(), 'questline-npm-'));
    // A group of its own: whatever happens, the finally below reaches npm, its shell and the server.
    const npm = spawn('npm', ['start', '--silent'], { cwd: path.resolve(__dirname, '..'), env, detached: true, stdio: 'ignore' });
    const url = `http://127.0.0.1:${port}`;
    try {
      await expect
        .poll(() => fetch(`${url}/api/health`).then((r) => r.status, () => 0), { timeout: 120_000, interval: 200 })
        .toBe(200);
      process.kill(npm.pid!, signal);
      // Evidence, not a sleep: the port refuses new connections once the orphaned server has stopped.
      await untilRefused(url, 30_000);
    } finally {
      try {
        process.kill(-npm.pid!, 'SIGKILL');
      } catch {
        // all gone already
      }
    }
  });
});
