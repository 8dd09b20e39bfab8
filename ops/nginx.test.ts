// The example nginx config (ops/nginx/questline.conf) in front of real
// `node scripts/start.mjs` instances: nginx (Debian's package; .ci/run
// installs it) runs as a non-root process from a temporary prefix with a
// self-signed certificate made here by openssl, and every request below is
// real HTTPS through it. Only the addresses, ports and certificate paths of
// the config are swapped for the test's own; each swap must match, so an
// edit of the config that the test no longer covers fails here.
// Two instances on one PostgreSQL + Redis when DATABASE_URL and REDIS_URL are
// set; on the embedded default one instance (PGlite is one process per data
// directory). Without nginx or openssl this suite is skipped locally with the
// reason, and fails under CI=true.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { request, type RequestOptions } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@/lib/testing/processes';
import { describeWithBuild, startProduction, type Instance } from '@/lib/testing/production';
import { SseStream } from '@/lib/testing/sse-client';

const CONFIG = path.join(__dirname, 'nginx/questline.conf');
const ADMIN_KEY = 'nginx-test-admin-key-0123456789';
const shared = Boolean(process.env.DATABASE_URL?.trim() && process.env.REDIS_URL?.trim());
const tool = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: 'utf8' }).status === 0;
// Debian puts nginx in /usr/sbin, which a non-root user's PATH may lack.
const NGINX = tool('nginx', ['-v']) ? 'nginx' : '/usr/sbin/nginx';
const missing = [...(tool(NGINX, ['-v']) ? [] : ['nginx (apt-get install nginx)']), ...(tool('openssl', ['version']) ? [] : ['openssl'])];
// nginx's workers and master as `nobody` when the tests run as root (CI containers), so nothing here needs root.
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

/** The config with the test's own instances, ports and certificate: every swap must find what it replaces. */
function testConfig(prefix: string, upstreams: string[], httpsPort: number, httpPort: number): string {
  let text = readFileSync(CONFIG, 'utf8');
  const swap = (pattern: RegExp, by: string | ((match: string) => string), times: number) => {
    const found = text.match(new RegExp(pattern.source, 'gm'))?.length ?? 0;
    expect(found, `${pattern} in ops/nginx/questline.conf`).toBe(times);
    text = text.replace(new RegExp(pattern.source, 'gm'), by as string);
  };
  let first = true;
  swap(/^(\s*)server 127\.0\.0\.1:\d+ (max_fails=1 fail_timeout=5s);$/, (line) => {
    const [, indent, options] = /^(\s*)server \S+ (.*);$/.exec(line)!;
    const out = first ? upstreams.map((u) => `${indent}server ${u} ${options};`).join('\n') : '';
    first = false;
    return out;
  }, 2);
  swap(/^(\s*)listen 443 ssl http2;$/, `    listen 127.0.0.1:${httpsPort} ssl http2;`, 1);
  swap(/^(\s*)listen 80;$/, `    listen 127.0.0.1:${httpPort};`, 1);
  swap(/\/etc\/ssl\/questline\/fullchain\.pem/, path.join(prefix, 'cert.pem'), 1);
  swap(/\/etc\/ssl\/questline\/privkey\.pem/, path.join(prefix, 'key.pem'), 1);
  return text;
}

