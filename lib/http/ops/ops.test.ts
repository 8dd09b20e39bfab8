// The ops endpoints over real HTTP (the route table on a Node server, the
// embedded database or the PostgreSQL/Redis of the environment).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processWide } from '@/lib/process-wide';
import { startTestServer, type TestServer } from '@/lib/testing/test-server';
import { startDraining } from './lifecycle';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('GET /api/health and /api/ready', () => {
  it('health answers 200 {status: ok} with a request id, no CORS, not cached', async () => {
    const res = await fetch(`${server.url}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('ready answers 200 with each check ok once the database, the store and the migrations are there', async () => {
    const res = await fetch(`${server.url}/api/ready`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', store: 'ok' } });
  });

  it('other methods answer 405 method_not_allowed with Allow (HEAD served as GET; no CORS here, so OPTIONS is one more method not allowed)', async () => {
    for (const path of ['/api/health', '/api/ready', '/api/metrics']) {
      for (const method of ['POST', 'OPTIONS']) {
        const res = await fetch(server.url + path, { method });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(((await res.json()) as { error: string }).error).toBe('method_not_allowed');
        expect(res.headers.get('allow')).toBe('GET, HEAD');
      }
    }
  });

  it('while shutting down, ready answers 503 unavailable in the error shape; health still 200', async () => {
    startDraining();
    try {
      const res = await fetch(`${server.url}/api/ready`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ error: 'unavailable', message: 'Not ready: shutting down' });
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    } finally {
      processWide('lifecycle', () => ({ draining: false })).draining = false;
    }
    expect((await fetch(`${server.url}/api/ready`)).status).toBe(200);
  });
});
