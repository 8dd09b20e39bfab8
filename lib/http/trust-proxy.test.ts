// TRUST_PROXY=1: one proxy in front appends the address it received the
// request from, so the last X-Forwarded-For entry is the client; whatever
// the client wrote before it does not count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFrom } from '@/lib/testing/http-from';
import { createTestApp, startTestServer, type TestServer } from '@/lib/testing/test-server';
import { freshWindowInProcess } from '@/lib/testing/rate-window';

let server: TestServer;
beforeAll(async () => {
  process.env.TRUST_PROXY = '1';
  server = await startTestServer();
});
afterAll(async () => server?.close());

describe('the token guard behind one trusted proxy (TRUST_PROXY=1)', () => {
  it('keys on the address the proxy appended: clients behind one proxy connection are told apart, and a client-written prefix changes nothing', async () => {
    const app = await createTestApp(server);
    const wrong = { ...app, appSecret: 'wrong' };
    // Every request arrives from the proxy (127.0.0.1); the proxy appended the client's address.
    freshWindowInProcess(20_000);
    for (let i = 0; i < 10; i++) expect(await tokenFrom(server.url, '127.0.0.1', wrong, `6.6.6.${i}, 198.51.100.1`)).toBe(401);
    expect(await tokenFrom(server.url, '127.0.0.1', app, '198.51.100.1')).toBe(429);
    expect(await tokenFrom(server.url, '127.0.0.1', app, '198.51.100.2, 198.51.100.1')).toBe(429);
    // Another client behind the same proxy is not affected, even when it writes the locked address first.
    expect(await tokenFrom(server.url, '127.0.0.1', app, '198.51.100.2')).toBe(200);
    expect(await tokenFrom(server.url, '127.0.0.1', app, '198.51.100.1, 198.51.100.2')).toBe(200);
  });
});
