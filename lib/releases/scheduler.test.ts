// Scheduled publishes across server processes (PostgreSQL + Redis: two
// instances share the database; the embedded default's one-instance case is
// in lib/http/admin/drafts.test.ts): a schedule survives a restart of every
// instance, and with two instances polling each due draft is published once.
// Time is the instances' service clock (QUESTLINE_TEST_CLOCK=1), moved past a
// schedule instead of waited for; "nothing more was published" is proven by
// both instances finishing a whole poll after the count was read
// (questline_release_polls_total), not by a pause.
import { afterAll, describe, expect, it } from 'vitest';
import { SERVE_ADMIN_KEY, startServeProcess, type ServeProcess } from '@/lib/testing/serve-process';
import { uniqueId } from '@/lib/testing/test-server';
import { mission } from '@/lib/testing/fixtures';
import { setServerClock } from '@/lib/testing/clock';

const shared = !!process.env.DATABASE_URL && !!process.env.REDIS_URL;
const running: ServeProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((p) => p.stop('SIGKILL')));
});

async function start(): Promise<ServeProcess> {
  const p = await startServeProcess({ RELEASE_POLL_MS: '1000', QUESTLINE_TEST_CLOCK: '1' });
  running.push(p);
  return p;
}

async function admin<T = Record<string, unknown>>(p: ServeProcess, method: string, route: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(p.url + route, {
    method,
    headers: { Authorization: `Bearer ${SERVE_ADMIN_KEY}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

async function newApp(p: ServeProcess): Promise<{ appId: string; appSecret: string }> {
  const appId = uniqueId('sched');
  const created = await admin<{ appSecret: string }>(p, 'POST', '/api/admin/apps', { id: appId, name: appId });
  expect(created.status).toBe(201);
  expect((await admin(p, 'PUT', `/api/admin/apps/${appId}/catalog`, { missions: [mission('a')], campaigns: [] })).status).toBe(200);
  return { appId, appSecret: created.body.appSecret };
}

/** The mission ids /v1 answers a player of the app on instance `p` (its in-memory catalog). */
async function liveIds(p: ServeProcess, app: { appId: string; appSecret: string }): Promise<string[]> {
  const tokenRes = await fetch(`${p.url}/v1/auth/token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ...app, userId: 'player-1' }) });
  const { accessToken } = (await tokenRes.json()) as { accessToken: string };
  const res = await fetch(`${p.url}/v1/missions`, { headers: { Authorization: `Bearer ${accessToken}` } });
  return ((await res.json()) as { missions: { id: string }[] }).missions.map((m) => m.id);
}

interface Releases {
  releases: Array<{ release: number; publishedAt: number; publishedBy: string }>;
  scheduled: { scheduledAt: number } | null;
}

