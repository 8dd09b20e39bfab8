// Issue 37 §2 over real HTTP: a player's time zone cannot farm recurring
// rewards. A window already begun is never moved by a zone change: a claimed
// cycle restarts only once its window (as it was bucketed, in the zone used
// then) has ended in absolute time and the new zone's calendar has reached
// the next period (docs/api.md, "What a zone change does"). The 35-zone walk
// (every zone whose midnight falls at another instant, in the order of their
// last midnight) through POST /v1/events (several users at once: the grouped
// read and write), the signed webhook (zone and event in one delivery) and the
// staff dry run; the 23:00 zone change east and west; a weekly and a monthly
// mission; a streak; a completed, unclaimed record. The service clock is the
// test clock (QUESTLINE_TEST_CLOCK=1), never a wait.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setServerClock } from '@/lib/testing/clock';
import { DAY, mission, newUser, type TestUser } from '@/lib/testing/fixtures';
import { createTestApp, startTestServer, uniqueId, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { sendDelivery } from '@/lib/testing/webhook';

let server: TestServer;

beforeAll(async () => {
  process.env.QUESTLINE_TEST_CLOCK = '1';
  server = await startTestServer();
});
afterAll(async () => {
  if (server) await setServerClock(server.url, server.adminKey, null).catch(() => undefined);
  delete process.env.QUESTLINE_TEST_CLOCK;
  await server?.close();
});

const MINUTE = 60_000;
const coins = (id: string, eventName: string, window: 'daily' | 'weekly' | 'monthly', extra: Record<string, unknown> = {}) =>
  mission(id, { criteria: { eventName, count: 1, window, ...extra }, reward: { kind: 'currency', currency: 'coins', amount: 100 } });
const DAILY = coins('daily-coins', 'login', 'daily');
const WEEKLY = coins('weekly-coins', 'weekly-login', 'weekly');
const MONTHLY = coins('monthly-coins', 'monthly-login', 'monthly');
const STREAK = coins('streak-3', 'streak-login', 'daily', { streak: { length: 3 } });
const CHEST = coins('daily-chest', 'chest', 'daily');

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp(server, { missions: [DAILY, WEEKLY, MONTHLY, STREAK, CHEST] });
});

