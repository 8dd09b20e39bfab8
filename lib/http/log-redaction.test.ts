// No secret in what a real server process logs: streams opened with
// ?access_token= (accepted, refused, and failing on a dependency), admin
// requests with the admin key, a cookie, an app secret in a body. The lines
// are captured from the process's output, as an operator would read them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVE_ADMIN_KEY, startServeProcess, type ServeProcess } from '@/lib/testing/serve-process';
import { startTcpProxy, throughProxy, type TcpProxy } from '@/lib/testing/tcp-proxy';

const redisUrl = process.env.REDIS_URL?.trim();

interface LogLine {
  level: string;
  message: string;
  [field: string]: unknown;
}

function logLines(output: string): LogLine[] {
  return output.split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      return [JSON.parse(line) as LogLine];
    } catch {
      return [];
    }
  });
}

async function newApp(url: string): Promise<{ appId: string; appSecret: string }> {
  const appId = `logs-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const res = await fetch(`${url}/api/admin/apps`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${SERVE_ADMIN_KEY}`, 'Content-Type': 'application/json', Cookie: 'questline.session_token=cookie-secret-value' },
    body: JSON.stringify({ id: appId, name: 'Logs' }),
  });
  expect(res.status).toBe(201);
  return { appId, appSecret: ((await res.json()) as { appSecret: string }).appSecret };
}

async function tokenFor(url: string, app: { appId: string; appSecret: string }, userId: string): Promise<string> {
  const res = await fetch(`${url}/v1/auth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...app, userId }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

function expectNoSecret(output: string, secrets: string[]): void {
  for (const secret of secrets) expect(output, `the log holds ${secret.slice(0, 12)}…`).not.toContain(secret);
}

describe('what a real server process logs', () => {
  let server: ServeProcess;
  beforeAll(async () => {
    server = await startServeProcess({ LOG_LEVEL: 'info' });
  }, 120_000);
  afterAll(async () => {
    await server?.stop('SIGKILL');
  });

  it('one JSON access line per request (request id, app, route, method, status, duration), ?access_token= replaced', async () => {
    const app = await newApp(server.url);
    const token = await tokenFor(server.url, app, 'reader');
    const stream = await fetch(`${server.url}/v1/sse/updates?access_token=${token}`, { headers: { 'X-Request-Id': 'req-stream-0001' } });
    expect(stream.status).toBe(200);
    await stream.body!.cancel();
    const refused = await fetch(`${server.url}/v1/sse/updates?access_token=${token}x&lastEventId=0`, { headers: { 'X-Request-Id': 'req-stream-0002' } });
    expect(refused.status).toBe(401);
    const deadline = Date.now() + 30_000;
    while (!logLines(server.output()).some((l) => l.requestId === 'req-stream-0002')) {
      if (Date.now() > deadline) throw new Error(`no access line:\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const lines = logLines(server.output());
    expect(lines.find((l) => l.requestId === 'req-stream-0001')).toMatchObject({
      level: 'info',
      message: 'request',
      app: app.appId,
      route: '/v1/sse/updates',
      method: 'GET',
      status: 200,
      url: '/v1/sse/updates?access_token=[REDACTED]',
      durationMs: expect.any(Number),
    });
    expect(lines.find((l) => l.requestId === 'req-stream-0002')).toMatchObject({
      status: 401,
      app: null,
      url: '/v1/sse/updates?access_token=[REDACTED]&lastEventId=0',
    });
    expect(lines.find((l) => l.route === '/api/admin/apps' && l.method === 'POST')).toMatchObject({ status: 201, app: null });
    expectNoSecret(server.output(), [token, app.appSecret, SERVE_ADMIN_KEY, 'cookie-secret-value']);
  });
});

describe('staff sign-in lines', () => {
  let server: ServeProcess;
  beforeAll(async () => {
    server = await startServeProcess({ LOG_LEVEL: 'info' });
  }, 120_000);
  afterAll(async () => {
    await server?.stop('SIGKILL');
  });

  async function untilLine(match: (l: LogLine) => boolean): Promise<LogLine> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const found = logLines(server.output()).find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no such line:\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('a failed sign-in: one line with the request id, the client address and a hash of the account, never the address or the password', async () => {
    const email = `Guessed.Person-${Date.now()}@Example.test`;
    const password = 'guessed-password-7f3a9c';
    const res = await fetch(`${server.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.url, 'X-Request-Id': 'req-signin-fail-01' },
      body: new URLSearchParams({ email, password }).toString(),
    });
    expect(res.status).toBe(401);
    const line = await untilLine((l) => l.requestId === 'req-signin-fail-01' && l.message === 'staff sign-in failed');
    expect(line).toMatchObject({ level: 'info', client: '127.0.0.1', account: expect.stringMatching(/^[0-9a-f]{16}$/) });
    for (const secret of [password, email, email.toLowerCase(), email.split('@')[0].toLowerCase()]) expect(server.output()).not.toContain(secret);
  });

  it("Better Auth's own refusals go through the logger: one JSON line with status and code, never the client's Content-Type", async () => {
    const marker = 'x-echoed-marker-5d1e; token=leaked-value-0a9b';
    const res = await fetch(`${server.url}/api/auth/sign-out`, {
      method: 'POST',
      headers: { 'Content-Type': `text/${marker}`, Origin: server.url },
      body: 'anything',
    });
    expect(res.status).toBe(415);
    await untilLine((l) => l.message === 'staff auth: request refused' && l.status === 415);
    expect(server.output()).not.toContain('x-echoed-marker-5d1e');
    expect(server.output()).not.toContain('leaked-value-0a9b');
    expect(server.output()).not.toContain('[Better Auth]');
  });
});

describe.skipIf(!redisUrl)('a stream that fails on its store (Redis cut through a proxy): the error line carries no token', () => {
  let server: ServeProcess;
  let proxy: TcpProxy;
  beforeAll(async () => {
    const target = new URL(redisUrl!);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 6379));
    server = await startServeProcess({ REDIS_URL: throughProxy(redisUrl!, proxy), LOG_LEVEL: 'info' });
  }, 120_000);
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await proxy?.close();
  });

  it('the stream answers 503 unavailable; the logged error names the route with access_token=[REDACTED]', async () => {
    const app = await newApp(server.url);
    const token = await tokenFor(server.url, app, 'cut-off');
    proxy.cut();
    const res = await fetch(`${server.url}/v1/sse/updates?access_token=${token}`, { headers: { 'X-Request-Id': 'req-stream-cut-01' } });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: string }).error).toBe('unavailable');
    const deadline = Date.now() + 30_000;
    while (!logLines(server.output()).some((l) => l.level === 'error' && l.requestId === 'req-stream-cut-01')) {
      if (Date.now() > deadline) throw new Error(`no error line:\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const error = logLines(server.output()).find((l) => l.level === 'error' && l.requestId === 'req-stream-cut-01')!;
    expect(error).toMatchObject({ message: 'dependency unavailable', method: 'GET', url: '/v1/sse/updates?access_token=[REDACTED]' });
    proxy.restore();
    expectNoSecret(server.output(), [token, app.appSecret, SERVE_ADMIN_KEY]);
  }, 120_000);
});
