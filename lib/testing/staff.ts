// Test support for staff accounts: create one through the admin API (admin
// key), sign it in through Better Auth's real handler, and call the admin API
// over real HTTP with the session cookie, as the console does.
import type { StaffRole } from '@/lib/auth/roles';
import { handleStaffAuth } from '@/lib/http/staff-auth-handler';
import { uniqueId, type TestServer } from './test-server';

export const TEST_STAFF_PASSWORD = 'correct horse battery staple';

export interface TestStaff {
  id: string;
  email: string;
  role: StaffRole;
  password: string;
  /** The Cookie header of a signed-in session. */
  cookie: string;
}

async function createStaffMember(server: TestServer, role: StaffRole, password = TEST_STAFF_PASSWORD): Promise<Omit<TestStaff, 'cookie'>> {
  const email = `${uniqueId(role)}@example.test`.toLowerCase();
  const res = await fetch(`${server.url}/api/admin/staff`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${server.adminKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, name: `Test ${role}`, role, password }),
  });
  if (res.status !== 201) throw new Error(`create staff: ${res.status} ${await res.text()}`);
  const { staff } = (await res.json()) as { staff: { id: string } };
  return { id: staff.id, email, role, password };
}

/** POST /api/auth/sign-in/email through the real handler (it is web-standard; Next.js only mounts it). */
export function signInRequest(server: TestServer, email: string, password: string, headers: Record<string, string> = {}): Promise<Response> {
  return handleStaffAuth(
    new Request(`${server.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: server.url, ...headers },
      body: JSON.stringify({ email, password }),
    }),
  );
}

/** The Cookie header for the Set-Cookie of a response (name=value pairs). */
export function cookieOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

export async function signIn(server: TestServer, email: string, password: string): Promise<string> {
  const res = await signInRequest(server, email, password);
  if (res.status !== 200) throw new Error(`sign in ${email}: ${res.status} ${await res.text()}`);
  const cookie = cookieOf(res);
  if (!cookie.includes('questline.session_token=')) throw new Error(`sign in ${email}: no session cookie`);
  return cookie;
}

export async function signedInStaff(server: TestServer, role: StaffRole): Promise<TestStaff> {
  const member = await createStaffMember(server, role);
  return { ...member, cookie: await signIn(server, member.email, member.password) };
}

/** A request to the admin API with a session cookie, from the console's own origin. */
export function asStaff(server: TestServer, cookie: string, method: string, route: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(server.url + route, {
    method,
    headers: { Cookie: cookie, Origin: server.url, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** An admin API answer, its body parsed (null when empty). */
export interface AdminAnswer<T = Record<string, unknown>> {
  status: number;
  body: T;
}

/** Calls the admin API as the admin key (`'key'`, the default) or as a signed-in staff member, and parses the answer. */
export async function adminCall<T = Record<string, unknown>>(server: TestServer, method: string, route: string, body?: unknown, who: TestStaff | 'key' = 'key'): Promise<AdminAnswer<T>> {
  const res =
    who === 'key'
      ? await fetch(server.url + route, {
          method,
          headers: { Authorization: `Bearer ${server.adminKey}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        })
      : await asStaff(server, who.cookie, method, route, body);
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}
