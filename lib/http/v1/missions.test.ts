// GET /v1/missions and GET /v1/missions/:id over real HTTP: shape, paging,
// filters on the effective status, visibility of expired/ended/archived
// missions, and the counting windows as a client sees them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, putCatalog, startTestServer, type TestServer } from '@/lib/testing/test-server';
import { campaign, DAY, HOUR, mission, newUser } from '@/lib/testing/fixtures';
import { moveRecordsBack } from '@/lib/testing/records';

interface ListBody {
  missions: { id: string }[];
  progress: Record<string, { status: string; currentCount: number; targetCount: number; progress: number; missionId: string }>;
  nextCursor: string | null;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const ids = (body: ListBody) => body.missions.map((m) => m.id);

describe('GET /v1/missions: shape and paging', () => {
  it('lists missions with a progress map holding only missions that have a record, and nextCursor null on the last page', async () => {
    const app = await createTestApp(server, { missions: [mission('a'), mission('b', { criteria: { eventName: 'win', count: 3 } })] });
    const user = await newUser(server, app);
    await user.event('win');
    const { status, body } = await user.getJson<ListBody>('/v1/missions');
    expect(status).toBe(200);
    expect(ids(body)).toEqual(['a', 'b']);
    expect(Object.keys(body.progress)).toEqual(['b']);
    expect(body.progress.b).toMatchObject({ missionId: 'b', status: 'active', currentCount: 1, targetCount: 3 });
    expect(body.progress.b.progress).toBeCloseTo(1 / 3);
    expect(body).toHaveProperty('nextCursor', null);
    expect(body.missions[0]).toMatchObject({ id: 'a', title: 'Mission a', campaignId: null, expiresAt: null, iconUrl: null });
    expect(body.missions[0]).not.toHaveProperty('archived');
  });

  it('defaults limit to 50 and accepts at most 100', async () => {
    const many = Array.from({ length: 55 }, (_, i) => mission(`m${String(i).padStart(2, '0')}`));
    const app = await createTestApp(server, { missions: many });
    const user = await newUser(server, app);
    const def = await user.getJson<ListBody>('/v1/missions');
    expect(def.body.missions).toHaveLength(50);
    expect(def.body.nextCursor).toEqual(expect.any(String));
    const max = await user.getJson<ListBody>('/v1/missions?limit=100');
    expect(max.body.missions).toHaveLength(55);
    expect(max.body.nextCursor).toBeNull();
  });

  it.each(['0', '101', '1.5', 'abc', '-1'])('rejects limit=%s with 400 validation_error naming limit', async (limit) => {
    const app = await createTestApp(server, { missions: [mission('a')] });
    const user = await newUser(server, app);
    const { status, body } = await user.getJson<{ error: string; message: string }>(`/v1/missions?limit=${limit}`);
    expect(status).toBe(400);
    expect(body.error).toBe('validation_error');
    expect(body.message).toMatch(/limit/);
  });

  it('rejects an unknown status with 400 validation_error naming status', async () => {
    const app = await createTestApp(server, { missions: [mission('a')] });
    const user = await newUser(server, app);
    const { status, body } = await user.getJson<{ error: string; message: string }>('/v1/missions?status=done');
    expect(status).toBe(400);
    expect(body.error).toBe('validation_error');
    expect(body.message).toMatch(/status/);
  });

  it('rejects a cursor that is not one of this API with 400 validation_error', async () => {
    const app = await createTestApp(server, { missions: [mission('a')] });
    const user = await newUser(server, app);
    const { status, body } = await user.getJson<{ error: string; message: string }>('/v1/missions?cursor=bm90LWEtY3Vyc29y');
    expect(status).toBe(400);
    expect(body.error).toBe('validation_error');
    expect(body.message).toMatch(/cursor/);
  });

  it('pages through 7 missions with limit 3 in a stable order, without duplicates or gaps', async () => {
    const all = ['g', 'c', 'e', 'a', 'f', 'b', 'd'];
    const app = await createTestApp(server, { missions: all.map((id) => mission(id)) });
    const user = await newUser(server, app);
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=3&cursor=${encodeURIComponent(cursor)}` : '?limit=3';
      const { status, body } = await user.getJson<ListBody>(`/v1/missions${query}`);
      expect(status).toBe(200);
      expect(body).toHaveProperty('nextCursor');
      pages.push(ids(body));
      cursor = body.nextCursor;
    } while (cursor !== null && pages.length < 10);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual([...all].sort());
    // Reading the same first page again gives the same answer.
    const again = await user.getJson<ListBody>('/v1/missions?limit=3');
    expect(ids(again.body)).toEqual(pages[0]);
  });

  it('restricts the list to one campaign with campaignId', async () => {
    const app = await createTestApp(server, {
      campaigns: [campaign('c1'), campaign('c2')],
      missions: [mission('x', { campaignId: 'c1' }), mission('y', { campaignId: 'c2' }), mission('z'), mission('w', { campaignId: 'c1' })],
    });
    const user = await newUser(server, app);
    const { body } = await user.getJson<ListBody>('/v1/missions?campaignId=c1');
    expect(ids(body)).toEqual(['w', 'x']);
  });
});

describe('GET /v1/missions: status filter uses the effective status', () => {
  it('filters on locked (prerequisite or future campaign), active (no record), completed and claimed', async () => {
    const now = Date.now();
    const app = await createTestApp(server, {
      campaigns: [campaign('future', { startAt: now + DAY, endAt: now + 2 * DAY })],
      missions: [
        mission('claimed-one', { criteria: { eventName: 'first', count: 1 } }),
        mission('done', { criteria: { eventName: 'second', count: 1 } }),
        mission('fresh', { criteria: { eventName: 'nothing', count: 1 } }),
        mission('after-done', { criteria: { eventName: 'nothing', count: 1 }, prerequisites: ['done'] }),
        mission('after-claimed', { criteria: { eventName: 'nothing', count: 1 }, prerequisites: ['claimed-one'] }),
        mission('soon', { criteria: { eventName: 'nothing', count: 1 }, campaignId: 'future' }),
      ],
    });
    const user = await newUser(server, app);
    await user.event('first');
    await user.event('second');
    expect((await user.claim('claimed-one')).status).toBe(200);

    const byStatus = async (status: string) => ids((await user.getJson<ListBody>(`/v1/missions?status=${status}`)).body);
    expect(await byStatus('locked')).toEqual(['after-done', 'soon']);
    expect(await byStatus('active')).toEqual(['after-claimed', 'fresh']);
    expect(await byStatus('completed')).toEqual(['done']);
    expect(await byStatus('claimed')).toEqual(['claimed-one']);
    expect(await byStatus('all')).toHaveLength(6);
    // Locked missions without a record have no progress entry.
    const all = (await user.getJson<ListBody>('/v1/missions')).body;
    expect(Object.keys(all.progress).sort()).toEqual(['claimed-one', 'done']);
  });

  it('pages within a status filter without gaps', async () => {
    const app = await createTestApp(server, {
      missions: ['a', 'b', 'c', 'd', 'e'].map((id, i) => mission(id, { criteria: { eventName: i % 2 === 0 ? 'go' : 'never', count: 1 } })),
    });
    const user = await newUser(server, app);
    await user.event('go');
    const first = (await user.getJson<ListBody>('/v1/missions?status=completed&limit=2')).body;
    expect(ids(first)).toEqual(['a', 'c']);
    expect(first.nextCursor).not.toBeNull();
    const second = (await user.getJson<ListBody>(`/v1/missions?status=completed&limit=2&cursor=${first.nextCursor}`)).body;
    expect(ids(second)).toEqual(['e']);
    expect(second.nextCursor).toBeNull();
  });
});

describe('GET /v1/missions: missions that can no longer progress', () => {
  it('hides expired missions and missions of ended campaigns unless the record is completed; include=expired lists them all', async () => {
    const now = Date.now();
    const app = await createTestApp(server, {
      campaigns: [campaign('ended', { startAt: now - 10 * DAY, endAt: now - HOUR })],
      missions: [
        mission('live'),
        mission('expired', { expiresAt: now - HOUR, criteria: { eventName: 'old', count: 1 } }),
        mission('expired-done', { expiresAt: now - HOUR, criteria: { eventName: 'old-done', count: 1 } }),
        mission('expired-active', { expiresAt: now - HOUR, criteria: { eventName: 'old-active', count: 5 } }),
        mission('ended', { campaignId: 'ended', criteria: { eventName: 'camp', count: 1 } }),
        mission('ended-done', { campaignId: 'ended', criteria: { eventName: 'camp-done', count: 1 } }),
      ],
    });
    const user = await newUser(server, app);
    // Events from before the end still count: completed (claimable) records.
    expect((await user.event('old-done', {}, now - 2 * HOUR)).body.missionsUpdated).toEqual(['expired-done']);
    expect((await user.event('old-active', {}, now - 2 * HOUR)).body.missionsUpdated).toEqual(['expired-active']);
    expect((await user.event('camp-done', {}, now - 2 * HOUR)).body.missionsUpdated).toEqual(['ended-done']);

    const def = (await user.getJson<ListBody>('/v1/missions')).body;
    expect(ids(def)).toEqual(['ended-done', 'expired-done', 'live']);
    const all = (await user.getJson<ListBody>('/v1/missions?include=expired')).body;
    expect(ids(all)).toEqual(['ended', 'ended-done', 'expired', 'expired-active', 'expired-done', 'live']);
    // The completed record of an expired mission is still claimable.
    expect((await user.claim('expired-done')).status).toBe(200);
    expect(ids((await user.getJson<ListBody>('/v1/missions')).body)).toEqual(['ended-done', 'live']);
  });

  it('never lists archived missions, yet a completed record stays claimable after archiving', async () => {
    const app = await createTestApp(server, { missions: [mission('keep'), mission('retire', { reward: { kind: 'currency', currency: 'gold', amount: 7 } })] });
    const user = await newUser(server, app);
    await user.event('play');
    expect(Object.keys((await user.getJson<ListBody>('/v1/missions')).body.progress).sort()).toEqual(['keep', 'retire']);

    const put = await putCatalog(server, app.appId, { missions: [mission('retire', { archived: true, reward: { kind: 'currency', currency: 'gold', amount: 7 } })] });
    expect(put.status).toBe(200);
    expect(ids((await user.getJson<ListBody>('/v1/missions')).body)).toEqual(['keep']);
    expect(ids((await user.getJson<ListBody>('/v1/missions?include=expired')).body)).toEqual(['keep']);
    expect(ids((await user.getJson<ListBody>('/v1/missions?status=completed')).body)).toEqual(['keep']);

    const claim = await user.claim('retire');
    expect(claim.status).toBe(200);
    expect(((await claim.json()) as { balance: { amount: number } }).balance.amount).toBe(7);
    // A user without a record does not see the archived mission at all.
    const other = await newUser(server, app);
    expect((await other.getJson<{ error: string }>('/v1/missions/retire')).body.error).toBe('mission_not_found');
    // …and claiming it is 404 like reading it, not 409.
    const otherClaim = await other.claim('retire');
    expect(otherClaim.status).toBe(404);
    expect(((await otherClaim.json()) as { error: string }).error).toBe('mission_not_found');
  });
});

describe('GET /v1/missions/:id', () => {
  it('answers {mission, progress: null} before any qualifying event, then the progress', async () => {
    const app = await createTestApp(server, { missions: [mission('m', { criteria: { eventName: 'play', count: 2 }, iconUrl: 'https://x/i.png' })] });
    const user = await newUser(server, app);
    const before = await user.getJson<{ mission: { id: string; iconUrl: string }; progress: unknown }>('/v1/missions/m');
    expect(before.status).toBe(200);
    expect(before.body.mission).toMatchObject({ id: 'm', iconUrl: 'https://x/i.png', criteria: { eventName: 'play', count: 2, window: 'lifetime' } });
    expect(before.body.progress).toBeNull();
    await user.event('play');
    const after = await user.getJson<{ progress: Record<string, unknown> }>('/v1/missions/m');
    expect(after.body.progress).toMatchObject({ userId: user.userId, missionId: 'm', status: 'active', currentCount: 1, targetCount: 2, progress: 0.5 });
    expect(after.body.progress.updatedAt).toEqual(expect.any(Number));
  });

  it('answers 404 mission_not_found for an unknown id (and for another app’s mission)', async () => {
    const app = await createTestApp(server, { missions: [mission('mine')] });
    const otherApp = await createTestApp(server, { missions: [mission('theirs')] });
    void otherApp;
    const user = await newUser(server, app);
    for (const id of ['nope', 'theirs']) {
      const { status, body } = await user.getJson<{ error: string }>(`/v1/missions/${id}`);
      expect(status).toBe(404);
      expect(body.error).toBe('mission_not_found');
    }
  });
});

describe('counting windows and criteria, as read over HTTP', () => {
  it('a daily mission whose record is from a past day reads as active with currentCount 0', async () => {
    const app = await createTestApp(server, { missions: [mission('daily', { criteria: { eventName: 'login', count: 3, window: 'daily' } })] });
    const user = await newUser(server, app);
    const res = await user.event('login');
    expect(res.body.missionsUpdated).toEqual(['daily']);
    await moveRecordsBack(app.appId, user.userId, DAY); // a day passes
    const detail = await user.getJson<{ progress: Record<string, unknown> }>('/v1/missions/daily');
    expect(detail.body.progress).toMatchObject({ status: 'active', currentCount: 0, progress: 0, targetCount: 3 });
    const list = (await user.getJson<ListBody>('/v1/missions?status=active')).body;
    expect(list.progress.daily).toMatchObject({ status: 'active', currentCount: 0 });
    // Today's event starts the new bucket from 1.
    await user.event('login');
    expect((await user.getJson<{ progress: Record<string, unknown> }>('/v1/missions/daily')).body.progress).toMatchObject({ currentCount: 1 });
  });

  it('a claimed daily mission of a past day reads as active again (filtered as active, not claimed)', async () => {
    const app = await createTestApp(server, { missions: [mission('daily', { criteria: { eventName: 'login', count: 1, window: 'daily' } })] });
    const user = await newUser(server, app);
    await user.event('login');
    expect((await user.claim('daily')).status).toBe(200);
    expect(ids((await user.getJson<ListBody>('/v1/missions?status=claimed')).body)).toEqual(['daily']);
    await moveRecordsBack(app.appId, user.userId, DAY); // a day passes
    expect(ids((await user.getJson<ListBody>('/v1/missions?status=claimed')).body)).toEqual([]);
    expect(ids((await user.getJson<ListBody>('/v1/missions?status=active')).body)).toEqual(['daily']);
  });

  it('a mission with a filter only counts events whose payload matches', async () => {
    const app = await createTestApp(server, {
      missions: [mission('hard', { criteria: { eventName: 'level', count: 2, filter: { 'result.difficulty': 'hard', score: { gte: 100 } } } })],
    });
    const user = await newUser(server, app);
    expect((await user.event('level', { result: { difficulty: 'easy' }, score: 500 })).body.missionsUpdated).toEqual([]);
    expect((await user.event('level', { result: { difficulty: 'hard' }, score: 99 })).body.missionsUpdated).toEqual([]);
    expect((await user.event('level', { score: 100 })).body.missionsUpdated).toEqual([]);
    expect((await user.getJson<{ progress: unknown }>('/v1/missions/hard')).body.progress).toBeNull();
    expect((await user.event('level', { result: { difficulty: 'hard' }, score: 100 })).body.missionsUpdated).toEqual(['hard']);
    expect((await user.getJson<{ progress: Record<string, unknown> }>('/v1/missions/hard')).body.progress).toMatchObject({ currentCount: 1 });
  });

  it('events do not advance a locked mission (prerequisite not claimed, or campaign not started)', async () => {
    const now = Date.now();
    const app = await createTestApp(server, {
      campaigns: [campaign('later', { startAt: now + DAY, endAt: now + 2 * DAY })],
      missions: [
        mission('first', { criteria: { eventName: 'tutorial', count: 1 } }),
        mission('second', { criteria: { eventName: 'play', count: 1 }, prerequisites: ['first'] }),
        mission('upcoming', { criteria: { eventName: 'play', count: 1 }, campaignId: 'later' }),
      ],
    });
    const user = await newUser(server, app);
    expect((await user.event('play')).body.missionsUpdated).toEqual([]);
    const second = await user.getJson<{ progress: unknown }>('/v1/missions/second');
    expect(second.body.progress).toBeNull();
    expect(ids((await user.getJson<ListBody>('/v1/missions?status=locked')).body)).toEqual(['second', 'upcoming']);
    // Once the prerequisite is claimed, the same event counts.
    await user.event('tutorial');
    expect((await user.claim('first')).status).toBe(200);
    expect((await user.event('play')).body.missionsUpdated).toEqual(['second']);
  });

  it('an event at or after expiresAt does not count; one before it does', async () => {
    // Within the 5 minutes an event may be ahead of the server clock.
    const expiresAt = Date.now() + 3 * 60_000;
    const app = await createTestApp(server, { missions: [mission('timed', { expiresAt, criteria: { eventName: 'play', count: 5 } })] });
    const user = await newUser(server, app);
    expect((await user.event('play', {}, expiresAt)).body.missionsUpdated).toEqual([]);
    expect((await user.event('play', {}, expiresAt + 1)).body.missionsUpdated).toEqual([]);
    expect((await user.getJson<{ progress: unknown }>('/v1/missions/timed')).body.progress).toBeNull();
    expect((await user.event('play', {}, expiresAt - 1)).body.missionsUpdated).toEqual(['timed']);
  });
});

describe('the locked flag of mission objects', () => {
  type Locked = { id: string; locked: boolean };

  it('is true while a prerequisite is unclaimed or the campaign has not started, per user, in the list and the detail', async () => {
    const now = Date.now();
    const app = await createTestApp(server, {
      campaigns: [campaign('later', { startAt: now + DAY, endAt: now + 2 * DAY }), campaign('live')],
      missions: [
        mission('first', { criteria: { eventName: 'tutorial', count: 1 } }),
        mission('second', { prerequisites: ['first'] }),
        mission('upcoming', { campaignId: 'later' }),
        mission('running', { campaignId: 'live' }),
      ],
    });
    const [alice, bob] = [await newUser(server, app), await newUser(server, app)];
    const lockedOf = async (user: typeof alice) => {
      const { body } = await user.getJson<{ missions: Locked[] }>('/v1/missions');
      return Object.fromEntries(body.missions.map((m) => [m.id, m.locked]));
    };
    expect(await lockedOf(alice)).toEqual({ first: false, second: true, upcoming: true, running: false });
    expect((await alice.getJson<{ mission: Locked }>('/v1/missions/second')).body.mission.locked).toBe(true);

    // Completing the prerequisite is not enough: it must be claimed.
    await alice.event('tutorial');
    expect((await alice.getJson<{ mission: Locked }>('/v1/missions/second')).body.mission.locked).toBe(true);
    expect((await alice.claim('first')).status).toBe(200);
    expect((await alice.getJson<{ mission: Locked }>('/v1/missions/second')).body.mission.locked).toBe(false);
    expect(await lockedOf(alice)).toEqual({ first: false, second: false, upcoming: true, running: false });
    // Another user's claim unlocks nothing for bob.
    expect(await lockedOf(bob)).toEqual({ first: false, second: true, upcoming: true, running: false });
  });

  it('agrees with status=locked for missions without a record', async () => {
    const app = await createTestApp(server, { missions: [mission('a'), mission('b', { prerequisites: ['a'] })] });
    const user = await newUser(server, app);
    const locked = await user.getJson<{ missions: Locked[] }>('/v1/missions?status=locked');
    expect(locked.body.missions.map((m) => [m.id, m.locked])).toEqual([['b', true]]);
    const active = await user.getJson<{ missions: Locked[] }>('/v1/missions?status=active');
    expect(active.body.missions.map((m) => [m.id, m.locked])).toEqual([['a', false]]);
  });
});
