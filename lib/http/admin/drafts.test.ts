// Drafts and releases over real HTTP: the draft's storage (GET/PUT/DELETE,
// validation as a whole, 404 draft_not_found, roles, audit), publishing it
// (now and scheduled), the releases list, restore, and what publishing does
// to players (nothing earned changes; /v1 follows the live catalog only).
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { auditLog } from '@/db/schema';
import type { Draft } from '@/lib/contract/release';
import { createTestApp, startTestServer, type TestServer } from '@/lib/testing/test-server';
import { asStaff, signedInStaff, type TestStaff } from '@/lib/testing/staff';
import { mission } from '@/lib/testing/fixtures';

let server: TestServer;
let editor: TestStaff;
let support: TestStaff;
beforeAll(async () => {
  server = await startTestServer();
  editor = await signedInStaff(server, 'editor');
  support = await signedInStaff(server, 'support');
});
afterAll(async () => {
  await server?.close();
});

interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T;
}

async function call<T = Record<string, unknown>>(method: string, route: string, body?: unknown, who: TestStaff | 'key' = 'key'): Promise<Answer<T>> {
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

const draftOf = (appId: string) => `/api/admin/apps/${appId}/draft`;

describe('the draft', () => {
  it('is 404 draft_not_found until written; PUT stores a whole catalog and answers its changes against live; DELETE discards it', async () => {
    const app = await createTestApp(server, { missions: [mission('a'), mission('b')], campaigns: [] });
    const none = await call('GET', draftOf(app.appId), undefined, support);
    expect(none.status).toBe(404);
    expect(none.body.error).toBe('draft_not_found');

    const live = await call<{ missions: unknown[] }>('GET', `/api/admin/apps/${app.appId}/catalog`);
    const put = await call<Draft>(
      'PUT',
      draftOf(app.appId),
      { missions: [mission('a', { criteria: { eventName: 'play', count: 3 } }), mission('c')], campaigns: [] },
      editor,
    );
    expect(put.status).toBe(200);
    expect(put.body.changes).toEqual([
      { kind: 'mission', id: 'a', change: 'changed' },
      { kind: 'mission', id: 'b', change: 'removed' },
      { kind: 'mission', id: 'c', change: 'added' },
    ]);
    expect(put.body.updatedBy).toBe(`staff:${editor.email}`);
    expect(put.body.scheduledAt).toBeNull();
    expect(put.body.catalog.missions.map((m) => m.id)).toEqual(['a', 'c']);

    const got = await call<Draft>('GET', draftOf(app.appId), undefined, support);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(put.body);
    // The live catalog is untouched by a draft.
    expect((await call('GET', `/api/admin/apps/${app.appId}/catalog`)).body).toEqual(live.body);

    // Support reads, never writes.
    expect((await call('PUT', draftOf(app.appId), { missions: [], campaigns: [] }, support)).status).toBe(403);
    expect((await call('DELETE', draftOf(app.appId), undefined, support)).status).toBe(403);

    const db = await getDb();
    const audit = await db.select().from(auditLog).where(and(eq(auditLog.appId, app.appId), eq(auditLog.target, 'draft'))).orderBy(asc(auditLog.id));
    expect(audit.map((a) => a.action)).toEqual(['draft.update']);

    expect((await call('DELETE', draftOf(app.appId), undefined, editor)).status).toBe(204);
    expect((await call('GET', draftOf(app.appId))).status).toBe(404);
    expect((await call('DELETE', draftOf(app.appId))).body.error).toBe('draft_not_found');
  });

  it('is validated as a whole: one bad item or a reference outside the document and nothing is stored', async () => {
    const app = await createTestApp(server, { missions: [mission('a')], campaigns: [] });
    const bad = await call('PUT', draftOf(app.appId), { missions: [mission('a'), { ...mission('b'), criteria: { eventName: 'play', count: 0 } }], campaigns: [] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('validation_error');
    expect(String(bad.body.message)).toContain('missions[1] (id "b")');
    const dangling = await call('PUT', draftOf(app.appId), { missions: [mission('a', { prerequisites: ['gone'] })], campaigns: [] });
    expect(dangling.status).toBe(400);
    expect(String(dangling.body.message)).toContain('prerequisite "gone"');
    const noCampaign = await call('PUT', draftOf(app.appId), { missions: [mission('a', { campaignId: 'nope' })], campaigns: [] });
    expect(noCampaign.status).toBe(400);
    expect((await call('GET', draftOf(app.appId))).status).toBe(404);
    expect((await call('PUT', '/api/admin/apps/no-such-app/draft', { missions: [] })).body.error).toBe('app_not_found');
  });
});
