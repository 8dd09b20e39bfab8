// Issue 19 §1–2 over real HTTP (embedded, or the PostgreSQL/Redis of
// DATABASE_URL/REDIS_URL): each aggregate end to end (events → GET
// /v1/missions → claim, with the inspector's verdicts), the authoring rules,
// and a 3-day streak driven by the server's test clock (QUESTLINE_TEST_CLOCK=1)
// in which a missed day restarts the streak.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Inspection } from '@/lib/contract/inspector';
import { setServerClock } from '@/lib/testing/clock';
import { DAY, HOUR, mission, newUser, type TestUser } from '@/lib/testing/fixtures';
import { createTestApp, putCatalog, startTestServer, type TestApp, type TestServer } from '@/lib/testing/test-server';

let server: TestServer;
let app: TestApp;

const GOLD = mission('collect-gold', {
  title: 'Collect 100 gold',
  criteria: { eventName: 'loot', count: 100, aggregate: { op: 'sum', field: 'reward.gold' } },
  reward: { kind: 'currency', currency: 'gems', amount: 5 },
});
const MODES = mission('three-modes', {
  title: 'Play 3 different modes',
  criteria: { eventName: 'match', count: 3, window: 'weekly', aggregate: { op: 'distinct', field: 'mode' } },
  reward: { kind: 'badge', badgeId: 'explorer' },
});
const LOGIN_STREAK = mission('login-streak', {
  title: 'Log in 3 days in a row',
  criteria: { eventName: 'login', count: 1, window: 'daily', streak: { length: 3 } },
  reward: { kind: 'item', itemId: 'chest', quantity: 1 },
});
/** Noon UTC of a day years ahead (a Wednesday): the test clock's day 1. */
const DAY1 = Date.UTC(2031, 4, 14, 12);

beforeAll(async () => {
  process.env.QUESTLINE_TEST_CLOCK = '1';
  server = await startTestServer();
  app = await createTestApp(server, { missions: [GOLD, MODES, LOGIN_STREAK] });
});
afterAll(async () => {
  if (server) await setServerClock(server.url, server.adminKey, null).catch(() => undefined);
  delete process.env.QUESTLINE_TEST_CLOCK;
  await server?.close();
});

type Progress = { status: string; currentCount: number; targetCount: number; progress: number; streak?: { current: number; length: number } } | null;

async function progressOf(user: TestUser, missionId: string): Promise<Progress> {
  const { status, body } = await user.getJson<{ missions: Array<{ id: string }>; progress: Record<string, Progress> }>('/v1/missions');
  expect(status).toBe(200);
  expect(body.missions.map((m) => m.id)).toContain(missionId);
  return body.progress[missionId] ?? null;
}

async function send(user: TestUser, name: string, payload: Record<string, unknown>, timestamp?: number): Promise<{ eventId: string; missionsUpdated: string[] }> {
  const res = await user.event(name, payload, timestamp);
  expect(res.status).toBe(200);
  return res.body as unknown as { eventId: string; missionsUpdated: string[] };
}

/** The inspector's verdict of one event on one mission. */
async function verdict(user: TestUser, eventId: string, missionId: string): Promise<Record<string, unknown> | undefined> {
  const res = await fetch(`${server.url}/api/admin/apps/${app.appId}/users/${encodeURIComponent(user.userId)}`, { headers: { Authorization: `Bearer ${server.adminKey}` } });
  expect(res.status).toBe(200);
  const view = (await res.json()) as Inspection;
  return view.events.find((e) => e.id === eventId)?.verdicts?.find((v) => v.missionId === missionId);
}

