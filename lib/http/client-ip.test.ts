// The client's address: the socket's, unless TRUST_PROXY says how many
// proxies append to X-Forwarded-For. The token endpoint's failure guard is
// the per-IP limit, so it is what these tests attack: from two loopback
// source addresses, a client sending a rotating or spoofed X-Forwarded-For.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { tokenFrom } from '@/lib/testing/http-from';
import { clientIp, UNKNOWN_CLIENT } from './client-ip';
import { freshWindowInProcess } from '@/lib/testing/rate-window';

const withForwarded = (value?: string) => new Request('http://x/', { headers: value === undefined ? {} : { 'X-Forwarded-For': value } });

describe('clientIp', () => {
  it('is the socket address by default, whatever X-Forwarded-For says', () => {
    expect(clientIp(withForwarded('6.6.6.6'), '10.0.0.7', 0)).toBe('10.0.0.7');
    expect(clientIp(withForwarded(), '10.0.0.7', 0)).toBe('10.0.0.7');
  });

  it('is unknown without a socket (Next.js route files) unless TRUST_PROXY is set', () => {
    expect(clientIp(withForwarded('6.6.6.6'), undefined, 0)).toBe(UNKNOWN_CLIENT);
    expect(clientIp(withForwarded('6.6.6.6'), undefined, 1)).toBe('6.6.6.6');
  });

  it('with TRUST_PROXY=n is the n-th address from the right of X-Forwarded-For', () => {
    const header = '1.1.1.1, 2.2.2.2, 3.3.3.3';
    expect(clientIp(withForwarded(header), '10.0.0.1', 1)).toBe('3.3.3.3');
    expect(clientIp(withForwarded(header), '10.0.0.1', 2)).toBe('2.2.2.2');
    expect(clientIp(withForwarded(header), '10.0.0.1', 3)).toBe('1.1.1.1');
    // Fewer entries than proxies: the leftmost; no header: the socket.
    expect(clientIp(withForwarded(header), '10.0.0.1', 5)).toBe('1.1.1.1');
    expect(clientIp(withForwarded(), '10.0.0.1', 2)).toBe('10.0.0.1');
    expect(clientIp(withForwarded(' , 4.4.4.4 ,'), '10.0.0.1', 1)).toBe('4.4.4.4');
  });

  it('counts an IPv4 client of a dual-stack socket as the IPv4 address', () => {
    expect(clientIp(withForwarded(), '::ffff:127.0.0.2', 0)).toBe('127.0.0.2');
    expect(clientIp(withForwarded(), '::1', 0)).toBe('::1');
  });
});

describe('the token guard keys on the socket address (plain Node server, TRUST_PROXY unset)', () => {
  let server: TestServer;
  let app: TestApp;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server?.close());

  it('a rotating X-Forwarded-For does not bypass the guard: 30 wrong secrets with 30 different headers, 10 answer 401 and the rest 429', async () => {
    app = await createTestApp(server);
    const wrong = { appId: app.appId, appSecret: 'wrong' };
    const statuses: number[] = [];
    freshWindowInProcess(30_000);
    for (let i = 0; i < 30; i++) statuses.push(await tokenFrom(server.url, '127.0.0.2', wrong, `203.0.113.${i + 1}`));
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(20).fill(429));
    // The right secret from that address is refused too, until the window passes.
    expect(await tokenFrom(server.url, '127.0.0.2', app, '203.0.113.99')).toBe(429);
  });

  it("a spoofed X-Forwarded-For cannot lock out another address: 10 wrong secrets from 127.0.0.2 claiming to be 127.0.0.1 leave 127.0.0.1's right secret working", async () => {
    const victim = await createTestApp(server);
    freshWindowInProcess(20_000);
    for (let i = 0; i < 10; i++) expect(await tokenFrom(server.url, '127.0.0.2', { appId: victim.appId, appSecret: 'wrong' }, '127.0.0.1')).toBe(401);
    expect(await tokenFrom(server.url, '127.0.0.1', victim)).toBe(200);
    expect(await tokenFrom(server.url, '127.0.0.1', victim, '127.0.0.2')).toBe(200);
    // The attacker's own address is the one locked.
    expect(await tokenFrom(server.url, '127.0.0.2', victim, '127.0.0.1')).toBe(429);
  });
});
