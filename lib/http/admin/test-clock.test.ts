// The test-only service clock (lib/clock.ts) over real HTTP: a server started
// with QUESTLINE_TEST_CLOCK=1 lets the admin key move "now" for every time
// decision (event time bounds, daily windows, claims); without the flag the
// route does not exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { mission, newUser, DAY, HOUR } from '@/lib/testing/fixtures';
import { setServerClock } from '@/lib/testing/clock';

let server: TestServer;
let app: TestApp;
const DAILY = mission('m-daily-login', { title: 'Daily login', criteria: { eventName: 'login', count: 2, window: 'daily' } });
/** Noon UTC on a day years ahead: an event stamped then is refused by a server on the system clock (more than 5 min ahead). */
const FUTURE_NOON = Date.UTC(2031, 4, 14, 12);

beforeAll(async () => {
  process.env.QUESTLINE_TEST_CLOCK = '1';
  server = await startTestServer();
  app = await createTestApp(server, { missions: [DAILY] });
});
afterAll(async () => {
  if (server) await setServerClock(server.url, server.adminKey, null).catch(() => undefined);
  delete process.env.QUESTLINE_TEST_CLOCK;
  await server?.close();
});

async function dailyProgress(user: Awaited<ReturnType<typeof newUser>>): Promise<{ status: string; currentCount: number } | null> {
  const { body } = await user.getJson<{ progress: { status: string; currentCount: number } | null }>(`/v1/missions/${DAILY.id}`);
  return body.progress;
}

describe('the test clock', () => {
  it('moves the time the service decides with: event bounds, the daily window, back to the system clock', async () => {
    const user = await newUser(server, app);
    // On the system clock, an event years ahead is refused.
    expect((await user.event('login', {}, FUTURE_NOON)).status).toBe(400);

    const now = await setServerClock(server.url, server.adminKey, FUTURE_NOON);
    expect(Math.abs(now - FUTURE_NOON)).toBeLessThan(HOUR);
    expect((await user.event('login', {}, FUTURE_NOON)).status).toBe(200);
    expect(await dailyProgress(user)).toMatchObject({ status: 'active', currentCount: 1 });

    // The next day the daily count starts over; an event of the day before is late for it.
    await setServerClock(server.url, server.adminKey, FUTURE_NOON + DAY);
    expect(await dailyProgress(user)).toMatchObject({ status: 'active', currentCount: 0 });
    expect((await user.event('login', {}, FUTURE_NOON + 11 * HOUR)).status).toBe(200);
    expect(await dailyProgress(user)).toMatchObject({ currentCount: 0 });

    const back = await setServerClock(server.url, server.adminKey, null);
    expect(Math.abs(back - Date.now())).toBeLessThan(HOUR);
    expect((await user.event('login', {}, FUTURE_NOON + DAY)).status).toBe(400);
  });

  it('needs the admin key and a clear body', async () => {
    const put = (headers: Record<string, string>, body: unknown) =>
      fetch(`${server.url}/api/admin/test-clock`, { method: 'PUT', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
    expect((await put({}, { now: FUTURE_NOON })).status).toBe(401);
    const bad = await put({ Authorization: `Bearer ${server.adminKey}` }, { now: 'tomorrow' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe('validation_error');
    expect((await fetch(`${server.url}/api/admin/test-clock`, { headers: { Authorization: `Bearer ${server.adminKey}` } })).status).toBe(405);
  });

  it('does not exist without QUESTLINE_TEST_CLOCK=1', async () => {
    delete process.env.QUESTLINE_TEST_CLOCK;
    try {
      const res = await fetch(`${server.url}/api/admin/test-clock`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${server.adminKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ now: FUTURE_NOON }),
      });
      expect(res.status).toBe(404);
    } finally {
      process.env.QUESTLINE_TEST_CLOCK = '1';
    }
  });
});