/** nginx's main config: no daemon, everything (pid, logs, temporary files) under the prefix. */
function mainConfig(prefix: string): string {
  const temp = (name: string) => `${name}_temp_path ${path.join(prefix, 'temp', name)};`;
  return [
    'daemon off;',
    'worker_processes 1;',
    `pid ${path.join(prefix, 'nginx.pid')};`,
    `error_log ${path.join(prefix, 'error.log')} warn;`,
    'events { worker_connections 256; }',
    'http {',
    `  access_log ${path.join(prefix, 'access.log')};`,
    `  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}`,
    `  include ${path.join(prefix, 'questline.conf')};`,
    '}',
    '',
  ].join('\n');
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

function suite(): void {
  let prefix = '';
  let ca: Buffer;
  let nginx: ChildProcess | null = null;
  let nginxOutput = '';
  let base = '';
  let httpPort = 0;
  let instances: Instance[] = [];
  let app: { appId: string; appSecret: string };

  /** An HTTPS request through nginx, trusting only the test's certificate; `from`: the client's source address. */
  function call(method: string, urlPath: string, init: { headers?: Record<string, string>; body?: unknown; from?: string } = {}): Promise<Answer> {
    const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
    const options: RequestOptions = {
      method,
      ca,
      agent: false,
      localAddress: init.from,
      headers: { ...(payload ? { 'Content-Type': 'application/json' } : {}), ...init.headers },
    };
    return new Promise((resolve, reject) => {
      const req = request(`${base}${urlPath}`, options, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** The live stream through nginx, read as it arrives (the same reader as the other stream tests). */
  function openStream(bearer: string): Promise<SseStream> {
    const abort = new AbortController();
    return new Promise((resolve, reject) => {
      // A proxy that buffers the stream may hold even its head back: say so instead of hanging.
      const late = setTimeout(() => {
        abort.abort();
        reject(new Error('no response head for /v1/sse/updates through nginx within 30 s: is the stream buffered?'));
      }, 30_000);
      const req = request(`${base}/v1/sse/updates`, { ca, agent: false, signal: abort.signal, headers: { Accept: 'text/event-stream', Authorization: `Bearer ${bearer}` } }, (res) => {
        clearTimeout(late);
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') headers.set(name, value);
        const body = Readable.toWeb(res) as ReadableStream<Uint8Array>;
        resolve(new SseStream(new Response(body, { status: res.statusCode ?? 0, headers }), abort));
      });
      req.on('error', (err) => {
        clearTimeout(late);
        if (!abort.signal.aborted) reject(err);
      });
      req.end();
    });
  }

  async function token(userId: string): Promise<string> {
    const res = await call('POST', '/v1/auth/token', { body: { ...app, userId } });
    expect(res.status).toBe(200);
    return (res.body as { accessToken: string }).accessToken;
  }

  beforeAll(async () => {
    const env = { ADMIN_API_KEY: ADMIN_KEY, TRUST_PROXY: '1', QUESTLINE_QUIET: '1' };
    instances = await Promise.all(shared ? [startProduction({ env }), startProduction({ env })] : [startProduction({ env })]);

    // Under root, nginx runs as nobody: its prefix must be reachable by nobody, which a
    // private temporary directory of the run (npm test's TMPDIR is 0700) is not.
    prefix = mkdtempSync(path.join(asRoot ? '/tmp' : tmpdir(), 'questline-nginx-'));
    for (const dir of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(path.join(prefix, 'temp', dir), { recursive: true });
    const cert = spawnSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost',
      '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout', path.join(prefix, 'key.pem'), '-out', path.join(prefix, 'cert.pem'),
    ], { encoding: 'utf8' });
    expect(cert.status, cert.stderr).toBe(0);
    ca = readFileSync(path.join(prefix, 'cert.pem'));

    const httpsPort = await freePort();
    httpPort = await freePort();
    const upstreams = instances.map((i) => new URL(i.url).host);
    writeFileSync(path.join(prefix, 'questline.conf'), testConfig(prefix, upstreams, httpsPort, httpPort));
    writeFileSync(path.join(prefix, 'nginx.conf'), mainConfig(prefix));
    if (asRoot) spawnSync('chown', ['-R', `${NOBODY}:${NOBODY}`, prefix]);
    const ids = asRoot ? { uid: NOBODY, gid: NOBODY } : {};
    const args = ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-e', path.join(prefix, 'error.log')];
    const check = spawnSync(NGINX, ['-t', ...args], { encoding: 'utf8', ...ids });
    expect(check.status, `nginx -t:\n${check.stderr}`).toBe(0);

    nginx = spawn(NGINX, args, ids);
    nginx.stdout!.on('data', (d: Buffer) => (nginxOutput += d.toString()));
    nginx.stderr!.on('data', (d: Buffer) => (nginxOutput += d.toString()));
    base = `https://127.0.0.1:${httpsPort}`;
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (nginx.exitCode !== null) throw new Error(`nginx exited with ${nginx.exitCode}:\n${nginxOutput}\n${readFileSync(path.join(prefix, 'error.log'), 'utf8')}`);
      if (await call('GET', '/api/health').then((r) => r.status === 200, () => false)) break;
      if (Date.now() > deadline) throw new Error(`nginx did not answer:\n${nginxOutput}`);
      await new Promise((r) => setTimeout(r, 100));
    }

    const appId = `nginx-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
    const admin = { Authorization: `Bearer ${ADMIN_KEY}` };
    const created = await call('POST', '/api/admin/apps', { headers: admin, body: { id: appId, name: 'Behind nginx' } });
    expect(created.status).toBe(201);
    app = { appId, appSecret: (created.body as { appSecret: string }).appSecret };
    const catalog = await call('PUT', `/api/admin/apps/${appId}/catalog`, {
      headers: admin,
      body: { missions: [{ id: 'first-win', title: 'First win', criteria: { eventName: 'match_won', count: 1 }, reward: { kind: 'currency', currency: 'gems', amount: 5 } }] },
    });
    expect(catalog.status).toBe(200);
  }, 180_000);

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((r) => nginx!.once('exit', r));
      // Fast shutdown: a graceful one (SIGQUIT) would wait for any stream still open.
      nginx.kill('SIGTERM');
      await exited;
    }
    await Promise.all(instances.map((i) => i.stop()));
    if (prefix) rmSync(prefix, { recursive: true, force: true });
  });

  it('answers over TLS with the instances’ health and readiness, and sends plain HTTP to HTTPS', async () => {
    const ready = await call('GET', '/api/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready' });
    const plain = await new Promise<{ status: number; location?: string }>((resolve, reject) => {
      get(`http://127.0.0.1:${httpPort}/v1/missions`, (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, location: res.headers.location });
      }).on('error', reject);
    });
    expect(plain.status).toBe(301);
    expect(plain.location).toMatch(/^https:\/\/127\.0\.0\.1\/v1\/missions$/);
    // Metrics are scraped per instance, not through the balancer.
    expect((await call('GET', '/api/metrics', { headers: { Authorization: `Bearer ${ADMIN_KEY}` } })).status).toBe(404);
  });

  it('an event and a claim through nginx reach an open stream before it ends (nothing buffered)', async () => {
    const userId = 'player-1';
    const bearer = await token(userId);
    const stream = await openStream(bearer);
    try {
      expect(stream.response.status).toBe(200);
      expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      // The stream's opening bytes came through before anything was sent to it.
      await stream.waitFor((s) => s.raw.length > 0, 'the stream’s first bytes');

      const event = await call('POST', '/v1/events', {
        headers: { Authorization: `Bearer ${bearer}` },
        body: { userId, name: 'match_won', payload: {}, timestamp: Date.now() },
      });
      expect(event.status).toBe(200);
      await stream.waitFor((s) => s.updates.some((u) => u.type === 'mission.completed'), 'mission.completed through nginx');
      expect(stream.ended).toBe(false);

      const claimHeaders = { Authorization: `Bearer ${bearer}`, 'Idempotency-Key': 'claim-first-win-1' };
      const claim = await call('POST', '/v1/missions/first-win/claim', { headers: claimHeaders });
      expect(claim.status).toBe(200);
      await stream.waitFor((s) => s.updates.some((u) => u.type === 'balance.changed'), 'balance.changed through nginx');
      expect(stream.updates.map((u) => u.type)).toContain('reward.granted');
      expect(stream.ended).toBe(false);

      // The retried claim (same key) is the stored answer, wherever nginx sends it; the balance moved once.
      const again = await call('POST', '/v1/missions/first-win/claim', { headers: claimHeaders });
      expect(again.status).toBe(200);
      expect(again.headers['x-idempotent-replay']).toMatch(/^(hit|db-hit)$/);
      const balance = await call('GET', '/v1/balance?currency=gems', { headers: { Authorization: `Bearer ${bearer}` } });
      expect(balance.status).toBe(200);
      expect((balance.body as { balance: { amount: number } }).balance.amount).toBe(5);
    } finally {
      await stream.close();
    }
  });

  it.runIf(shared)('spreads requests over both instances', async () => {
    const bearer = await token('player-2');
    const counted = async () =>
      Promise.all(
        instances.map(async (i) => {
          const text = await (await fetch(`${i.url}/api/metrics`, { headers: { Authorization: `Bearer ${ADMIN_KEY}` } })).text();
          return Number(/^questline_events_ingested_total\{source="api"\} (\d+)/m.exec(text)?.[1] ?? 0);
        }),
      );
    const before = await counted();
    for (let i = 0; i < 4; i++) {
      const res = await call('POST', '/v1/events', { headers: { Authorization: `Bearer ${bearer}` }, body: { userId: 'player-2', name: 'played', payload: { i }, timestamp: Date.now() } });
      expect(res.status).toBe(200);
    }
    const after = await counted();
    // Round robin: consecutive requests go to different instances.
    expect(after.map((n, i) => n - before[i])).toEqual([2, 2]);
  });

  it('X-Forwarded-For: the client is the address nginx saw; a forged header gets no fresh limit (TRUST_PROXY=1)', async () => {
    const wrong = { appId: app.appId, appSecret: 'not-the-secret', userId: 'u' };
    // Failed token requests are limited per (app, client address): 10 a minute. Each attempt forges another address.
    const statuses: number[] = [];
    for (let i = 1; i <= 20 && !statuses.includes(429); i++) {
      statuses.push((await call('POST', '/v1/auth/token', { from: '127.0.0.2', body: wrong, headers: { 'X-Forwarded-For': `203.0.113.${i}` } })).status);
    }
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(statuses.at(-1)).toBe(429);
    // Another client (another source address) has its own count: nginx's own address is not everyone's.
    expect((await call('POST', '/v1/auth/token', { from: '127.0.0.3', body: wrong })).status).toBe(401);
    expect((await call('POST', '/v1/auth/token', { from: '127.0.0.2', body: wrong, headers: { 'X-Forwarded-For': '198.51.100.7' } })).status).toBe(429);
  });
}

const title = `ops/nginx/questline.conf in front of ${shared ? 'two instances on PostgreSQL + Redis' : 'one embedded instance'} (HTTPS)`;
if (missing.length > 0 && !process.env.CI) {
  describe.skip(`${title} — skipped: ${missing.join(' and ')} not installed (CI installs them and fails without them)`, suite);
} else describeWithBuild(title, suite);
