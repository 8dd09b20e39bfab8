// A client that cuts its own upload (the connection closes mid-body) is
// nobody's failure: logged at info as a client abort, counted as 499, never
// as 503 "dependency unavailable" nor as any 5xx in the metrics.
import { request } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { logger } from '@/lib/log';
import { createTestApp, issueToken, startTestServer, uniqueId, type TestServer } from '@/lib/testing/test-server';

let server: TestServer;
let token: string;
let level: string;

beforeAll(async () => {
  // The suites log at warn (QUESTLINE_QUIET); an operator's default is info, where the abort shows.
  level = logger().level;
  logger().level = 'info';
  server = await startTestServer();
  token = await issueToken(server, await createTestApp(server), uniqueId('user'));
});
afterAll(async () => {
  logger().level = level;
  await server?.close();
});
afterEach(() => vi.restoreAllMocks());

/** Sends the head and part of a body, waits until the server holds the request, then closes the connection. */
function cutUpload(path: string, headers: Record<string, string>): Promise<void> {
  const target = new URL(path, server.url);
  return new Promise((resolve) => {
    const req = request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent: false, headers });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.on('socket', (socket) => {
      socket.on('connect', () => {
        req.write('{"name":"play","properties":{"pad":"');
        // The first part is in the kernel: cut the connection as a client that gives up would.
        req.once('drain', () => socket.destroy());
        if (req.writableNeedDrain === false) setImmediate(() => socket.destroy());
      });
    });
  });
}

function logLines(spy: { mock: { calls: unknown[][] } }): Record<string, unknown>[] {
  return spy.mock.calls.flatMap((c) => {
    try {
      return [JSON.parse(String(c[0])) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

async function metricsText(): Promise<string> {
  const res = await fetch(`${server.url}/api/metrics`, { headers: { Authorization: `Bearer ${server.adminKey}` } });
  return res.text();
}

describe('a client that cuts its own upload', () => {
  it.each([
    ['chunked (read by the handler)', { 'Transfer-Encoding': 'chunked' }],
    ['with a Content-Length (read by the Node server)', { 'Content-Length': '60000' }],
  ])('%s: logged at info as a client abort, no error line, no 5xx counted', async (_name, framing) => {
    const logged = vi.spyOn(console, 'error');
    await cutUpload('/v1/events', { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...framing });
    await vi.waitFor(() => expect(logLines(logged).some((l) => l.message === 'client aborted its request body')).toBe(true), { timeout: 30_000 });
    const lines = logLines(logged);
    const abort = lines.find((l) => l.message === 'client aborted its request body')!;
    expect(abort.level).toBe('info');
    expect(abort.url).toBe('/v1/events');
    expect(lines.filter((l) => l.level === 'error' || l.level === 'warn')).toEqual([]);
    expect(lines.some((l) => l.status === 503 || l.status === 500)).toBe(false);
    expect(await metricsText()).not.toMatch(/^questline_http_requests_total\{[^}]*status="5\d\d"\} /m);
  });
});