/** Scheduled-release polls instance `p` has finished (its /api/metrics). */
async function pollsDone(p: ServeProcess): Promise<number> {
  const res = await fetch(`${p.url}/api/metrics`, { headers: { Authorization: `Bearer ${SERVE_ADMIN_KEY}` } });
  const text = await res.text();
  return [...text.matchAll(/^questline_release_polls_total\{result="(?:ok|failed)"\} (\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
}

/** Resolves once every instance has begun and finished a whole poll after this call: a publish any of them was making meanwhile has landed. */
async function aWholePollOnEach(instances: ServeProcess[]): Promise<void> {
  const before = await Promise.all(instances.map(pollsDone));
  // The poll running at `before` may finish first (+1); the one after it began after `before` (+2).
  await until(async () => (await Promise.all(instances.map(pollsDone))).every((n, i) => n >= before[i] + 2), 15_000);
}

async function until(check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(!shared)('scheduled publish on PostgreSQL + Redis, two instances', () => {
  it('survives a restart of both instances: the first poll after it publishes, once', async () => {
    let [a, b] = await Promise.all([start(), start()]);
    const app = await newApp(a);
    expect((await admin(b, 'PUT', `/api/admin/apps/${app.appId}/draft`, { missions: [mission('a'), mission('b')], campaigns: [] })).status).toBe(200);
    // Warm both instances' catalogs, so a missed invalidation would show.
    expect(await liveIds(a, app)).toEqual(['a']);
    expect(await liveIds(b, app)).toEqual(['a']);
    const at = Date.now() + 3_600_000;
    expect((await admin(a, 'POST', `/api/admin/apps/${app.appId}/draft/publish`, { at })).status).toBe(202);
    await Promise.all([a.stop('SIGKILL'), b.stop('SIGKILL')]);
    // Every instance is down when the time comes: the new ones start an hour later, by their clocks.
    [a, b] = await Promise.all([start(), start()]);
    expect((await admin<Releases>(a, 'GET', `/api/admin/apps/${app.appId}/releases`)).body.releases).toHaveLength(1);
    await Promise.all([a, b].map((p) => setServerClock(p.url, SERVE_ADMIN_KEY, at + 500)));
    await until(async () => (await admin<Releases>(a, 'GET', `/api/admin/apps/${app.appId}/releases`)).body.releases.length === 2, 10_000);
    const releases = (await admin<Releases>(b, 'GET', `/api/admin/apps/${app.appId}/releases`)).body;
    expect(releases.releases.map((r) => r.release)).toEqual([2, 1]);
    expect(releases.releases[0].publishedBy).toBe('admin-api-key');
    expect(releases.scheduled).toBeNull();
    await until(async () => (await liveIds(a, app)).includes('b') && (await liveIds(b, app)).includes('b'), 5_000);
    expect((await admin(a, 'GET', `/api/admin/apps/${app.appId}/draft`)).status).toBe(404);
  }, 240_000);

  it('with both instances polling, each of 12 due drafts goes live once, within 5 s of its time, and both instances answer it', async () => {
    const [a, b] = running.slice(-2);
    const apps = await Promise.all(Array.from({ length: 12 }, () => newApp(a)));
    for (const app of apps) await admin(a, 'PUT', `/api/admin/apps/${app.appId}/draft`, { missions: [mission('a'), mission('n')], campaigns: [] });
    await Promise.all(apps.map((app) => liveIds(b, app)));
    // Both instances' clocks run an hour ahead (the first test moved them); the drafts fall due an hour after that.
    const at = (await setServerClock(a.url, SERVE_ADMIN_KEY, Date.now() + 3_600_000)) + 3_600_000;
    await setServerClock(b.url, SERVE_ADMIN_KEY, at - 3_600_000);
    for (const [i, app] of apps.entries()) expect((await admin(i % 2 ? a : b, 'POST', `/api/admin/apps/${app.appId}/draft/publish`, { at })).status).toBe(202);
    // The time comes for both at once: both race for every draft at their next poll.
    await Promise.all([a, b].map((p) => setServerClock(p.url, SERVE_ADMIN_KEY, at)));
    await until(async () => {
      const lists = await Promise.all(apps.map((app) => admin<Releases>(a, 'GET', `/api/admin/apps/${app.appId}/releases`)));
      return lists.every((l) => l.body.releases.length >= 2);
    }, 8_000);
    // A double publish, if any, was being made by a poll of either instance: let each finish a whole poll.
    await aWholePollOnEach([a, b]);
    for (const app of apps) {
      const { releases } = (await admin<Releases>(b, 'GET', `/api/admin/apps/${app.appId}/releases`)).body;
      expect(releases.map((r) => r.release)).toEqual([2, 1]);
      expect(releases[0].publishedAt).toBeGreaterThanOrEqual(at);
      expect(releases[0].publishedAt - at).toBeLessThan(5_000);
      expect(await liveIds(a, app)).toEqual(['a', 'n']);
      expect(await liveIds(b, app)).toEqual(['a', 'n']);
    }
  }, 120_000);
});
