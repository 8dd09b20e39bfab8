// Roles on the admin API over real HTTP: every admin route checks the caller's
// role against the one capability map, signed-out callers get 401, the admin
// key keeps admin rights, cookie writes from another origin are refused, and
// role changes and removals take effect on the very next request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can, CAPABILITIES, STAFF_ROLES, type Capability, type StaffRole } from '@/lib/auth/roles';
import { adminRoutes, type Method } from '@/lib/http/routes';
import type { AdminHandler } from '@/lib/http/handler';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { asStaff, signedInStaff, type TestStaff } from '@/lib/testing/staff';
import { mission } from '@/lib/testing/fixtures';

let server: TestServer;
let app: TestApp;
const staff = {} as Record<StaffRole, TestStaff>;

beforeAll(async () => {
  server = await startTestServer();
  app = await createTestApp(server, { missions: [mission('m1')], campaigns: [] });
  for (const role of STAFF_ROLES) staff[role] = await signedInStaff(server, role);
});
afterAll(async () => {
  await server?.close();
});

const PUBLIC_ADMIN_ROUTES = new Set(['/api/admin/openapi.json']);

/** Every admin (path, method) with a concrete URL whose ids do not exist, so an allowed call changes nothing. */
function adminCalls(): { method: Method; url: string; capability: Capability | 'authenticated'; route: string }[] {
  return adminRoutes
    .filter((r) => !PUBLIC_ADMIN_ROUTES.has(r.path))
    .flatMap((r) =>
      Object.entries(r.handlers).map(([method, handler]) => ({
        method: method as Method,
        route: `${method} ${r.path}`,
        url: r.path.replace(/:[A-Za-z]+/g, (p) => (p === ':appId' ? 'no-such-app' : 'no-such-id')),
        capability: (handler as AdminHandler).capability,
      })),
    );
}

describe('every admin route', () => {
  it('is built with adminRoute and names a capability of the role map (or is a public document)', () => {
    const calls = adminCalls();
    expect(calls.length).toBeGreaterThan(8);
    for (const call of calls) {
      expect(call.capability === 'authenticated' || call.capability in CAPABILITIES, `${call.route} declares a known capability`).toBe(true);
    }
  });

  it('answers 401 unauthorized to a signed-out caller without the key', async () => {
    for (const call of adminCalls()) {
      const res = await fetch(server.url + call.url, { method: call.method, headers: { 'Content-Type': 'application/json', Origin: server.url }, body: call.method === 'GET' || call.method === 'DELETE' ? undefined : '{}' });
      expect(res.status, call.route).toBe(401);
      expect(((await res.json()) as { error: string }).error, call.route).toBe('unauthorized');
    }
  });

  it('answers 403 forbidden exactly when the staff member’s role lacks the route’s capability', async () => {
    for (const role of STAFF_ROLES) {
      for (const call of adminCalls()) {
        const allowed = call.capability === 'authenticated' || can(role, call.capability);
        const res = await asStaff(server, staff[role].cookie, call.method, call.url, call.method === 'GET' || call.method === 'DELETE' ? undefined : {});
        const label = `${role} ${call.route} → ${res.status}`;
        if (allowed) expect([401, 403], label).not.toContain(res.status);
        else {
          expect(res.status, label).toBe(403);
          expect(((await res.json()) as { error: string }).error, label).toBe('forbidden');
        }
      }
    }
  });

  it('lets the ADMIN_API_KEY bearer through with admin rights', async () => {
    for (const call of adminCalls()) {
      const res = await fetch(server.url + call.url, {
        method: call.method,
        headers: { Authorization: `Bearer ${server.adminKey}`, 'Content-Type': 'application/json' },
        body: call.method === 'GET' || call.method === 'DELETE' ? undefined : '{}',
      });
      expect([401, 403], `${call.route} → ${res.status}`).not.toContain(res.status);
    }
  });
});

