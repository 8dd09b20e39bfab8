// Staff accounts over real HTTP: created by an admin (password chosen or
// generated and shown once), signed in through Better Auth with HttpOnly,
// SameSite=Lax cookies, re-roled and removed with audit rows; the last admin
// stays; failed sign-ins are limited per (address, client); the first admin is made at start.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { auditLog } from '@/db/schema';
import { getConfig } from '@/lib/config';
import { ADMIN_PASSWORD_FILE, EMBEDDED_ADMIN_EMAIL } from '@/lib/staff/bootstrap';
import { startTestServer, uniqueId, type TestServer } from '@/lib/testing/test-server';
import { asStaff, cookieOf, signIn, signInRequest, signedInStaff, TEST_STAFF_PASSWORD, type TestStaff } from '@/lib/testing/staff';
import { handleStaffAuth } from '@/lib/http/staff-auth-handler';
import { awayFromWindowEdge } from '@/lib/testing/rate-window';

let server: TestServer;
let admin: TestStaff;
const embedded = !process.env.DATABASE_URL;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signedInStaff(server, 'admin');
});
afterAll(async () => {
  await server?.close();
});

const newEmail = () => `${uniqueId('staff')}@example.test`.toLowerCase();
const create = (body: unknown, cookie = admin.cookie) => asStaff(server, cookie, 'POST', '/api/admin/staff', body);

describe('POST /api/admin/staff', () => {
  it('creates an account with a generated password shown once, which signs in', async () => {
    const email = newEmail();
    const res = await create({ email: `  ${email.toUpperCase()} `, name: 'Sam Support', role: 'support' });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { staff: { id: string; email: string; role: string }; password: string };
    expect(body.staff).toMatchObject({ email, role: 'support', name: 'Sam Support' });
    expect(body.password.length).toBeGreaterThanOrEqual(20);
    const list = (await (await asStaff(server, admin.cookie, 'GET', '/api/admin/staff')).json()) as { staff: Record<string, unknown>[] };
    const listed = list.staff.find((s) => s.email === email);
    expect(listed).toBeDefined();
    expect(JSON.stringify(list)).not.toContain(body.password);
    expect(await signIn(server, email, body.password)).toContain('questline.session_token=');
  });

  it('answers 409 for an address that has an account and 400 naming the field for bad input', async () => {
    const email = newEmail();
    expect((await create({ email, name: 'A', role: 'editor', password: TEST_STAFF_PASSWORD })).status).toBe(201);
    const again = await create({ email, name: 'B', role: 'editor' });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: string }).error).toBe('conflict');
    for (const [body, field] of [
      [{ email: 'not-an-address', name: 'x', role: 'editor' }, 'email'],
      [{ email: newEmail(), name: 'x', role: 'owner' }, 'role'],
      [{ email: newEmail(), name: 'x', role: 'editor', password: 'short' }, 'password'],
      [{ email: newEmail(), name: '', role: 'editor' }, 'name'],
    ] as const) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const error = (await res.json()) as { error: string; message: string };
      expect(error.error).toBe('validation_error');
      expect(error.message).toMatch(new RegExp(`^${field}`));
    }
  });
});

describe('sign-in', () => {
  it('sets an HttpOnly, SameSite=Lax session cookie; Secure when the request came over HTTPS', async () => {
    const plain = await signInRequest(server, admin.email, admin.password);
    expect(plain.status).toBe(200);
    const cookie = plain.headers.getSetCookie().find((c) => c.startsWith('questline.session_token='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
    const tls = await signInRequest(server, admin.email, admin.password, { 'X-Forwarded-Proto': 'https' });
    expect(tls.status).toBe(200);
    const secure = tls.headers.getSetCookie().find((c) => c.includes('session_token='))!;
    expect(secure).toMatch(/^__Secure-questline\.session_token=/);
    expect(secure).toMatch(/;\s*Secure/i);
  });

  it('refuses a wrong password with 401 and nobody can sign themselves up', async () => {
    expect((await signInRequest(server, admin.email, 'wrong password 123')).status).toBe(401);
    const signUp = await handleStaffAuth(
      new Request(`${server.url}/api/auth/sign-up/email`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: server.url },
        body: JSON.stringify({ email: newEmail(), password: TEST_STAFF_PASSWORD, name: 'Intruder' }),
      }),
    );
    expect(signUp.status).toBeGreaterThanOrEqual(400);
    expect(cookieOf(signUp)).not.toContain('session_token');
  });

  // Called without a socket and without TRUST_PROXY (as a Next.js route file), every request is the
  // one client "unknown": its 10 failures on an account refuse it on that account. Other clients
  // are not refused (lib/http/staff-signin.test.ts, over real HTTP).
  it('after 10 failed attempts for an address from one client, refuses that client even the right password with 429 and Retry-After; other addresses still sign in', async () => {
    const target = await signedInStaff(server, 'editor');
    // The attempts inside one of the limiter's fixed 15-minute windows (lib/testing/rate-window.ts).
    await awayFromWindowEdge(30_000, 15 * 60_000);
    // X-Forwarded-For without TRUST_PROXY is the client's own word: ignored, all one client.
    for (let i = 0; i < 10; i++) {
      const res = await signInRequest(server, target.email, `wrong password ${i}!!`, { 'X-Forwarded-For': `10.9.0.${i}` });
      expect(res.status).toBe(401);
    }
    const locked = await signInRequest(server, target.email, target.password, { 'X-Forwarded-For': '10.9.1.1' });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await locked.json()).toMatchObject({ error: 'rate_limited', retryAfterMs: expect.any(Number) });
    expect(cookieOf(locked)).not.toContain('session_token');
    expect(await signIn(server, admin.email, admin.password)).toContain('session_token');
  });
});