/** The game backend sets the player's zone (POST /v1/auth/token with the app secret). */
async function setZone(userId: string, timezone: string): Promise<void> {
  const res = await fetch(`${server.url}/v1/auth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ appId: app.appId, appSecret: app.appSecret, userId, attributes: { timezone } }),
  });
  expect(res.status).toBe(200);
}

/** Moves the service clock; answers the server's now (events are sent at it). */
const clock = (t: number) => setServerClock(server.url, server.adminKey, t);

async function coinBalance(user: TestUser): Promise<number> {
  const { body } = await user.getJson<{ balances: Array<{ currency: string; amount: number }> }>('/v1/balance');
  return body.balances.find((b) => b.currency === 'coins')?.amount ?? 0;
}

async function progressOf(user: TestUser, missionId: string) {
  return (await user.getJson<{ progress: { status: string; currentCount: number; streak?: { current: number } } | null }>(`/v1/missions/${missionId}`)).body.progress;
}

/** The staff dry run of the event now: the engine's verdict on `missionId`, nothing recorded. */
async function dryRun(userId: string, name: string, missionId: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${server.url}/api/admin/apps/${app.appId}/users/${encodeURIComponent(userId)}/events?dryRun=1`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${server.adminKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { verdicts: Array<Record<string, unknown>> };
  return body.verdicts.find((v) => v.missionId === missionId)!;
}

/**
 * One zone per distinct midnight instant, in the order of their last midnight
 * before `t` (the walk, Kiritimati → Pago Pago → Etc/GMT-12 → …):
 * with zones re-bucketing a claimed day, each step was a "new" day.
 */
function zoneWalk(t: number): string[] {
  const preferred = ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Etc/GMT-12'];
  const all = [...preferred, ...(Intl as unknown as { supportedValuesOf(key: 'timeZone'): string[] }).supportedValuesOf('timeZone')];
  const byMidnight = new Map<number, string>();
  for (const zone of all) {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(t);
    const [h, m, s] = ['hour', 'minute', 'second'].map((type) => Number(parts.find((p) => p.type === type)!.value));
    const lastMidnight = t - ((h * 60 + m) * 60 + s) * 1000;
    if (!byMidnight.has(lastMidnight)) byMidnight.set(lastMidnight, zone);
  }
  return [...byMidnight.entries()].sort(([a], [b]) => a - b).map(([, zone]) => zone);
}

describe('the 35-zone walk', () => {
  it('yields exactly one claim of a daily mission per real day, on every path (events, several users at once, the webhook, the dry run)', async () => {
    // 09:50 UTC on 10 June 2031: 23:50 in Kiritimati (UTC+14), whose day began first.
    const t0 = Date.UTC(2031, 5, 10, 9, 50);
    const walk = zoneWalk(t0);
    expect(walk.length).toBeGreaterThanOrEqual(35);
    expect(walk[0]).toBe('Pacific/Kiritimati');
    const players = await Promise.all([newUser(server, app), newUser(server, app)]);
    const viaWebhook = await newUser(server, app);
    const claims = new Map<string, number>([...players, viaWebhook].map((u) => [u.userId, 0]));

    const walkOnce = async (start: number) => {
      // The service clock runs on from `start`: events are sent at its now.
      const offset = (await clock(start)) - Date.now();
      for (const zone of walk) {
        await Promise.all(players.map((u) => setZone(u.userId, zone)));
        // The players' events at once: the grouped read and write.
        const now = Date.now() + offset;
        const counted = await Promise.all(players.map(async (u) => ((await u.event('login', {}, now)).body.missionsUpdated.includes(DAILY.id) ? u : null)));
        // The webhook sets the zone and sends the event in one delivery.
        const sent = await sendDelivery(server, app, { users: [{ userId: viaWebhook.userId, attributes: { timezone: zone } }], events: [{ userId: viaWebhook.userId, name: 'login', payload: {}, timestamp: now }] });
        expect(sent.status).toBe(200);
        const [result] = sent.body.results as Array<{ missionsUpdated: string[] }>;
        if (result.missionsUpdated.includes(DAILY.id)) counted.push(viaWebhook);
        // Each "new day" claimed at once, as a farm would.
        for (const u of counted) if (u !== null && (await u.claim(DAILY.id)).status === 200) claims.set(u.userId, claims.get(u.userId)! + 1);
      }
    };

    await walkOnce(t0);
    for (const u of [...players, viaWebhook]) {
      expect(claims.get(u.userId)).toBe(1);
      expect(await coinBalance(u)).toBe(100);
    }
    // The last zone of the walk: the dry run judges as ingestion does (the claimed day goes on).
    expect(await dryRun(players[0].userId, 'login', DAILY.id)).toMatchObject({ counted: false, code: 'already_claimed' });

    // A real day later: one more claim each, whatever the walk.
    await walkOnce(t0 + DAY);
    for (const u of [...players, viaWebhook]) {
      expect(claims.get(u.userId)).toBe(2);
      expect(await coinBalance(u)).toBe(200);
    }
  });
});

describe('a zone change at 23:00 local', () => {
  // Tuesday 14 January 2031, London (UTC+0 in winter).
  const london = (h: number, m = 0, day = 14) => Date.UTC(2031, 0, day, h, m);

  it('east (London → Athens, already the 15th there): an event after Athens midnight still waits for the end of the London day', async () => {
    const user = await newUser(server, app);
    await setZone(user.userId, 'Europe/London');
    await clock(london(22, 30));
    expect((await user.event('login', {}, london(22, 30))).body.missionsUpdated).toEqual([DAILY.id]);
    expect((await user.claim(DAILY.id)).status).toBe(200);

    await clock(london(23));
    await setZone(user.userId, 'Europe/Athens'); // 01:00 on the 15th in Athens
    await clock(london(23, 10));
    expect((await user.event('login', {}, london(23, 10))).body.missionsUpdated).toEqual([]);
    expect(await dryRun(user.userId, 'login', DAILY.id)).toMatchObject({ counted: false, code: 'already_claimed' });
    expect(await progressOf(user, DAILY.id)).toMatchObject({ status: 'claimed' });
    const again = await user.claim(DAILY.id);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { message: string }).message).toBe(`Mission "${DAILY.id}" is already claimed`);

    // The London day is over: the next window is Athens' 15th, from that instant.
    await clock(london(0, 5, 15));
    expect(await progressOf(user, DAILY.id)).toMatchObject({ status: 'active', currentCount: 0 });
    expect((await user.event('login', {}, london(0, 5, 15))).body.missionsUpdated).toEqual([DAILY.id]);
    expect((await user.claim(DAILY.id)).status).toBe(200);
    expect(await coinBalance(user)).toBe(200);
    // …and it ends at Athens midnight (22:00 UTC): no second window on the 15th.
    await clock(london(21, 55, 15));
    expect((await user.event('login', {}, london(21, 55, 15))).body.missionsUpdated).toEqual([]);
    await clock(london(22, 5, 15));
    expect((await user.event('login', {}, london(22, 5, 15))).body.missionsUpdated).toEqual([DAILY.id]);
  });

  it('west (London → New York, still the 14th there): the claimed day goes on until New York midnight', async () => {
    const user = await newUser(server, app);
    await setZone(user.userId, 'Europe/London');
    await clock(london(22, 30));
    await user.event('login', {}, london(22, 30));
    expect((await user.claim(DAILY.id)).status).toBe(200);

    await clock(london(23));
    await setZone(user.userId, 'America/New_York'); // 18:00 on the 14th in New York
    await clock(london(23, 10));
    expect((await user.event('login', {}, london(23, 10))).body.missionsUpdated).toEqual([]);
    // London's midnight: still the 14th in New York, the day already claimed.
    await clock(london(0, 5, 15));
    expect((await user.event('login', {}, london(0, 5, 15))).body.missionsUpdated).toEqual([]);
    expect(await progressOf(user, DAILY.id)).toMatchObject({ status: 'claimed' });
    // New York's midnight (05:00 UTC): the 15th there, a new day.
    await clock(london(5, 5, 15));
    expect((await user.event('login', {}, london(5, 5, 15))).body.missionsUpdated).toEqual([DAILY.id]);
    expect((await user.claim(DAILY.id)).status).toBe(200);
    expect(await coinBalance(user)).toBe(200);
  });

  it('the record keeps the zone its window was bucketed in (Tokyo → New York: not read as a UTC day)', async () => {
    const user = await newUser(server, app);
    await setZone(user.userId, 'Asia/Tokyo');
    const tokyo23 = Date.UTC(2031, 0, 14, 14); // 23:00 on the 14th in Tokyo
    await clock(tokyo23);
    await user.event('login', {}, tokyo23);
    expect((await user.claim(DAILY.id)).status).toBe(200);
    await setZone(user.userId, 'America/New_York'); // 09:00 on the 14th there
    await clock(tokyo23 + 10 * MINUTE);
    expect((await user.event('login', {}, tokyo23 + 10 * MINUTE)).body.missionsUpdated).toEqual([]);
    // The Tokyo 14th has ended (15:00 UTC), but New York is still on its 14th: claimed until New York's midnight.
    await clock(Date.UTC(2031, 0, 15, 4, 55));
    expect((await user.event('login', {}, Date.UTC(2031, 0, 15, 4, 55))).body.missionsUpdated).toEqual([]);
    await clock(Date.UTC(2031, 0, 15, 5, 5));
    expect((await user.event('login', {}, Date.UTC(2031, 0, 15, 5, 5))).body.missionsUpdated).toEqual([DAILY.id]);
  });

  it('a weekly mission: Sunday 23:00 in London, Monday in Athens; the London week ends first', async () => {
    const user = await newUser(server, app);
    await setZone(user.userId, 'Europe/London');
    const sunday = (h: number, m = 0) => london(h, m, 19); // Sunday 19 January 2031
    await clock(sunday(22, 30));
    expect((await user.event('weekly-login', {}, sunday(22, 30))).body.missionsUpdated).toEqual([WEEKLY.id]);
    expect((await user.claim(WEEKLY.id)).status).toBe(200);
    await clock(sunday(23));
    await setZone(user.userId, 'Europe/Athens');
    await clock(sunday(23, 10));
    expect((await user.event('weekly-login', {}, sunday(23, 10))).body.missionsUpdated).toEqual([]);
    expect((await user.claim(WEEKLY.id)).status).toBe(409);
    await clock(london(0, 5, 20));
    expect((await user.event('weekly-login', {}, london(0, 5, 20))).body.missionsUpdated).toEqual([WEEKLY.id]);
    expect((await user.claim(WEEKLY.id)).status).toBe(200);
    expect(await coinBalance(user)).toBe(200);
  });

  it('a monthly mission: 31 January 23:00 in London, 1 February in Athens; the London month ends first', async () => {
    const user = await newUser(server, app);
    await setZone(user.userId, 'Europe/London');
    await clock(london(22, 30, 31));
    expect((await user.event('monthly-login', {}, london(22, 30, 31))).body.missionsUpdated).toEqual([MONTHLY.id]);
    expect((await user.claim(MONTHLY.id)).status).toBe(200);
    await clock(london(23, 0, 31));
    await setZone(user.userId, 'Europe/Athens');
    await clock(london(23, 10, 31));
    expect((await user.event('monthly-login', {}, london(23, 10, 31))).body.missionsUpdated).toEqual([]);
    expect((await user.claim(MONTHLY.id)).status).toBe(409);
    await clock(london(0, 5, 32)); // 1 February, 00:05 UTC
    expect((await user.event('monthly-login', {}, london(0, 5, 32))).body.missionsUpdated).toEqual([MONTHLY.id]);
    expect((await user.claim(MONTHLY.id)).status).toBe(200);
    expect(await coinBalance(user)).toBe(200);
  });

  it('a streak: the day met counts once across the change; the next day in the new zone carries it on', async () => {
    const user = await newUser(server, app);
    await setZone(user.userId, 'Europe/London');
    await clock(london(22, 30));
    expect((await user.event('streak-login', {}, london(22, 30))).body.missionsUpdated).toEqual([STREAK.id]);
    expect(await progressOf(user, STREAK.id)).toMatchObject({ streak: { current: 1 } });
    await clock(london(23));
    await setZone(user.userId, 'Europe/Athens');
    await clock(london(23, 10));
    expect(await dryRun(user.userId, 'streak-login', STREAK.id)).toMatchObject({ counted: false, code: 'streak_window_met' });
    expect((await user.event('streak-login', {}, london(23, 10))).body.missionsUpdated).toEqual([]);
    expect(await progressOf(user, STREAK.id)).toMatchObject({ streak: { current: 1 } });
    // After the London day: Athens' 15th follows the 14th met in London.
    await clock(london(0, 5, 15));
    expect(await progressOf(user, STREAK.id)).toMatchObject({ streak: { current: 1 } });
    expect((await user.event('streak-login', {}, london(0, 5, 15))).body.missionsUpdated).toEqual([STREAK.id]);
    expect(await progressOf(user, STREAK.id)).toMatchObject({ status: 'active', streak: { current: 2 } });
    // Athens' 16th (from 22:00 UTC on the 15th) completes it.
    await clock(london(22, 5, 15));
    expect((await user.event('streak-login', {}, london(22, 5, 15))).body.missionsUpdated).toEqual([STREAK.id]);
    expect(await progressOf(user, STREAK.id)).toMatchObject({ status: 'completed', streak: { current: 3 } });
  });

  it('a completed, unclaimed record claimed after the change: its window still decides when the next cycle starts', async () => {
    const user = await newUser(server, app);
    await setZone(user.userId, 'Europe/London');
    await clock(london(22, 30));
    expect((await user.event('chest', {}, london(22, 30))).body.missionsUpdated).toEqual([CHEST.id]);
    await clock(london(23));
    await setZone(user.userId, 'Europe/Athens');
    await clock(london(23, 10));
    expect(await progressOf(user, CHEST.id)).toMatchObject({ status: 'completed' });
    expect((await user.claim(CHEST.id)).status).toBe(200);
    expect((await user.event('chest', {}, london(23, 10))).body.missionsUpdated).toEqual([]);
    expect((await user.claim(CHEST.id)).status).toBe(409);
    await clock(london(0, 5, 15));
    expect((await user.event('chest', {}, london(0, 5, 15))).body.missionsUpdated).toEqual([CHEST.id]);
    expect((await user.claim(CHEST.id)).status).toBe(200);
    expect(await coinBalance(user)).toBe(200);
  });
});

it('a player without a zone change is unaffected: a day per zone midnight', async () => {
  const userId = uniqueId('tokyo');
  const user = await newUser(server, app, userId);
  await setZone(userId, 'Asia/Tokyo');
  const t = Date.UTC(2031, 2, 3, 14, 50); // 23:50 in Tokyo
  await clock(t);
  await user.event('login', {}, t);
  expect((await user.claim(DAILY.id)).status).toBe(200);
  await clock(t + 20 * MINUTE); // 00:10 in Tokyo
  expect((await user.event('login', {}, t + 20 * MINUTE)).body.missionsUpdated).toEqual([DAILY.id]);
  expect((await user.claim(DAILY.id)).status).toBe(200);
});
