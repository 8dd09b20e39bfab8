// Drafts and releases over real HTTP: the draft's storage (GET/PUT/DELETE,
// validation as a whole, 404 draft_not_found, roles, audit), publishing it
// (now and scheduled), the releases list, restore, and what publishing does
// to players (nothing earned changes; /v1 follows the live catalog only).
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { auditLog } from '@/db/schema';
import type { Draft, ReleaseList } from '@/lib/contract/release';
import { createTestApp, startTestServer, type TestServer } from '@/lib/testing/test-server';
import { adminCall, signedInStaff, type AdminAnswer, type TestStaff } from '@/lib/testing/staff';
import { mission, newUser } from '@/lib/testing/fixtures';
import { advanceClockInProcess } from '@/lib/testing/rate-window';
import type { TestApp } from '@/lib/testing/test-server';

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

type Answer<T = Record<string, unknown>> = AdminAnswer<T>;

function call<T = Record<string, unknown>>(method: string, route: string, body?: unknown, who: TestStaff | 'key' = 'key'): Promise<Answer<T>> {
  return adminCall<T>(server, method, route, body, who);
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

  it('with allowMissing=true answers 204 with no body when the app has no draft (the console reads it so: no failed request), the draft when it has one', async () => {
    const app = await createTestApp(server, { missions: [mission('a')], campaigns: [] });
    const optional = `${draftOf(app.appId)}?allowMissing=true`;
    const none = await call('GET', optional, undefined, support);
    expect(none).toEqual({ status: 204, body: null });
    // Without it (or with false) the documented answer stays 404 draft_not_found.
    expect((await call('GET', draftOf(app.appId), undefined, support)).body.error).toBe('draft_not_found');
    expect((await call('GET', `${draftOf(app.appId)}?allowMissing=false`)).status).toBe(404);
    const bad = await call('GET', `${draftOf(app.appId)}?allowMissing=yes`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('validation_error');
    expect(String(bad.body.message)).toContain('allowMissing');
    // Another app's id still says the app does not exist.
    expect((await call('GET', `/api/admin/apps/no-such-app-${app.appId}/draft?allowMissing=true`)).body.error).toBe('app_not_found');

    const put = await call<Draft>('PUT', draftOf(app.appId), { missions: [mission('a'), mission('b')], campaigns: [] }, editor);
    const got = await call<Draft>('GET', optional, undefined, support);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(put.body);
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

const publishOf = (appId: string) => `/api/admin/apps/${appId}/draft/publish`;
const releasesOf = (appId: string) => `/api/admin/apps/${appId}/releases`;

async function liveIds(app: TestApp): Promise<string[]> {
  const user = await newUser(server, app);
  return ((await user.getJson<{ missions: { id: string }[] }>('/v1/missions')).body.missions ?? []).map((m) => m.id);
}

async function waitFor(check: () => Promise<boolean>, ms: number): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (await check()) return Date.now() - start;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not within ${ms} ms`);
}

describe('publishing', () => {
  it('publish now makes the whole draft live as the next release; /v1 follows only then; restore brings the previous release back', async () => {
    const app = await createTestApp(server, { missions: [mission('a'), mission('b')], campaigns: [] });
    // The catalog PUT that created the app made release 1.
    const first = await call<ReleaseList>('GET', releasesOf(app.appId), undefined, support);
    expect(first.body.releases.map((r) => r.release)).toEqual([1]);
    expect(first.body.scheduled).toBeNull();

    await call('PUT', draftOf(app.appId), { missions: [mission('a', { title: 'A, renamed' }), mission('c')], campaigns: [] }, editor);
    expect(await liveIds(app)).toEqual(['a', 'b']);
    expect((await call('POST', publishOf(app.appId), {}, support)).status).toBe(403);

    const published = await call<{ release: number; publishedAt: number }>('POST', publishOf(app.appId), {}, editor);
    expect(published.status).toBe(200);
    expect(published.body.release).toBe(2);
    expect(await liveIds(app)).toEqual(['a', 'c']);
    expect((await call('GET', draftOf(app.appId))).status).toBe(404);
    // The removed mission stays in the live tables, archived (its completed records stay claimable).
    const live = await call<{ missions: Array<{ id: string; archived: boolean; title: string }> }>('GET', `/api/admin/apps/${app.appId}/catalog`);
    expect(live.body.missions.map((m) => [m.id, m.archived])).toEqual([['a', false], ['b', true], ['c', false]]);

    const releases = await call<ReleaseList>('GET', releasesOf(app.appId), undefined, support);
    expect(releases.body.releases.map((r) => r.release)).toEqual([2, 1]);
    expect(releases.body.releases[0]).toMatchObject({
      publishedBy: `staff:${editor.email}`,
      publishedAt: published.body.publishedAt,
      changes: [
        { kind: 'mission', id: 'a', change: 'changed' },
        { kind: 'mission', id: 'b', change: 'removed' },
        { kind: 'mission', id: 'c', change: 'added' },
      ],
    });

    // Revert: release 1 into the draft, publish, /v1 is back.
    expect((await call('POST', `${releasesOf(app.appId)}/1/restore`, undefined, support)).status).toBe(403);
    const restored = await call<Draft>('POST', `${releasesOf(app.appId)}/1/restore`, undefined, editor);
    expect(restored.status).toBe(200);
    expect(restored.body.baseRelease).toBe(2);
    expect(restored.body.changes).toEqual([
      { kind: 'mission', id: 'a', change: 'changed' },
      { kind: 'mission', id: 'b', change: 'changed' },
      { kind: 'mission', id: 'c', change: 'removed' },
    ]);
    expect(await liveIds(app)).toEqual(['a', 'c']);
    expect((await call('POST', publishOf(app.appId), {})).body.release).toBe(3);
    expect(await liveIds(app)).toEqual(['a', 'b']);
    const titles = await call<{ missions: Array<{ id: string; title: string }> }>('GET', `/api/admin/apps/${app.appId}/catalog`);
    expect(titles.body.missions.find((m) => m.id === 'a')?.title).toBe('Mission a');

    expect((await call('POST', `${releasesOf(app.appId)}/99/restore`)).body.error).toBe('release_not_found');
    expect((await call('POST', `${releasesOf(app.appId)}/x/restore`)).status).toBe(400);
    expect((await call('POST', publishOf(app.appId), {})).body.error).toBe('draft_not_found');
  });

  it('every other path of a catalog change makes a release too: PUT …/catalog, a mission saved, archived, a campaign, a theme; a save that changes nothing makes none', async () => {
    const app = await createTestApp(server, { missions: [mission('a')], campaigns: [] });
    const record = await call<{ version: number }>('GET', `/api/admin/apps/${app.appId}/missions/a`);
    const statuses = [
      (await call('PUT', `/api/admin/apps/${app.appId}/missions/a`, { ...mission('a'), title: 'Renamed', version: record.body.version }, editor)).status,
      (await call('PUT', `/api/admin/apps/${app.appId}/missions/a`, { ...mission('a'), title: 'Renamed', version: record.body.version + 1 }, editor)).status,
      (await call('POST', `/api/admin/apps/${app.appId}/missions/a/archive`, {}, editor)).status,
      (await call('POST', `/api/admin/apps/${app.appId}/themes`, { id: 'night', name: 'Night', primaryColor: '#112233' }, editor)).status,
      (await call('POST', `/api/admin/apps/${app.appId}/campaigns`, { id: 'c1', title: 'C1', startAt: Date.now(), endAt: Date.now() + 86_400_000, themeId: 'night' }, editor)).status,
      (await call('PUT', `/api/admin/apps/${app.appId}/catalog`, { missions: [mission('z')], campaigns: [] })).status,
    ];
    expect(statuses).toEqual([200, 200, 200, 201, 201, 200]);
    const releases = await call<ReleaseList>('GET', releasesOf(app.appId));
    expect(releases.body.releases.map((r) => [r.release, r.changes])).toEqual([
      [6, [{ kind: 'mission', id: 'z', change: 'added' }]],
      [5, [{ kind: 'campaign', id: 'c1', change: 'added' }]],
      [4, [{ kind: 'theme', id: 'night', change: 'added' }]],
      [3, [{ kind: 'mission', id: 'a', change: 'changed' }]],
      [2, [{ kind: 'mission', id: 'a', change: 'changed' }]],
      [1, [{ kind: 'mission', id: 'a', change: 'added' }]],
    ]);
    expect(releases.body.releases[1].publishedBy).toBe(`staff:${editor.email}`);
    expect(releases.body.releases[0].publishedBy).toBe('admin-api-key');
  });

  it('publishing changes nothing earned: a claimed reward stays claimed, balances stay; a removed mission leaves /v1 but its completed record stays claimable', async () => {
    const app = await createTestApp(server, { missions: [mission('claimed'), mission('pending'), mission('kept')], campaigns: [] });
    const user = await newUser(server, app);
    expect((await user.event('play')).status).toBe(200);
    expect((await user.claim('claimed')).status).toBe(200);
    const balanceBefore = await user.getJson<{ balances: Array<{ currency: string; amount: number }> }>('/v1/balance');
    expect(balanceBefore.body.balances).toMatchObject([{ currency: 'gems', amount: 10 }]);

    await call('PUT', draftOf(app.appId), { missions: [mission('kept')], campaigns: [] }, editor);
    expect((await call('POST', publishOf(app.appId), {}, editor)).status).toBe(200);

    const listed = await user.getJson<{ missions: { id: string }[] }>('/v1/missions');
    expect(listed.body.missions.map((m) => m.id)).toEqual(['kept']);
    expect((await user.getJson('/v1/balance')).body).toEqual(balanceBefore.body);
    // Completed before the release removed it: claimable still, like an archived mission.
    expect((await user.claim('pending')).status).toBe(200);
    // The claimed one is not claimed again.
    expect((await user.claim('claimed')).status).toBe(409);
    const after = await user.getJson<{ balances: Array<{ currency: string; amount: number }> }>('/v1/balance');
    expect(after.body.balances).toMatchObject([{ currency: 'gems', amount: 20 }]);
  });

  it('a changed count and existing progress: a lowered count completes a player at their next qualifying event; a raised one leaves a completed record completed', async () => {
    const app = await createTestApp(server, { missions: [mission('lowered', { criteria: { eventName: 'play', count: 3 } }), mission('raised', { criteria: { eventName: 'win', count: 1 } })], campaigns: [] });
    const user = await newUser(server, app);
    await user.event('play');
    await user.event('play');
    await user.event('win');
    const progressOf = async (id: string) => (await user.getJson<{ progress: Record<string, { status: string; currentCount: number; targetCount: number }> }>('/v1/missions')).body.progress[id];
    expect(await progressOf('lowered')).toMatchObject({ status: 'active', currentCount: 2 });
    expect(await progressOf('raised')).toMatchObject({ status: 'completed', currentCount: 1 });

    await call('PUT', draftOf(app.appId), {
      missions: [mission('lowered', { criteria: { eventName: 'play', count: 2 } }), mission('raised', { criteria: { eventName: 'win', count: 5 } })],
      campaigns: [],
    });
    await call('POST', publishOf(app.appId), {});
    // Nothing is rewritten by the publish itself.
    expect(await progressOf('lowered')).toMatchObject({ status: 'active', currentCount: 2 });
    expect(await progressOf('raised')).toMatchObject({ status: 'completed' });
    // The next qualifying event is judged against the new count.
    await user.event('play');
    expect(await progressOf('lowered')).toMatchObject({ status: 'completed' });
    expect((await user.claim('raised')).status).toBe(200);
  });
});

describe('a scheduled publish', () => {
  it('goes live within 5 s of its time, with the draft as it was when scheduled; /v1 is unchanged before; cancel stops it', async () => {
    const app = await createTestApp(server, { missions: [mission('a')], campaigns: [] });
    await call('PUT', draftOf(app.appId), { missions: [mission('a'), mission('b')], campaigns: [] }, editor);
    expect((await call('POST', publishOf(app.appId), { at: Date.now() - 1 })).status).toBe(400);
    expect((await call('POST', publishOf(app.appId), { when: 5 })).status).toBe(400);
    const at = Date.now() + 2_000;
    const scheduled = await call('POST', publishOf(app.appId), { at }, editor);
    expect(scheduled.status).toBe(202);
    expect(scheduled.body).toEqual({ scheduledAt: at });
    const list = await call<ReleaseList>('GET', releasesOf(app.appId), undefined, support);
    expect(list.body.scheduled).toMatchObject({ scheduledAt: at, scheduledBy: `staff:${editor.email}`, changes: [{ kind: 'mission', id: 'b', change: 'added' }] });
    expect((await call<Draft>('GET', draftOf(app.appId))).body.scheduledAt).toBe(at);
    // Edited after scheduling: the publish takes the snapshot made when it was scheduled (issue 39 §5);
    // the edit stays in the draft for the next release.
    await call('PUT', draftOf(app.appId), { missions: [mission('a'), mission('c')], campaigns: [] }, editor);
    expect(await liveIds(app)).toEqual(['a']);
    // The time comes on this process's clock (the server's, which the poller reads) instead of in real time.
    advanceClockInProcess(Math.max(0, at - Date.now()));
    await waitFor(async () => (await liveIds(app)).includes('b'), 5_000);
    expect(Date.now()).toBeGreaterThanOrEqual(at);
    expect(await liveIds(app)).toEqual(['a', 'b']);
    const releases = await call<ReleaseList>('GET', releasesOf(app.appId));
    expect(releases.body.scheduled).toBeNull();
    expect(releases.body.releases.map((r) => r.release)).toEqual([2, 1]);
    expect(releases.body.releases[0]).toMatchObject({ publishedBy: `staff:${editor.email}`, changes: [{ kind: 'mission', id: 'b', change: 'added' }] });
    expect(releases.body.releases[0].publishedAt).toBeGreaterThanOrEqual(at);
    expect(releases.body.releases[0].publishedAt).toBeLessThan(at + 5_000);

    // Cancelled: the time passes, nothing goes live, the draft stays.
    await call('PUT', draftOf(app.appId), { missions: [mission('a')], campaigns: [] }, editor);
    const again = Date.now() + 1_000;
    await call('POST', publishOf(app.appId), { at: again }, editor);
    expect((await call('DELETE', publishOf(app.appId), undefined, editor)).body).toEqual({ scheduledAt: null });
    // Evidence that a poll ran after its time, instead of a 3.5 s pause: another app's draft scheduled
    // just after it goes live (the poller publishes due drafts oldest first, so that poll would have
    // published the cancelled one before it).
    const marker = await createTestApp(server, { missions: [mission('a')], campaigns: [] });
    await call('PUT', draftOf(marker.appId), { missions: [mission('a'), mission('m')], campaigns: [] }, editor);
    expect((await call('POST', publishOf(marker.appId), { at: again + 1 }, editor)).status).toBe(202);
    advanceClockInProcess(Math.max(0, again + 1 - Date.now()));
    await waitFor(async () => (await liveIds(marker)).includes('m'), 5_000);
    expect(await liveIds(app)).toEqual(['a', 'b']);
    expect((await call<Draft>('GET', draftOf(app.appId))).body.scheduledAt).toBeNull();
    expect((await call<ReleaseList>('GET', releasesOf(app.appId))).body.releases).toHaveLength(2);
  });
});

describe('one item of the draft at a time (the console’s editors)', () => {
  const itemOf = (appId: string, collection: string, id: string) => `${draftOf(appId)}/${collection}/${id}`;

  it('PUT starts the draft from the live catalog, replaces one item, keeps the others; /v1 unchanged until published; support reads only; audited', async () => {
    const app = await createTestApp(server, { missions: [mission('a'), mission('b')], campaigns: [] });
    const user = await newUser(server, app);
    const v1Before = (await user.getJson('/v1/missions')).body;

    const put = await call<Draft>('PUT', itemOf(app.appId, 'missions', 'a'), { ...mission('a'), title: 'Renamed a', criteria: { eventName: 'play', count: 3 } }, editor);
    expect(put.status).toBe(200);
    expect(put.body.changes).toEqual([{ kind: 'mission', id: 'a', change: 'changed' }]);
    expect(put.body.catalog.missions.map((m) => [m.id, m.title])).toEqual([
      ['a', 'Renamed a'],
      ['b', 'Mission b'],
    ]);
    // The id may be left out of the body; another id than the path's is refused.
    const added = await call<Draft>('PUT', itemOf(app.appId, 'missions', 'c'), (({ id: _id, ...rest }) => rest)(mission('c')), editor);
    expect(added.body.changes).toEqual([
      { kind: 'mission', id: 'a', change: 'changed' },
      { kind: 'mission', id: 'c', change: 'added' },
    ]);
    const wrongId = await call('PUT', itemOf(app.appId, 'missions', 'c'), mission('d'), editor);
    expect(wrongId.status).toBe(400);
    expect(wrongId.body.message).toBe('id: must be the id in the path ("c")');
    // An invalid item answers the field, as the live route does.
    const bad = await call('PUT', itemOf(app.appId, 'missions', 'a'), { ...mission('a'), criteria: { eventName: 'play', count: 0 } }, editor);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^criteria\.count: /);

    expect((await call('PUT', itemOf(app.appId, 'missions', 'a'), mission('a'), support)).status).toBe(403);
    expect((await call('DELETE', itemOf(app.appId, 'missions', 'a'), undefined, support)).status).toBe(403);
    expect((await call('POST', `${itemOf(app.appId, 'missions', 'a')}/revert`, undefined, support)).status).toBe(403);

    expect((await user.getJson('/v1/missions')).body).toEqual(v1Before);
    expect(await liveIds(app)).toEqual(['a', 'b']);
    const db = await getDb();
    const audit = await db.select().from(auditLog).where(and(eq(auditLog.appId, app.appId), eq(auditLog.target, 'draft'))).orderBy(asc(auditLog.id));
    expect(audit.map((a) => a.action)).toEqual(['draft.mission.put', 'draft.mission.put']);

    expect((await call('POST', publishOf(app.appId), {}, editor)).status).toBe(200);
    expect(await liveIds(app)).toEqual(['a', 'b', 'c']);
    const listed = await user.getJson<{ missions: Array<{ id: string; title: string }> }>('/v1/missions');
    expect(listed.body.missions.find((m) => m.id === 'a')?.title).toBe('Renamed a');
  });

  it('is validated as a whole: a prerequisite, campaign or theme outside the draft is refused and nothing is stored', async () => {
    const app = await createTestApp(server, { missions: [mission('a')], campaigns: [] });
    const unknownPre = await call('PUT', itemOf(app.appId, 'missions', 'b'), mission('b', { prerequisites: ['nope'] }), editor);
    expect(unknownPre.status).toBe(400);
    expect(unknownPre.body.message).toBe('missions[1] (id "b"): prerequisite "nope" is not a mission of this catalog');
    const unknownCampaign = await call('PUT', itemOf(app.appId, 'missions', 'b'), mission('b', { campaignId: 'season' }), editor);
    expect(unknownCampaign.body.message).toBe('missions[1] (id "b"): campaignId "season" is not a campaign of this catalog');
    expect((await call('GET', draftOf(app.appId))).status).toBe(404);

    // A campaign and a theme in the draft, then a mission in that campaign: references inside the draft are fine.
    const startAt = Date.now() + 86_400_000;
    expect((await call('PUT', itemOf(app.appId, 'themes', 'night'), { name: 'Night', primaryColor: '#112233' }, editor)).status).toBe(200);
    const campaign = await call<Draft>('PUT', itemOf(app.appId, 'campaigns', 'season'), { title: 'Season', startAt, endAt: startAt + 86_400_000, themeId: 'night', missionIds: ['a'] }, editor);
    expect(campaign.status).toBe(200);
    // missionIds assign those missions to it, as the live campaign routes do.
    expect(campaign.body.catalog.campaigns[0].missionIds).toEqual(['a']);
    expect(campaign.body.catalog.missions[0].campaignId).toBe('season');
    const unknownMission = await call('PUT', itemOf(app.appId, 'campaigns', 'season'), { title: 'Season', startAt, endAt: startAt + 86_400_000, missionIds: ['x'] }, editor);
    expect(unknownMission.body.message).toBe('missionIds: "x" is not a mission of the draft');
    const inCampaign = await call<Draft>('PUT', itemOf(app.appId, 'missions', 'b'), mission('b', { campaignId: 'season', prerequisites: ['a'] }), editor);
    expect(inCampaign.body.catalog.campaigns[0].missionIds).toEqual(['a', 'b']);
    // Without missionIds the campaign's missions stay; with [] it has none.
    const kept = await call<Draft>('PUT', itemOf(app.appId, 'campaigns', 'season'), { title: 'Season 1', startAt, endAt: startAt + 86_400_000, themeId: 'night' }, editor);
    expect(kept.body.catalog.campaigns[0].missionIds).toEqual(['a', 'b']);
    // What the rest of the draft uses cannot leave it (409, the live routes' code).
    const usedTheme = await call('DELETE', itemOf(app.appId, 'themes', 'night'), undefined, editor);
    expect(usedTheme.status).toBe(409);
    expect(usedTheme.body.message).toBe('Theme "night" is used by campaign "season" in the draft: give them another theme first');
    expect((await call('DELETE', itemOf(app.appId, 'missions', 'a'), undefined, editor)).body.message).toBe('Mission "a" is a prerequisite of mission "b" in the draft: remove it from their prerequisites first, or archive it');
    expect((await call('DELETE', itemOf(app.appId, 'campaigns', 'season'), undefined, editor)).body.message).toBe('Campaign "season" has missions "a", "b" in the draft: move them out first, or archive the campaign');
    // A revert is validated as a whole: the added campaign its draft missions use cannot go.
    const revertUsed = await call('POST', `${itemOf(app.appId, 'campaigns', 'season')}/revert`, undefined, editor);
    expect(revertUsed.status).toBe(400);
    expect(revertUsed.body.message).toBe('missions[0] (id "a"): campaignId "season" is not a campaign of this catalog');
    const missing = await call('DELETE', itemOf(app.appId, 'missions', 'zz'), undefined, editor);
    expect([missing.status, missing.body.error]).toEqual([404, 'mission_not_found']);
    expect((await call('DELETE', itemOf(app.appId, 'themes', 'zz'), undefined, editor)).body.error).toBe('not_found');
    const draft = await call<Draft>('GET', draftOf(app.appId));
    expect(draft.body.changes).toEqual([
      { kind: 'mission', id: 'a', change: 'changed' },
      { kind: 'mission', id: 'b', change: 'added' },
      { kind: 'campaign', id: 'season', change: 'added' },
      { kind: 'theme', id: 'night', change: 'added' },
    ]);
  });

  it('archive in the draft is undone by revert (the live version back); revert of an added item removes it; DELETE removes a live mission at publish', async () => {
    const app = await createTestApp(server, { missions: [mission('a'), mission('b')], campaigns: [] });
    expect((await call('POST', `${itemOf(app.appId, 'missions', 'a')}/revert`, undefined, editor)).body.error).toBe('draft_not_found');

    const archived = await call<Draft>('PUT', itemOf(app.appId, 'missions', 'a'), mission('a', { archived: true }), editor);
    expect(archived.body.changes).toEqual([{ kind: 'mission', id: 'a', change: 'changed' }]);
    await call('PUT', itemOf(app.appId, 'missions', 'n'), mission('n'), editor);
    const reverted = await call<{ draft: Draft; restored: string }>('POST', `${itemOf(app.appId, 'missions', 'a')}/revert`, undefined, editor);
    expect(reverted.status).toBe(200);
    expect(reverted.body.restored).toBe('live');
    expect(reverted.body.draft.changes).toEqual([{ kind: 'mission', id: 'n', change: 'added' }]);
    expect(reverted.body.draft.catalog.missions.find((m) => m.id === 'a')?.archived).toBe(false);
    const removedNew = await call<{ draft: Draft; restored: string }>('POST', `${itemOf(app.appId, 'missions', 'n')}/revert`, undefined, editor);
    expect(removedNew.body.restored).toBe('removed');
    expect(removedNew.body.draft.changes).toEqual([]);

    const removed = await call<Draft>('DELETE', itemOf(app.appId, 'missions', 'b'), undefined, editor);
    expect(removed.body.changes).toEqual([{ kind: 'mission', id: 'b', change: 'removed' }]);
    const db = await getDb();
    const audit = await db.select().from(auditLog).where(and(eq(auditLog.appId, app.appId), eq(auditLog.target, 'draft'))).orderBy(asc(auditLog.id));
    expect(audit.map((a) => a.action)).toEqual(['draft.mission.put', 'draft.mission.put', 'draft.mission.revert', 'draft.mission.revert', 'draft.mission.remove']);
    await call('POST', publishOf(app.appId), {}, editor);
    const user = await newUser(server, app);
    expect((await user.getJson<{ missions: { id: string }[] }>('/v1/missions')).body.missions.map((m) => m.id)).toEqual(['a']);
  });

  it('POST …/campaigns/:id/duplicate copies a campaign and its missions into the draft with new ids (201); /v1 unchanged; support refused; 404, 409 and 400 change nothing', async () => {
    const startAt = Date.now() + 86_400_000;
    const app = await createTestApp(server, {
      missions: [mission('a', { campaignId: 'fest' }), mission('b', { campaignId: 'fest', prerequisites: ['a'] }), mission('solo')],
      campaigns: [{ id: 'fest', title: 'Fest', startAt, endAt: startAt + 86_400_000 }],
    });
    const route = `${itemOf(app.appId, 'campaigns', 'fest')}/duplicate`;
    expect((await call('POST', route, {}, support)).status).toBe(403);
    const copied = await call<{ draft: Draft; campaignId: string; missionIds: Record<string, string> }>('POST', route, {}, editor);
    expect(copied.status).toBe(201);
    expect(copied.body.campaignId).toBe('fest-copy');
    expect(copied.body.missionIds).toEqual({ a: 'a-copy', b: 'b-copy' });
    const copy = copied.body.draft.catalog.campaigns.find((c) => c.id === 'fest-copy');
    expect(copy).toMatchObject({ title: 'Fest (copy)', startAt, missionIds: ['a-copy', 'b-copy'] });
    expect(copied.body.draft.catalog.missions.find((m) => m.id === 'b-copy')?.prerequisites).toEqual(['a-copy']);
    expect(copied.body.draft.changes.filter((c) => c.change === 'added').map((c) => c.id).sort()).toEqual(['a-copy', 'b-copy', 'fest-copy']);
    const [audit] = await (await getDb()).select().from(auditLog).where(and(eq(auditLog.appId, app.appId), eq(auditLog.action, 'draft.campaign.duplicate')));
    expect(audit.actor).toBe(`staff:${editor.email}`);
    // Players see nothing of it until published.
    const user = await newUser(server, app);
    const v1 = await user.getJson<{ missions: Array<{ id: string }> }>('/v1/missions');
    expect(v1.body.missions.map((m) => m.id)).toEqual(['a', 'b', 'solo']);

    const before = await call<Draft>('GET', draftOf(app.appId));
    const clash = await call('POST', route, { id: 'fest-copy' }, editor);
    expect([clash.status, clash.body.error]).toEqual([409, 'conflict']);
    const unknown = await call('POST', `${itemOf(app.appId, 'campaigns', 'nope')}/duplicate`, {}, editor);
    expect([unknown.status, unknown.body.error]).toEqual([404, 'campaign_not_found']);
    const badId = await call('POST', route, { id: 'has space' }, editor);
    expect([badId.status, badId.body.error]).toEqual([400, 'validation_error']);
    const extra = await call('POST', route, { startAt: 1 }, editor);
    expect([extra.status, extra.body.error]).toEqual([400, 'validation_error']);
    expect((await call<Draft>('GET', draftOf(app.appId))).body).toEqual(before.body);
    const named = await call<{ campaignId: string }>('POST', route, { id: 'spring', title: 'Spring' }, 'key');
    expect([named.status, named.body.campaignId]).toEqual([201, 'spring']);
  });
});

describe('GET …/missions/:missionId/progress', () => {
  it('counts the players with progress on the mission now, by status (support may read it)', async () => {
    const app = await createTestApp(server, { missions: [mission('two', { criteria: { eventName: 'play', count: 2 } }), mission('other')], campaigns: [] });
    const zero = await call('GET', `/api/admin/apps/${app.appId}/missions/two/progress`, undefined, support);
    expect(zero.body).toEqual({ missionId: 'two', players: 0, active: 0, completed: 0, claimed: 0 });
    const [u1, u2, u3, u4] = await Promise.all([newUser(server, app), newUser(server, app), newUser(server, app), newUser(server, app)]);
    await u1.event('play');
    await u2.event('play');
    await u2.event('play');
    await u3.event('play');
    await u3.event('play');
    expect((await u3.claim('two')).status).toBe(200);
    await u4.event('jump');
    const counts = await call('GET', `/api/admin/apps/${app.appId}/missions/two/progress`, undefined, support);
    expect(counts.status).toBe(200);
    expect(counts.body).toEqual({ missionId: 'two', players: 3, active: 1, completed: 1, claimed: 1 });
    expect((await call('GET', `/api/admin/apps/${app.appId}/missions/nowhere/progress`)).body).toMatchObject({ players: 0 });
  });
});

describe('POST …/draft/preview', () => {
  it('answers what /v1/missions answers the user when the draft equals live (every staff role); the draft\'s edits show; no draft: 404 draft_not_found', async () => {
    const doc = { missions: [mission('a'), mission('b', { prerequisites: ['a'] }), mission('c', { criteria: { eventName: 'play', count: 3 } })], campaigns: [] };
    const app = await createTestApp(server, doc);
    const user = await newUser(server, app);
    expect((await user.event('play')).status).toBe(200);
    expect((await user.claim('a')).status).toBe(200);
    const route = `${draftOf(app.appId)}/preview`;
    const none = await call('POST', route, { userId: user.userId }, support);
    expect(none.status).toBe(404);
    expect(none.body.error).toBe('draft_not_found');

    expect((await call('PUT', draftOf(app.appId), doc, editor)).status).toBe(200);
    const live = await user.getJson<Record<string, unknown>>('/v1/missions');
    const preview = await call('POST', route, { userId: user.userId }, support);
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual(live.body);
    expect((preview.body.missions as unknown[]).length).toBe(3);

    // The draft makes c need b: the preview locks it, /v1 (live) does not.
    expect((await call('PUT', draftOf(app.appId), { ...doc, missions: [doc.missions[0], doc.missions[1], mission('c', { prerequisites: ['b'] })] }, editor)).status).toBe(200);
    const edited = await call<{ missions: Array<{ id: string; locked?: boolean }> }>('POST', route, { userId: user.userId }, support);
    expect(edited.body.missions.find((m) => m.id === 'c')?.locked).toBe(true);
    const bad = await call('POST', route, { at: 5 }, support);
    expect(bad.status).toBe(400);
  });
});

describe('POST …/draft/preview with a hypothetical player (attributes, progress)', () => {
  type Listing = { missions: Array<{ id: string; locked?: boolean }>; progress: Record<string, { currentCount: number; targetCount: number; status: string }> };
  /** Rows of the app in every table a player's read or write could touch. */
  async function rowCounts(appId: string): Promise<Record<string, number>> {
    const db = await getDb();
    const counts: Record<string, number> = {};
    for (const table of ['progress', 'app_users', 'user_sequences', 'events', 'idempotency_keys', 'audit_log', 'ledger']) {
      const result = await db.execute(sql.raw(`select count(*)::int as n from ${table} where app_id = '${appId}'`));
      counts[table] = Number((result as unknown as { rows: Array<{ n: number }> }).rows[0].n);
    }
    return counts;
  }

  it('shows an audience-restricted mission for matching attributes only, applies progress, writes nothing; userId with attributes: 400', async () => {
    const doc = { missions: [mission('a'), mission('b', { prerequisites: ['a'] })], campaigns: [] };
    const app = await createTestApp(server, doc);
    const user = await newUser(server, app);
    expect((await user.event('play')).status).toBe(200);
    const draft = {
      ...doc,
      missions: [
        ...doc.missions,
        mission('ios-only', { audience: { platform: 'ios', level: { gte: 10 } } }),
        mission('daily', { criteria: { eventName: 'play', count: 3, window: 'daily' } }),
      ],
    };
    expect((await call('PUT', draftOf(app.appId), draft, editor)).status).toBe(200);
    const route = `${draftOf(app.appId)}/preview`;
    const before = await rowCounts(app.appId);
    const at = Date.UTC(2026, 0, 1, 2);

    const ios = await call<Listing>('POST', route, { attributes: { platform: 'ios', level: 12, timezone: 'Asia/Tokyo' }, at }, support);
    expect(ios.status).toBe(200);
    expect(ios.body.missions.map((m) => m.id)).toEqual(['a', 'b', 'daily', 'ios-only']);
    expect(ios.body.progress).toEqual({});
    expect(ios.body.missions.find((m) => m.id === 'b')?.locked).toBe(true);
    const low = await call<Listing>('POST', route, { attributes: { platform: 'ios', level: 9 }, at }, support);
    expect(low.body.missions.map((m) => m.id)).toEqual(['a', 'b', 'daily']);
    const android = await call<Listing>('POST', route, { attributes: { platform: 'android', level: 12 }, at }, support);
    expect(android.body.missions.map((m) => m.id)).toEqual(['a', 'b', 'daily']);

    // Progress: a claimed prerequisite unlocks b; a daily count is the one of the window containing `at`.
    const progressed = await call<Listing>(
      'POST',
      route,
      { attributes: { platform: 'ios', level: 12, timezone: 'Asia/Tokyo' }, progress: { a: { status: 'claimed' }, daily: { count: 2 } }, at },
      support,
    );
    expect(progressed.status).toBe(200);
    expect(progressed.body.progress.a).toMatchObject({ status: 'claimed', currentCount: 1, targetCount: 1 });
    expect(progressed.body.progress.daily).toMatchObject({ status: 'active', currentCount: 2, targetCount: 3 });
    expect(progressed.body.missions.find((m) => m.id === 'b')?.locked).toBe(false);
    const done = await call<Listing>('POST', route, { attributes: {}, progress: { daily: { count: 3 } }, at }, support);
    expect(done.body.progress.daily).toMatchObject({ status: 'completed', currentCount: 3 });

    // The stored player still previews from their own records.
    const stored = await call<Listing>('POST', route, { userId: user.userId, at }, support);
    expect(stored.body.progress.a).toMatchObject({ status: 'completed' });
    expect(stored.body.missions.map((m) => m.id)).toEqual(['a', 'b', 'daily']);

    // Refusals, each naming its path.
    const refusals: Array<[unknown, string]> = [
      [{ userId: user.userId, attributes: { platform: 'ios' } }, 'attributes: give either'],
      [{ at }, 'userId: required'],
      [{ userId: user.userId, progress: { a: { count: 1 } } }, 'progress: only with `attributes`'],
      [{ attributes: { timezone: 'Mars/Olympus' } }, 'attributes.timezone'],
      [{ attributes: {}, progress: { nope: { count: 1 } } }, 'progress.nope: the draft has no mission'],
      [{ attributes: {}, progress: { daily: { count: 4 } } }, 'progress.daily.count'],
      [{ attributes: {}, progress: { daily: { count: 3, status: 'active' } } }, 'progress.daily.status'],
      [{ attributes: {}, progress: { daily: { count: 1, when: 2 } } }, 'progress.daily'],
    ];
    for (const [body, message] of refusals) {
      const refused = await call('POST', route, body, support);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error).toBe('validation_error');
      expect(String(refused.body.message)).toContain(message);
    }
    expect(await rowCounts(app.appId)).toEqual(before);
    expect(before.progress).toBeGreaterThan(0);
  });
});
