// A scheduled release is a snapshot (issue 39 §5), over real HTTP: scheduling
// keeps the draft as it is then; edits made after go into the next draft (the
// draft and the releases list say which changes are in the schedule and which
// came since); cancelling puts the schedule's changes back into the draft; at
// its time the snapshot goes live and the later edits stay, as the next draft.
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { auditLog } from '@/db/schema';
import type { Draft, ReleaseList } from '@/lib/contract/release';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { adminCall, signedInStaff, type AdminAnswer, type TestStaff } from '@/lib/testing/staff';
import { mission, newUser } from '@/lib/testing/fixtures';
import { advanceClockInProcess } from '@/lib/testing/rate-window';

let server: TestServer;
let editor: TestStaff;
beforeAll(async () => {
  server = await startTestServer();
  editor = await signedInStaff(server, 'editor');
});
afterAll(async () => {
  await server?.close();
});

function call<T = Record<string, unknown>>(method: string, route: string, body?: unknown): Promise<AdminAnswer<T>> {
  return adminCall<T>(server, method, route, body, editor);
}
const draftOf = (appId: string) => `/api/admin/apps/${appId}/draft`;
const publishOf = (appId: string) => `${draftOf(appId)}/publish`;
const releasesOf = (appId: string) => `/api/admin/apps/${appId}/releases`;

async function liveMissions(app: TestApp): Promise<Array<{ id: string; title: string }>> {
  const user = await newUser(server, app);
  return (await user.getJson<{ missions: Array<{ id: string; title: string }> }>('/v1/missions')).body.missions;
}

async function waitFor(check: () => Promise<boolean>, ms: number): Promise<void> {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not within ${ms} ms`);
}

describe('a scheduled release is a snapshot', () => {
  it('says what it holds and what came since; cancelling puts its changes back into the draft; at its time the snapshot goes live and later edits stay as the next draft', async () => {
    const app = await createTestApp(server, { missions: [mission('a'), mission('b'), mission('c')], campaigns: [] });
    // Three changes: a retitled, b removed, d added.
    await call('PUT', draftOf(app.appId), { missions: [{ ...mission('a'), title: 'Renamed a' }, mission('c'), mission('d')], campaigns: [] });
    const at = Date.now() + 600_000;
    expect((await call('POST', publishOf(app.appId), { at })).status).toBe(202);
    // One change since: e added through the item editor.
    expect((await call('PUT', `${draftOf(app.appId)}/missions/e`, mission('e'))).status).toBe(200);

    const inSchedule = [
      { kind: 'mission', id: 'a', change: 'changed' },
      { kind: 'mission', id: 'b', change: 'removed' },
      { kind: 'mission', id: 'd', change: 'added' },
    ];
    const since = [{ kind: 'mission', id: 'e', change: 'added' }];
    const draft = await call<Draft>('GET', draftOf(app.appId));
    expect(draft.body.scheduledAt).toBe(at);
    expect(draft.body.schedule).toEqual({ scheduledAt: at, scheduledBy: `staff:${editor.email}`, release: 2, changes: inSchedule, changesSince: since });
    // The draft's own changes: everything publishing it now would do.
    expect(draft.body.changes).toEqual([...inSchedule, ...since].sort((x, y) => x.id.localeCompare(y.id)));
    const list = await call<ReleaseList>('GET', releasesOf(app.appId));
    expect(list.body.scheduled).toEqual(draft.body.schedule);

    // Cancelled: the schedule's changes are in the draft again, with the one made since.
    expect((await call('DELETE', publishOf(app.appId))).body).toEqual({ scheduledAt: null });
    const cancelled = await call<Draft>('GET', draftOf(app.appId));
    expect(cancelled.body.schedule).toBeNull();
    expect(cancelled.body.changes).toEqual(draft.body.changes);
    expect((await call<ReleaseList>('GET', releasesOf(app.appId))).body.scheduled).toBeNull();

    // Scheduled again: a new snapshot, now with e; f comes after it.
    const again = Date.now() + 2_000;
    expect((await call('POST', publishOf(app.appId), { at: again })).status).toBe(202);
    await call('PUT', `${draftOf(app.appId)}/missions/f`, mission('f'));
    await call('PUT', `${draftOf(app.appId)}/missions/a`, { ...mission('a'), title: 'Renamed again' });
    const rescheduled = await call<Draft>('GET', draftOf(app.appId));
    expect(rescheduled.body.schedule?.changes.map((c) => c.id)).toEqual(['a', 'b', 'd', 'e']);
    expect(rescheduled.body.schedule?.changesSince).toEqual([
      { kind: 'mission', id: 'a', change: 'changed' },
      { kind: 'mission', id: 'f', change: 'added' },
    ]);
    expect((await liveMissions(app)).map((m) => m.id)).toEqual(['a', 'b', 'c']);

    advanceClockInProcess(Math.max(0, again - Date.now()));
    await waitFor(async () => (await liveMissions(app)).some((m) => m.id === 'd'), 5_000);
    // Live: the snapshot (a as titled when scheduled, e in, f out).
    const live = await liveMissions(app);
    expect(live.map((m) => m.id)).toEqual(['a', 'c', 'd', 'e']);
    expect(live.find((m) => m.id === 'a')?.title).toBe('Renamed a');
    const releases = await call<ReleaseList>('GET', releasesOf(app.appId));
    expect(releases.body.releases.map((r) => r.release)).toEqual([2, 1]);
    expect(releases.body.releases[0].changes.map((c) => c.id)).toEqual(['a', 'b', 'd', 'e']);
    expect(releases.body.scheduled).toBeNull();
    // The next draft: the edits made after scheduling, based on the release just made.
    const next = await call<Draft>('GET', draftOf(app.appId));
    expect(next.status).toBe(200);
    expect(next.body).toMatchObject({ baseRelease: 2, scheduledAt: null, schedule: null });
    expect(next.body.changes).toEqual([
      { kind: 'mission', id: 'a', change: 'changed' },
      { kind: 'mission', id: 'f', change: 'added' },
    ]);
    const db = await getDb();
    const audit = await db.select().from(auditLog).where(and(eq(auditLog.appId, app.appId), eq(auditLog.action, 'draft.publish'))).orderBy(asc(auditLog.id));
    expect(audit).toHaveLength(1);
    expect(audit[0].after).toMatchObject({ release: 2, scheduled: true, leftInDraft: next.body.changes });
  });

  it('a scheduled draft not edited since leaves no draft behind once it is live', async () => {
    const app = await createTestApp(server, { missions: [mission('a')], campaigns: [] });
    await call('PUT', draftOf(app.appId), { missions: [mission('a'), mission('b')], campaigns: [] });
    const at = Date.now() + 1_000;
    expect((await call('POST', publishOf(app.appId), { at })).status).toBe(202);
    expect((await call<Draft>('GET', draftOf(app.appId))).body.schedule).toMatchObject({ release: 2, changesSince: [] });
    advanceClockInProcess(Math.max(0, at - Date.now()));
    await waitFor(async () => (await liveMissions(app)).some((m) => m.id === 'b'), 5_000);
    expect((await call('GET', draftOf(app.appId))).status).toBe(404);
  });
});
