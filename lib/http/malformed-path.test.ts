// A path whose percent-escapes do not decode is a 400 validation_error naming
// the path, in the error shape, with X-Request-Id (and CORS under /v1), with
// or without a token: never a bare 500 (the paths below are the ones that
// answered `500 text/plain` before).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MALFORMED_PATHS } from '@/lib/testing/malformed-paths';
import { createTestApp, issueToken, startTestServer, uniqueId, type TestServer } from '@/lib/testing/test-server';


let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  const app = await createTestApp(server);
  token = await issueToken(server, app, uniqueId('user'));
});
afterAll(async () => server?.close());

describe('malformed percent-escapes in the path (plain Node server)', () => {
  for (const auth of ['without a token', 'with a token'] as const) {
    it.each(MALFORMED_PATHS)(`%s %s ${auth}: 400 validation_error naming the path`, async (method, path) => {
      const admin = path.startsWith('/api/admin');
      const headers: Record<string, string> = {};
      if (auth === 'with a token') headers.Authorization = `Bearer ${admin ? server.adminKey : token}`;
      const res = await fetch(server.url + path, { method, headers });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({ error: 'validation_error', message: `path ${path}: malformed percent-escape` });
      expect(res.headers.get('x-request-id')).toBeTruthy();
      expect(res.headers.get('access-control-allow-origin')).toBe(admin ? null : '*');
    });
  }

  it('a HEAD answers the status without a body, and a CORS preflight of such a path is still a preflight', async () => {
    const head = await fetch(`${server.url}/v1/missions/%ff`, { method: 'HEAD' });
    expect(head.status).toBe(400);
    expect(head.headers.get('x-request-id')).toBeTruthy();
    const preflight = await fetch(`${server.url}/v1/missions/%ff`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://game.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(preflight.status).toBe(204);
  });

  it('well-formed escapes still reach the route (a mission id with a space is looked up, not refused)', async () => {
    const res = await fetch(`${server.url}/v1/missions/a%20b`, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: 'mission_not_found' });
  });

  it('an unknown /api/admin path is a JSON 404 without CORS', async () => {
    const res = await fetch(`${server.url}/api/admin/nope`, { headers: { Authorization: `Bearer ${server.adminKey}` } });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: 'not_found' });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
