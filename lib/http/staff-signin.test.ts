// The staff sign-in guard over real HTTP, without a trusted proxy: clients
// are told apart by their socket address (127.0.0.1, 127.0.0.2, … are all
// this machine's loopback). Every body Better Auth would read counts under
// one account key, and nobody else's failures refuse a client that has not
// failed (docs/security.md, "Staff sign-in").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpFrom } from '@/lib/testing/http-from';
import { signedInStaff, type TestStaff } from '@/lib/testing/staff';
import { startTestServer, type TestServer } from '@/lib/testing/test-server';
import { awayFromWindowEdge, freshWindowInProcess } from '@/lib/testing/rate-window';

let server: TestServer;
beforeAll(async () => {
  delete process.env.TRUST_PROXY;
  server = await startTestServer();
});
afterAll(async () => server?.close());

/** A loopback address of its own for this run (the counts of earlier runs stay in a shared Redis). */
function loopback(): () => string {
  const [a, b] = [1 + Math.floor(Math.random() * 250), 1 + Math.floor(Math.random() * 250)];
  let n = 0;
  return () => `127.${a}.${b}.${++n}`;
}
const nextAddress = loopback();

/** A sign-in from a source address with a raw body and Content-Type. */
function signInFrom(from: string, contentType: string | null, body: string) {
  return httpFrom(from, `${server.url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { Origin: server.url, ...(contentType ? { 'Content-Type': contentType } : {}) },
    raw: body,
  });
}
const json = (email: string, password: string) => JSON.stringify({ email, password });
const form = (email: string, password: string) => new URLSearchParams({ email, password }).toString();

describe('POST /api/auth/sign-in/email, clients told apart by socket address', () => {
  let target: TestStaff;
  beforeAll(async () => {
    target = await signedInStaff(server, 'editor');
  });

  it('counts JSON, JSON behind a byte-order mark and form fields, any spelling of the address, under one account: the 11th attempt from that client is refused', async () => {
    await awayFromWindowEdge(60_000, 15 * 60_000);
    const client = nextAddress();
    const upper = `  ${target.email.toUpperCase()} `;
    const bodies: [string, string][] = [
      ['application/json', json(target.email, 'wrong password 0!')],
      ['application/json; charset=utf-8', `\uFEFF${json(target.email, 'wrong password 1!')}`],
      ['application/x-www-form-urlencoded', form(target.email, 'wrong password 2!')],
      ['Application/X-WWW-Form-Urlencoded;charset=UTF-8', form(upper, 'wrong password 3!')],
      ['application/json', `\uFEFF${json(upper, 'wrong password 4!')}`],
    ];
    for (let i = 0; i < 10; i++) {
      const [type, body] = bodies[i % bodies.length];
      expect((await signInFrom(client, type, body)).status, `${type} ${i}`).toBe(401);
    }
    const refused = await signInFrom(client, 'application/x-www-form-urlencoded', form(target.email, target.password));
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: 'rate_limited', retryAfterMs: expect.any(Number) });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('refuses with 400 validation_error, before Better Auth, a body it does not count (other media types, no address)', async () => {
    const client = nextAddress();
    for (const [type, body] of [
      ['text/plain', json(target.email, target.password)],
      [null, json(target.email, target.password)],
      ['multipart/form-data; boundary=x', `--x\r\nContent-Disposition: form-data; name="email"\r\n\r\n${target.email}\r\n--x--\r\n`],
      ['application/json', '{"email": '],
      ['application/json', JSON.stringify({ password: target.password })],
      ['application/json', JSON.stringify([target.email])],
    ] as const) {
      const res = await signInFrom(client, type, body);
      expect(res.status, `${type} ${body}`).toBe(400);
      expect(res.body, `${type}`).toMatchObject({ error: 'validation_error', message: expect.any(String) });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('10 wrong passwords from one client (a 127.x.y.z of this run) lock only that client out of that account: the right password from another client signs in', async () => {
    const member = await signedInStaff(server, 'support');
    await awayFromWindowEdge(60_000, 15 * 60_000);
    const attacker = nextAddress();
    for (let i = 0; i < 10; i++) expect((await signInFrom(attacker, 'application/json', json(member.email, `wrong password ${i}!`))).status).toBe(401);
    expect((await signInFrom(attacker, 'application/json', json(member.email, member.password))).status).toBe(429);
    const victim = await signInFrom('127.0.0.1', 'application/json', json(member.email, member.password));
    expect(victim.status).toBe(200);
    expect(String(victim.headers['set-cookie'])).toContain('questline.session_token=');
  });

  it('one shared address (an office NAT): 35 wrong guesses spread over other accounts do not refuse the owner\'s right password, their first attempt on their account from there; the spraying stays bounded (30 failures per quarter hour, then one first attempt per account)', async () => {
    const owner = await signedInStaff(server, 'editor');
    const colleague = await signedInStaff(server, 'support');
    const sprayed = await Promise.all([0, 1, 2, 3].map(() => signedInStaff(server, 'support')));
    freshWindowInProcess(2 * 60_000, 15 * 60_000);
    const office = nextAddress();
    const statuses: Record<number, number> = {};
    for (let i = 0; i < 35; i++) {
      // At most 9 per account: under the per-(account, address) limit, so only the address's count refuses.
      const { status } = await signInFrom(office, 'application/json', json(sprayed[i % sprayed.length].email, `wrong password ${i}!`));
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
    expect(statuses).toEqual({ 401: 30, 429: 5 });
    // The owner's first attempt on their own account from the office reaches Better Auth and signs in.
    const ownerIn = await signInFrom(office, 'application/json', json(owner.email, owner.password));
    expect(ownerIn.status).toBe(200);
    expect(String(ownerIn.headers['set-cookie'])).toContain('questline.session_token=');
    // A colleague's first attempt is checked too (a typo answers 401) ...
    expect((await signInFrom(office, 'application/json', json(colleague.email, 'a typo!'))).status).toBe(401);
    // ... and is the only one the address gets on that account while it is over its spraying bound.
    expect((await signInFrom(office, 'application/json', json(colleague.email, colleague.password))).status).toBe(429);
    // The sprayed accounts stay refused from that address; from another address, their owners sign in.
    expect((await signInFrom(office, 'application/json', json(sprayed[0].email, sprayed[0].password))).status).toBe(429);
    expect((await signInFrom(nextAddress(), 'application/json', json(sprayed[0].email, sprayed[0].password))).status).toBe(200);
  });

  it('sign-out over HTTP clears every cookie Better Auth clears, each in its own Set-Cookie header', async () => {
    const member = await signedInStaff(server, 'support');
    const signedIn = await signInFrom(nextAddress(), 'application/json', json(member.email, member.password));
    expect(signedIn.status).toBe(200);
    const cookie = ([] as string[]).concat(signedIn.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
    const out = await httpFrom('127.0.0.1', `${server.url}/api/auth/sign-out`, { method: 'POST', headers: { Origin: server.url, Cookie: cookie, 'Content-Type': 'application/json' }, raw: '{}' });
    expect(out.status).toBe(200);
    const cleared = ([] as string[]).concat(out.headers['set-cookie'] ?? []);
    expect(cleared.length).toBeGreaterThan(1);
    expect(cleared.find((c) => c.startsWith('questline.session_token='))).toMatch(/Max-Age=0/i);
    const me = await fetch(`${server.url}/api/admin/me`, { headers: { Cookie: cookie } });
    expect(me.status).toBe(401);
  });
});