describe('roles in practice', () => {
  it('an editor writes the catalog but is refused apps and staff', async () => {
    const editor = staff.editor.cookie;
    expect((await asStaff(server, editor, 'GET', '/api/admin/apps')).status).toBe(200);
    expect((await asStaff(server, editor, 'PUT', `/api/admin/apps/${app.appId}/catalog`, { missions: [mission('m2')] })).status).toBe(200);
    expect((await asStaff(server, editor, 'POST', '/api/admin/apps', { id: 'editor-app', name: 'x' })).status).toBe(403);
    expect((await asStaff(server, editor, 'POST', `/api/admin/apps/${app.appId}/rotate-secret`)).status).toBe(403);
    expect((await asStaff(server, editor, 'GET', '/api/admin/staff')).status).toBe(403);
    expect((await asStaff(server, editor, 'POST', '/api/admin/staff', { email: 'x@example.test', name: 'x', role: 'admin' })).status).toBe(403);
  });

  it('support reads the catalog and revokes a player’s tokens but cannot edit the catalog', async () => {
    const support = staff.support.cookie;
    const exported = await asStaff(server, support, 'GET', `/api/admin/apps/${app.appId}/catalog`);
    expect(exported.status).toBe(200);
    const put = await asStaff(server, support, 'PUT', `/api/admin/apps/${app.appId}/catalog`, { missions: [mission('sneaky')] });
    expect(put.status).toBe(403);
    const { missions } = (await (await asStaff(server, support, 'GET', `/api/admin/apps/${app.appId}/catalog`)).json()) as { missions: { id: string }[] };
    expect(missions.map((m) => m.id)).not.toContain('sneaky');
    expect((await asStaff(server, support, 'POST', `/api/admin/apps/${app.appId}/revocations`, { userId: 'player-1' })).status).toBe(200);
  });

  it('GET /api/admin/me answers the caller’s role and capabilities', async () => {
    const res = await asStaff(server, staff.support.cookie, 'GET', '/api/admin/me');
    expect(res.status).toBe(200);
    const me = (await res.json()) as { kind: string; role: string; staff: { email: string }; capabilities: string[] };
    expect(me).toMatchObject({ kind: 'staff', role: 'support', staff: { email: staff.support.email } });
    expect(me.capabilities).toContain('players.revoke');
    expect(me.capabilities).not.toContain('catalog.write');
    const key = await fetch(`${server.url}/api/admin/me`, { headers: { Authorization: `Bearer ${server.adminKey}` } });
    expect(await key.json()).toMatchObject({ kind: 'admin-api-key', role: 'admin', staff: null });
  });

  it('a wrong bearer key is refused even with a valid session cookie', async () => {
    const res = await fetch(`${server.url}/api/admin/apps`, { headers: { Cookie: staff.admin.cookie, Authorization: 'Bearer wrong-key-0123456789abcdef' } });
    expect(res.status).toBe(401);
  });
});

describe('cookie-authenticated writes (CSRF)', () => {
  it('are refused from another origin or without an Origin header; reads and key requests are not affected', async () => {
    const cookie = staff.admin.cookie;
    const body = { missions: [mission('csrf')] };
    const route = `/api/admin/apps/${app.appId}/catalog`;
    const evil = await asStaff(server, cookie, 'PUT', route, body, { Origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect(((await evil.json()) as { error: string }).error).toBe('forbidden');
    const sibling = await asStaff(server, cookie, 'PUT', route, body, { Origin: server.url.replace('127.0.0.1', 'localhost') });
    expect(sibling.status).toBe(403);
    const noOrigin = await fetch(server.url + route, { method: 'PUT', headers: { Cookie: cookie, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect(noOrigin.status).toBe(403);
    // Without TRUST_PROXY, X-Forwarded-Host is the client's own word, not the host it reached.
    const forwardedHost = await asStaff(server, cookie, 'PUT', route, body, { Origin: 'https://evil.example', 'X-Forwarded-Host': 'evil.example' });
    expect(forwardedHost.status).toBe(403);
    const crossSite = await asStaff(server, cookie, 'PUT', route, body, { 'Sec-Fetch-Site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const exported = (await (await asStaff(server, cookie, 'GET', route)).json()) as { missions: { id: string }[] };
    expect(exported.missions.map((m) => m.id)).not.toContain('csrf');
    expect((await asStaff(server, cookie, 'PUT', route, body)).status).toBe(200);
  });
});

describe('staff changes take effect at once', () => {
  it('a demoted editor is refused on the next request; a removed member is signed out', async () => {
    const member = await signedInStaff(server, 'editor');
    const route = `/api/admin/apps/${app.appId}/catalog`;
    expect((await asStaff(server, member.cookie, 'PUT', route, { missions: [] })).status).toBe(200);
    const patch = await asStaff(server, staff.admin.cookie, 'PATCH', `/api/admin/staff/${member.id}`, { role: 'support' });
    expect(patch.status).toBe(200);
    expect((await asStaff(server, member.cookie, 'PUT', route, { missions: [] })).status).toBe(403);
    expect((await asStaff(server, staff.admin.cookie, 'DELETE', `/api/admin/staff/${member.id}`)).status).toBe(204);
    expect((await asStaff(server, member.cookie, 'GET', route)).status).toBe(401);
  });
});