describe('PATCH and DELETE /api/admin/staff/:staffId', () => {
  it('changes a role and removes an account, each with an audit row naming the actor', async () => {
    const member = await signedInStaff(server, 'support');
    const patched = await asStaff(server, admin.cookie, 'PATCH', `/api/admin/staff/${member.id}`, { role: 'editor' });
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as { staff: { role: string } }).staff.role).toBe('editor');
    expect((await asStaff(server, admin.cookie, 'DELETE', `/api/admin/staff/${member.id}`)).status).toBe(204);
    expect((await asStaff(server, admin.cookie, 'DELETE', `/api/admin/staff/${member.id}`)).status).toBe(404);
    const db = await getDb();
    const rows = await db.select().from(auditLog).where(eq(auditLog.target, `staff:${member.email}`)).orderBy(desc(auditLog.id));
    expect(rows.map((r) => r.action)).toEqual(['staff.remove', 'staff.set_role', 'staff.create']);
    expect(rows[1]).toMatchObject({ actor: `staff:${admin.email}`, before: { role: 'support' }, after: { role: 'editor' } });
  });

  it('refuses to remove your own account', async () => {
    const res = await asStaff(server, admin.cookie, 'DELETE', `/api/admin/staff/${admin.id}`);
    expect(res.status).toBe(409);
  });

  // Needs a database of its own: on a shared PostgreSQL other test files add admins.
  it.skipIf(!embedded)('keeps the last admin: neither demoted nor removed, even by two concurrent demotions', async () => {
    const others = ((await (await asStaff(server, admin.cookie, 'GET', '/api/admin/staff')).json()) as { staff: { id: string; role: string }[] }).staff;
    const second = await signedInStaff(server, 'admin');
    // Leave exactly two admins: the one from beforeAll and `second`.
    for (const s of others) if (s.role === 'admin' && s.id !== admin.id) await asStaff(server, admin.cookie, 'PATCH', `/api/admin/staff/${s.id}`, { role: 'support' });
    const [a, b] = await Promise.all([
      asStaff(server, admin.cookie, 'PATCH', `/api/admin/staff/${second.id}`, { role: 'editor' }),
      asStaff(server, second.cookie, 'PATCH', `/api/admin/staff/${admin.id}`, { role: 'editor' }),
    ]);
    // The loser is refused as the last admin (409) or, once demoted, for its role (403).
    expect([a.status, b.status].filter((s) => s === 200)).toHaveLength(1);
    expect([a.status, b.status].find((s) => s !== 200)).toBeOneOf([403, 409]);
    const lastAdmin = a.status === 200 ? admin : second;
    const roles = ((await (await asStaff(server, lastAdmin.cookie, 'GET', '/api/admin/staff')).json()) as { staff: { id: string; role: string }[] }).staff;
    expect(roles.filter((s) => s.role === 'admin').map((s) => s.id)).toEqual([lastAdmin.id]);
    const byKey = (method: string, role?: string) =>
      fetch(`${server.url}/api/admin/staff/${lastAdmin.id}`, {
        method,
        headers: { Authorization: `Bearer ${server.adminKey}`, 'Content-Type': 'application/json' },
        body: role ? JSON.stringify({ role }) : undefined,
      });
    expect((await byKey('PATCH', 'support')).status).toBe(409);
    expect((await byKey('DELETE')).status).toBe(409);
  });
});

describe('the first admin', () => {
  it.skipIf(!embedded)('on the embedded default is admin@localhost with the generated password kept in the data directory', async () => {
    const password = readFileSync(path.join(getConfig().dataDir, ADMIN_PASSWORD_FILE), 'utf8').trim();
    expect(password.length).toBeGreaterThanOrEqual(20);
    expect(await signIn(server, EMBEDDED_ADMIN_EMAIL, password)).toContain('session_token');
  });
});
