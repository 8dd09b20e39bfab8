// The two-person rule (issue 39 §5), over real HTTP: with requireApproval a
// publish is a pending approval (a snapshot, as a scheduled release holds),
// nothing goes live until another editor or admin approves it; the requester
// cannot approve; a rejection keeps the changes in the draft; approve and
// reject racing leave exactly one outcome.
import { and, asc, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { auditLog, catalogReleases } from '@/db/schema';
import type { Draft, PendingApproval } from '@/lib/contract/release';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { adminCall, signedInStaff, type AdminAnswer, type TestStaff } from '@/lib/testing/staff';
import { mission, newUser } from '@/lib/testing/fixtures';

let server: TestServer;
let dana: TestStaff; // editor: asks to publish
let eli: TestStaff; // editor: approves
let ada: TestStaff; // admin: turns the rule on
let sam: TestStaff; // support: may not approve
beforeAll(async () => {
  server = await startTestServer();
  dana = await signedInStaff(server, 'editor');
  eli = await signedInStaff(server, 'editor');
  ada = await signedInStaff(server, 'admin');
  sam = await signedInStaff(server, 'support');
});
afterAll(async () => {
  await server?.close();
});

const call = <T = Record<string, unknown>>(who: TestStaff | 'key', method: string, route: string, body?: unknown): Promise<AdminAnswer<T>> => adminCall<T>(server, method, route, body, who);
const draftOf = (appId: string) => `/api/admin/apps/${appId}/draft`;

async function releasesCount(appId: string): Promise<number> {
  const db = await getDb();
  const [row] = await db.select({ n: count() }).from(catalogReleases).where(eq(catalogReleases.appId, appId));
  return row.n;
}

async function liveMissions(app: TestApp): Promise<Array<{ id: string; title: string }>> {
  const user = await newUser(server, app);
  return (await user.getJson<{ missions: Array<{ id: string; title: string }> }>('/v1/missions')).body.missions;
}

async function auditActions(appId: string): Promise<Array<{ action: string; actor: string; after: unknown }>> {
  const db = await getDb();
  const rows = await db.select().from(auditLog).where(and(eq(auditLog.appId, appId))).orderBy(asc(auditLog.id));
  return rows.filter((r) => r.action.startsWith('draft.')).map((r) => ({ action: r.action, actor: r.actor, after: r.after }));
}

/** An app with the rule on, live missions a and b, and a draft retitling a and adding c. */
async function appWithPendingDraft(): Promise<TestApp> {
  const app = await createTestApp(server, { missions: [mission('a'), mission('b')], campaigns: [] });
  const on = await call(ada, 'PATCH', `/api/admin/apps/${app.appId}`, { requireApproval: true });
  expect(on.status).toBe(200);
  expect(on.body).toMatchObject({ app: { requireApproval: true } });
  expect((await call(dana, 'PUT', draftOf(app.appId), { missions: [{ ...mission('a'), title: 'Renamed a' }, mission('b'), mission('c')], campaigns: [] })).status).toBe(200);
  return app;
}

describe('the two-person rule', () => {
  it('a publish waits for approval with nothing live; the requester cannot approve; another editor approves and the snapshot goes live, later edits stay in the draft', async () => {
    const app = await appWithPendingDraft();
    const releasesBefore = await releasesCount(app.appId);

    const asked = await call<{ approval: PendingApproval }>(dana, 'POST', `${draftOf(app.appId)}/publish`, {});
    expect(asked.status).toBe(202);
    expect(asked.body.approval).toMatchObject({
      requestedBy: `staff:${dana.email}`,
      publishAt: null,
      release: releasesBefore + 1,
      changes: [
        { kind: 'mission', id: 'a', change: 'changed' },
        { kind: 'mission', id: 'c', change: 'added' },
      ],
      warnings: [],
      changesSince: [],
    });
    expect(asked.body.approval.changeDetails[0].fields).toEqual([{ path: 'title', before: 'Mission a', after: 'Renamed a' }]);
    // Nothing is live: no release, players see the old catalog.
    expect(await releasesCount(app.appId)).toBe(releasesBefore);
    expect((await liveMissions(app)).map((m) => [m.id, m.title])).toEqual([
      ['a', 'Mission a'],
      ['b', 'Mission b'],
    ]);

    // An edit while it waits goes into the draft, not into the request.
    expect((await call(dana, 'PUT', `${draftOf(app.appId)}/missions/d`, mission('d'))).status).toBe(200);
    const draft = await call<Draft>(eli, 'GET', draftOf(app.appId));
    expect(draft.body.approval?.changesSince).toEqual([{ kind: 'mission', id: 'd', change: 'added' }]);
    expect(draft.body.approval?.changes.map((c) => c.id)).toEqual(['a', 'c']);

    // One pending approval at a time; the draft cannot be discarded under it.
    expect((await call(eli, 'POST', `${draftOf(app.appId)}/publish`, {})).body).toMatchObject({ error: 'approval_pending' });
    expect((await call(eli, 'DELETE', draftOf(app.appId))).body).toMatchObject({ error: 'approval_pending' });

    // Self-approval: refused, nothing written.
    const self = await call(dana, 'POST', `${draftOf(app.appId)}/approve`, {});
    expect(self.status).toBe(403);
    expect(self.body).toMatchObject({ error: 'self_approval' });
    // Support may not approve; nor may anyone approve a request they did not review.
    expect((await call(sam, 'POST', `${draftOf(app.appId)}/approve`, {})).status).toBe(403);
    expect((await call(eli, 'POST', `${draftOf(app.appId)}/approve`, { requestedAt: asked.body.approval.requestedAt - 1 })).body).toMatchObject({ error: 'no_pending_approval' });
    // Withdraw is the requester's.
    expect((await call(eli, 'POST', `${draftOf(app.appId)}/withdraw`)).body).toMatchObject({ error: 'not_requester' });
    expect(await releasesCount(app.appId)).toBe(releasesBefore);
    expect((await call<Draft>(eli, 'GET', draftOf(app.appId))).body.approval).not.toBeNull();

    // Another editor approves: the snapshot goes live as the requester's release.
    const approved = await call<{ release: number }>(eli, 'POST', `${draftOf(app.appId)}/approve`, { requestedAt: asked.body.approval.requestedAt });
    expect(approved.status).toBe(200);
    expect(approved.body.release).toBe(releasesBefore + 1);
    expect(await releasesCount(app.appId)).toBe(releasesBefore + 1);
    const live = await liveMissions(app);
    expect(live.map((m) => [m.id, m.title])).toEqual([
      ['a', 'Renamed a'],
      ['b', 'Mission b'],
      ['c', 'Mission c'],
    ]);
    const releases = await call<{ releases: Array<{ release: number; publishedBy: string }> }>(eli, 'GET', `/api/admin/apps/${app.appId}/releases`);
    expect(releases.body.releases[0]).toMatchObject({ release: releasesBefore + 1, publishedBy: `staff:${dana.email}` });
    // The edit made while it waited is the next draft.
    const next = await call<Draft>(dana, 'GET', draftOf(app.appId));
    expect(next.body).toMatchObject({ approval: null, baseRelease: releasesBefore + 1, changes: [{ kind: 'mission', id: 'd', change: 'added' }] });
    // A second approve finds nothing waiting.
    expect((await call(ada, 'POST', `${draftOf(app.appId)}/approve`, {})).body).toMatchObject({ error: 'no_pending_approval' });

    const audit = await auditActions(app.appId);
    expect(audit.map((a) => a.action)).toEqual(['draft.update', 'draft.approval_request', 'draft.mission.put', 'draft.publish', 'draft.approve']);
    expect(audit.find((a) => a.action === 'draft.approve')).toMatchObject({ actor: `staff:${eli.email}` });
    expect(audit.find((a) => a.action === 'draft.publish')).toMatchObject({ actor: `staff:${dana.email}`, after: { approvedBy: `staff:${eli.email}` } });
  });

  it('a rejection with a reason publishes nothing and keeps the changes in the draft; the requester reads the reason', async () => {
    const app = await appWithPendingDraft();
    const releasesBefore = await releasesCount(app.appId);
    expect((await call(dana, 'POST', `${draftOf(app.appId)}/publish`, {})).status).toBe(202);
    expect((await call(eli, 'POST', `${draftOf(app.appId)}/reject`, {})).body).toMatchObject({ error: 'validation_error' });
    const rejected = await call(eli, 'POST', `${draftOf(app.appId)}/reject`, { reason: 'Keep the old title until Monday' });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toEqual({ approval: null, draft: { changes: [{ kind: 'mission', id: 'a', change: 'changed' }, { kind: 'mission', id: 'c', change: 'added' }] } });
    expect(await releasesCount(app.appId)).toBe(releasesBefore);
    expect((await liveMissions(app)).map((m) => m.id)).toEqual(['a', 'b']);
    const draft = await call<Draft>(dana, 'GET', draftOf(app.appId));
    expect(draft.body).toMatchObject({ approval: null, schedule: null, rejection: { requestedBy: `staff:${dana.email}`, rejectedBy: `staff:${eli.email}`, reason: 'Keep the old title until Monday' } });
    expect(draft.body.changes.map((c) => c.id)).toEqual(['a', 'c']);
    expect((await auditActions(app.appId)).find((a) => a.action === 'draft.reject')).toMatchObject({ actor: `staff:${eli.email}`, after: { reason: 'Keep the old title until Monday' } });

    // Asked again and withdrawn by the requester: nothing published, the rejection note gone with the new request.
    expect((await call(dana, 'POST', `${draftOf(app.appId)}/publish`, {})).status).toBe(202);
    expect((await call<Draft>(dana, 'GET', draftOf(app.appId))).body.rejection).toBeNull();
    expect((await call(dana, 'POST', `${draftOf(app.appId)}/withdraw`)).status).toBe(200);
    expect((await call<Draft>(dana, 'GET', draftOf(app.appId))).body).toMatchObject({ approval: null, changes: [{ id: 'a' }, { id: 'c' }] });
    expect(await releasesCount(app.appId)).toBe(releasesBefore);
  });

  it('approving a snapshot with payout warnings needs the approver to acknowledge them; a scheduled request is scheduled on approval', async () => {
    const app = await createTestApp(server, { missions: [mission('a')], campaigns: [] });
    await call(ada, 'PATCH', `/api/admin/apps/${app.appId}`, { requireApproval: true });
    await call(dana, 'PUT', draftOf(app.appId), { missions: [mission('a', { reward: { kind: 'currency', currency: 'gems', amount: 1_000 } })], campaigns: [] });
    const releasesBefore = await releasesCount(app.appId);
    const at = Date.now() + 3_600_000;
    expect((await call(dana, 'POST', `${draftOf(app.appId)}/publish`, { at })).body).toMatchObject({ error: 'needs_acknowledgement' });
    const asked = await call<{ approval: PendingApproval }>(dana, 'POST', `${draftOf(app.appId)}/publish`, { at, acknowledgeWarnings: true });
    expect(asked.status).toBe(202);
    expect(asked.body.approval).toMatchObject({ publishAt: at, warnings: [{ code: 'reward_multiplied', id: 'a' }] });

    const unacknowledged = await call(eli, 'POST', `${draftOf(app.appId)}/approve`, {});
    expect(unacknowledged.status).toBe(409);
    expect(unacknowledged.body).toMatchObject({ error: 'needs_acknowledgement', warnings: [{ code: 'reward_multiplied' }] });
    expect((await call<Draft>(eli, 'GET', draftOf(app.appId))).body.approval).not.toBeNull();

    const approved = await call(eli, 'POST', `${draftOf(app.appId)}/approve`, { acknowledgeWarnings: true });
    expect(approved.status).toBe(202);
    expect(approved.body).toEqual({ scheduledAt: at });
    const draft = await call<Draft>(eli, 'GET', draftOf(app.appId));
    expect(draft.body).toMatchObject({ approval: null, scheduledAt: at, schedule: { scheduledAt: at, scheduledBy: `staff:${dana.email}`, changes: [{ id: 'a' }] } });
    expect(await releasesCount(app.appId)).toBe(releasesBefore);
    // While the approved release is scheduled, asking to publish again is refused.
    expect((await call(dana, 'POST', `${draftOf(app.appId)}/publish`, { acknowledgeWarnings: true })).body).toMatchObject({ error: 'release_scheduled' });
    expect((await auditActions(app.appId)).find((a) => a.action === 'draft.approve')).toMatchObject({ after: { scheduledAt: at, acknowledgedWarnings: [{ code: 'reward_multiplied' }] } });
  });

  it('with the rule on, the live catalog changes only through the draft: direct writes answer 409 approval_required, nothing written', async () => {
    const app = await appWithPendingDraft();
    const releasesBefore = await releasesCount(app.appId);
    const refusals = [
      await call(dana, 'PUT', `/api/admin/apps/${app.appId}/catalog`, { missions: [mission('a'), mission('z')], campaigns: [] }),
      await call('key', 'PUT', `/api/admin/apps/${app.appId}/catalog`, { missions: [mission('a'), mission('z')], campaigns: [] }),
      await call(dana, 'POST', `/api/admin/apps/${app.appId}/missions`, mission('z')),
      await call(dana, 'POST', `/api/admin/apps/${app.appId}/missions/b/archive`),
    ];
    for (const refused of refusals) {
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ error: 'approval_required' });
    }
    expect(await releasesCount(app.appId)).toBe(releasesBefore);
    expect((await liveMissions(app)).map((m) => m.id)).toEqual(['a', 'b']);
    // Off again: a direct write goes through.
    expect((await call(ada, 'PATCH', `/api/admin/apps/${app.appId}`, { requireApproval: false })).status).toBe(200);
    expect((await call(dana, 'POST', `/api/admin/apps/${app.appId}/missions`, mission('z'))).status).toBe(201);
    expect(await releasesCount(app.appId)).toBe(releasesBefore + 1);
  });

  it('approve and reject at once: exactly one happens, the other answers no_pending_approval', async () => {
    for (let round = 0; round < 3; round++) {
      const app = await appWithPendingDraft();
      const releasesBefore = await releasesCount(app.appId);
      expect((await call(dana, 'POST', `${draftOf(app.appId)}/publish`, {})).status).toBe(202);
      const [approve, reject] = await Promise.all([
        call(eli, 'POST', `${draftOf(app.appId)}/approve`, {}),
        call(ada, 'POST', `${draftOf(app.appId)}/reject`, { reason: 'not now' }),
      ]);
      const statuses = [approve.status, reject.status].sort();
      expect(statuses).toEqual([200, 409]);
      const loser = approve.status === 409 ? approve : reject;
      expect(loser.body).toMatchObject({ error: 'no_pending_approval' });
      const draft = await call<Draft>(eli, 'GET', `${draftOf(app.appId)}?allowMissing=true`);
      if (approve.status === 200) {
        expect(await releasesCount(app.appId)).toBe(releasesBefore + 1);
        expect(draft.status).toBe(204);
      } else {
        expect(await releasesCount(app.appId)).toBe(releasesBefore);
        expect(draft.body).toMatchObject({ approval: null, rejection: { reason: 'not now' } });
      }
    }
  });

  it('without the setting a publish goes ahead at once, as before', async () => {
    const app = await createTestApp(server, { missions: [mission('a')], campaigns: [] });
    await call(dana, 'PUT', draftOf(app.appId), { missions: [mission('a'), mission('b')], campaigns: [] });
    const published = await call(dana, 'POST', `${draftOf(app.appId)}/publish`, {});
    expect(published.status).toBe(200);
    expect((await call(eli, 'POST', `${draftOf(app.appId)}/approve`, {})).body).toMatchObject({ error: 'no_pending_approval' });
    expect((await call(eli, 'POST', `${draftOf(app.appId)}/reject`, { reason: 'x' })).body).toMatchObject({ error: 'no_pending_approval' });
    expect((await call(eli, 'POST', `${draftOf(app.appId)}/withdraw`)).body).toMatchObject({ error: 'no_pending_approval' });
    // Only admins change the setting.
    expect((await call(eli, 'PATCH', `/api/admin/apps/${app.appId}`, { requireApproval: true })).status).toBe(403);
  });
});
