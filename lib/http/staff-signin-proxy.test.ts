// The staff sign-in guard behind one trusted proxy (TRUST_PROXY=1): the
// client is the address the proxy appended to X-Forwarded-For, so one
// attacker can rotate through as many addresses as it has. Two instances
// share the counts (the shared store: Redis when REDIS_URL is set). What
// reaches Better Auth at all (401s; a refusal before it is a 429) is the
// number of passwords tried, and it stays within the documented bound
// (docs/security.md, "Staff sign-in").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_ACCOUNT_PER_HOUR } from '@/lib/ratelimit/policies';
import { signedInStaff } from '@/lib/testing/staff';
import { startTestServer, type TestServer } from '@/lib/testing/test-server';
import { awayFromWindowEdge } from '@/lib/testing/rate-window';

let one: TestServer;
let two: TestServer;
beforeAll(async () => {
  process.env.TRUST_PROXY = '1';
  one = await startTestServer();
  two = await startTestServer();
});
afterAll(async () => {
  await two?.close();
  await one?.close();
});

/** Forwarded client addresses of this run (a Redis shared with earlier runs keeps their counts). */
const prefix = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
const forwarded = (i: number) => `${prefix}.${1 + i}`;

async function signIn(server: TestServer, email: string, password: string, client: string): Promise<number> {
  const res = await fetch(`${server.url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: server.url, 'X-Forwarded-For': client },
    body: JSON.stringify({ email, password }),
  });
  await res.arrayBuffer();
  return res.status;
}

describe('POST /api/auth/sign-in/email behind TRUST_PROXY=1', () => {
  it('10 wrong passwords from rotating forwarded addresses, then the right password from another client signs in', async () => {
    const member = await signedInStaff(one, 'support');
    for (let i = 0; i < 10; i++) expect(await signIn(i % 2 ? one : two, member.email, `wrong password ${i}!`, forwarded(200 + i))).toBe(401);
    expect(await signIn(one, member.email, member.password, forwarded(250))).toBe(200);
  });

  it('1,000 wrong passwords for one account from 25 rotating addresses on two instances: Better Auth sees 25 + the hourly budget, the rest are 429; a fresh client still signs in', async () => {
    const member = await signedInStaff(one, 'editor');
    const addresses = 25;
    // One fixed window of the hourly budget (a burst across its edge may get up to twice the budget).
    await awayFromWindowEdge(2 * 60_000, 60 * 60_000);
    const statuses = new Map<number, number>();
    const inFlight = 8;
    for (let start = 0; start < 1000; start += inFlight) {
      const batch = Array.from({ length: inFlight }, (_, k) => start + k).map((i) =>
        signIn(i % 2 ? one : two, member.email, `wrong password ${i}!`, forwarded(i % addresses)),
      );
      for (const status of await Promise.all(batch)) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    // Each address's first attempt, then the account's budget for everyone else; nothing else reached Better Auth.
    expect(Object.fromEntries(statuses)).toEqual({ 401: addresses + SIGN_IN_ACCOUNT_PER_HOUR, 429: 1000 - addresses - SIGN_IN_ACCOUNT_PER_HOUR });
    // The owner, on a client that has not failed on this account, is not locked out.
    expect(await signIn(two, member.email, member.password, forwarded(240))).toBe(200);
    // A client that did fail waits for the account's budget like the attacker (the documented price).
    expect(await signIn(one, member.email, member.password, forwarded(3))).toBe(429);
  }, 300_000);
});