async function claimJson(user: TestUser, missionId: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await user.claim(missionId);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('criteria.aggregate over HTTP', () => {
  it('sum: adds the payload field (fractions, rounded down for currentCount), explains invalid values, completes and claims once', async () => {
    await setServerClock(server.url, server.adminKey, null);
    const user = await newUser(server, app);
    expect((await send(user, 'loot', { reward: { gold: 40.75 } })).missionsUpdated).toEqual(['collect-gold']);
    expect(await progressOf(user, GOLD.id)).toMatchObject({ status: 'active', currentCount: 40, targetCount: 100, progress: 0.4 });

    const negative = await send(user, 'loot', { reward: { gold: -5 } });
    expect(negative.missionsUpdated).toEqual([]);
    expect(await verdict(user, negative.eventId, GOLD.id)).toEqual({
      missionId: GOLD.id,
      counted: false,
      code: 'aggregate_value_invalid',
      field: 'reward.gold',
      reason: 'negative',
      seen: -5,
    });
    const missing = await send(user, 'loot', { reward: {} });
    expect(await verdict(user, missing.eventId, GOLD.id)).toMatchObject({ code: 'aggregate_value_invalid', reason: 'missing' });
    const text = await send(user, 'loot', { reward: { gold: 'lots' } });
    expect(await verdict(user, text.eventId, GOLD.id)).toMatchObject({ code: 'aggregate_value_invalid', reason: 'not_a_number', seen: 'lots' });

    expect((await claimJson(user, GOLD.id)).status).toBe(409);
    const more = await send(user, 'loot', { reward: { gold: 59.25 } });
    expect(await verdict(user, more.eventId, GOLD.id)).toEqual({ missionId: GOLD.id, counted: true, change: 'completed', currentCount: 100, targetCount: 100, added: 59.25 });
    expect(await progressOf(user, GOLD.id)).toMatchObject({ status: 'completed', currentCount: 100, progress: 1 });

    const [first, second] = await Promise.all([claimJson(user, GOLD.id), claimJson(user, GOLD.id)]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const won = first.status === 200 ? first.body : second.body;
    expect(won).toMatchObject({ progress: { status: 'claimed', currentCount: 100, targetCount: 100 }, balance: { currency: 'gems', amount: 5 } });
    expect(won.progress).not.toHaveProperty('streak');
    const after = await send(user, 'loot', { reward: { gold: 10 } });
    expect(await verdict(user, after.eventId, GOLD.id)).toMatchObject({ counted: false, code: 'already_claimed' });
  });

  it('distinct: counts different values in the window; a repeat adds nothing and says so; claims', async () => {
    await setServerClock(server.url, server.adminKey, null);
    const user = await newUser(server, app);
    await send(user, 'match', { mode: 'ranked' });
    const repeat = await send(user, 'match', { mode: 'ranked' });
    expect(repeat.missionsUpdated).toEqual([]);
    expect(await verdict(user, repeat.eventId, MODES.id)).toEqual({ missionId: MODES.id, counted: false, code: 'distinct_repeat', field: 'mode', value: 'ranked' });
    const number = await send(user, 'match', { mode: 7 });
    expect(await verdict(user, number.eventId, MODES.id)).toMatchObject({ counted: true, currentCount: 2, value: 7 });
    expect(await progressOf(user, MODES.id)).toMatchObject({ status: 'active', currentCount: 2, targetCount: 3 });
    const object = await send(user, 'match', { mode: { name: 'arena' } });
    expect(await verdict(user, object.eventId, MODES.id)).toMatchObject({ code: 'aggregate_value_invalid', reason: 'not_a_value', seen: '[object]' });
    await send(user, 'match', { mode: 'arena' });
    expect(await progressOf(user, MODES.id)).toMatchObject({ status: 'completed', currentCount: 3 });
    const claimed = await claimJson(user, MODES.id);
    expect(claimed.status).toBe(200);
    expect(claimed.body).toMatchObject({ progress: { status: 'claimed' }, reward: { kind: 'badge', badgeId: 'explorer' } });
  });

  it('the admin API refuses a streak outside daily/weekly, an unknown op and a distinct target over 1000', async () => {
    const bad = [
      mission('s', { criteria: { eventName: 'e', count: 1, window: 'monthly', streak: { length: 3 } } }),
      mission('s', { criteria: { eventName: 'e', count: 1, window: 'daily', streak: { length: 1 } } }),
      mission('s', { criteria: { eventName: 'e', count: 1, aggregate: { op: 'max', field: 'x' } as never } }),
      mission('s', { criteria: { eventName: 'e', count: 1001, aggregate: { op: 'distinct', field: 'x' } } }),
    ];
    for (const m of bad) {
      const res = await putCatalog(server, app.appId, { missions: [GOLD, MODES, LOGIN_STREAK, m] });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe('validation_error');
    }
  });
});

describe('criteria.streak over HTTP, driven by the test clock', () => {
  it('3 days in a row complete it; a missed day restarts it (noticed at read and at the next event); claimed once, stays claimed', async () => {
    const user = await newUser(server, app);
    const onDay = async (n: number, hour = 12) => setServerClock(server.url, server.adminKey, DAY1 + (n - 1) * DAY + (hour - 12) * HOUR);

    let now = await onDay(1);
    expect((await send(user, 'login', {}, now)).missionsUpdated).toEqual(['login-streak']);
    expect(await progressOf(user, LOGIN_STREAK.id)).toMatchObject({ status: 'active', currentCount: 1, streak: { current: 1, length: 3 } });
    const again = await send(user, 'login', {}, await onDay(1, 13));
    expect(await verdict(user, again.eventId, LOGIN_STREAK.id)).toEqual({ missionId: LOGIN_STREAK.id, counted: false, code: 'streak_window_met', streak: { current: 1, length: 3 } });

    now = await onDay(2);
    expect(await progressOf(user, LOGIN_STREAK.id)).toMatchObject({ status: 'active', currentCount: 0, streak: { current: 1 } });
    await send(user, 'login', {}, now);
    expect(await progressOf(user, LOGIN_STREAK.id)).toMatchObject({ streak: { current: 2 } });

    // Day 3 passes without a login: on day 4 the streak reads 0, and the next login starts it at 1.
    now = await onDay(4, 9);
    expect(await progressOf(user, LOGIN_STREAK.id)).toMatchObject({ status: 'active', currentCount: 0, streak: { current: 0, length: 3 } });
    const restart = await send(user, 'login', {}, now);
    expect(await verdict(user, restart.eventId, LOGIN_STREAK.id)).toMatchObject({ counted: true, change: 'progress', streak: { current: 1, length: 3 } });
    expect((await claimJson(user, LOGIN_STREAK.id)).status).toBe(409);

    await send(user, 'login', {}, await onDay(5));
    const third = await send(user, 'login', {}, await onDay(6));
    expect(await verdict(user, third.eventId, LOGIN_STREAK.id)).toMatchObject({ counted: true, change: 'completed', streak: { current: 3, length: 3 } });
    expect(await progressOf(user, LOGIN_STREAK.id)).toMatchObject({ status: 'completed', streak: { current: 3, length: 3 } });

    const claimed = await claimJson(user, LOGIN_STREAK.id);
    expect(claimed.status).toBe(200);
    expect(claimed.body).toMatchObject({ progress: { status: 'claimed', streak: { current: 3, length: 3 } }, reward: { kind: 'item', itemId: 'chest' } });
    expect((await claimJson(user, LOGIN_STREAK.id)).status).toBe(409);

    // Without repeat it stays claimed on the next days.
    now = await onDay(7);
    const later = await send(user, 'login', {}, now);
    expect(await verdict(user, later.eventId, LOGIN_STREAK.id)).toMatchObject({ counted: false, code: 'already_claimed' });
    expect(await progressOf(user, LOGIN_STREAK.id)).toMatchObject({ status: 'claimed', streak: { current: 3, length: 3 } });
    expect((await claimJson(user, LOGIN_STREAK.id)).status).toBe(409);
  });
});
