// The support desk's live inspector in a real browser, under both servers:
// an event that counts for nothing, sent over real HTTP to /v1/events,
// appears in the live panel (and the recent events) within a second with its
// reason, "did you mean …?" for a wrong name, and it comes from the staff
// stream: the inspector does not poll (no read of the inspection is made
// after the page settled, not even after the former 10 s poll interval) and
// the page is not reloaded. Titles instead of ids (a lock names its campaign
// by title) before and after a reload; recent events beside the missions at
// 1280 px, stacked below; axe clean light and dark; screenshots light and dark
// (docs/screenshots/inspector-live-*.png on the embedded pass).
import path from 'node:path';
import type { APIRequestContext, Page, Request } from '@playwright/test';
import { createApp, expect, expectAccessible, inBothSchemes, playerToken, test, uniqueSuffix } from './fixtures';

const DIR = process.env.DATABASE_URL ? path.join('test-results', 'screenshots') : path.join('docs', 'screenshots');
const DAY = 86_400_000;

function catalog() {
  const now = Date.now();
  return {
    campaigns: [{ id: 'winter-cup', title: 'Winter Cup', startAt: now + 10 * DAY, endAt: now + 20 * DAY }],
    missions: [
      { id: 'ranked-wins', title: 'Win 3 ranked matches', criteria: { eventName: 'match_won', count: 3, filter: { mode: 'ranked' } }, reward: { kind: 'currency', currency: 'gems', amount: 50 } },
      { id: 'daily-play', title: 'Play a match today', criteria: { eventName: 'match_played', count: 1, window: 'daily' }, reward: { kind: 'currency', currency: 'coins', amount: 20 } },
      { id: 'cup-entry', title: 'Enter the Winter Cup', campaignId: 'winter-cup', criteria: { eventName: 'tournament_joined', count: 1 }, reward: { kind: 'badge', badgeId: 'winter-cup' } },
      { id: 'first-login', title: 'Log in', criteria: { eventName: 'login', count: 1 }, reward: { kind: 'currency', currency: 'coins', amount: 5 } },
      { id: 'level-5', title: 'Reach level 5', criteria: { eventName: 'level_up', count: 5 }, reward: { kind: 'currency', currency: 'gems', amount: 10 } },
    ],
  };
}

async function setUp(request: APIRequestContext) {
  const appId = `e2e-live-${uniqueSuffix()}`;
  const app = await createApp(request, appId, `Live desk ${appId}`, catalog());
  const userId = `player-${uniqueSuffix()}`;
  const auth = { Authorization: `Bearer ${await playerToken(request, app, userId)}` };
  const send = async (name: string, payload: Record<string, unknown>) => {
    // Connection: close: a pooled socket the server closed while idle (its keep-alive timeout) is never reused (ECONNRESET).
    const res = await request.post('/v1/events', { headers: { ...auth, Connection: 'close' }, data: { userId, name, payload, timestamp: Date.now() } });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()) as { eventId: string; missionsUpdated: string[] };
  };
  return { appId, userId, send };
}

/** Counts the page's reads of the inspection (GET …/users/:userId), and which are still in flight. */
function watchInspectionReads(page: Page, appId: string, userId: string) {
  const path = `/api/admin/apps/${appId}/users/${userId}`;
  const isRead = (r: Request) => r.method() === 'GET' && new URL(r.url()).pathname === path;
  const state = { started: 0, done: 0 };
  page.on('request', (r) => isRead(r) && state.started++);
  page.on('requestfinished', (r) => isRead(r) && state.done++);
  page.on('requestfailed', (r) => isRead(r) && state.done++);
  return state;
}

test('an event that counts for nothing reaches the live panel with its reason, pushed by the stream (no read, no poll, no reload)', async ({ pageAs, request }) => {
  const { appId, userId, send } = await setUp(request);
  await send('match_won', { mode: 'ranked' });
  const page = await pageAs('support');
  await page.setViewportSize({ width: 1440, height: 1000 });
  const reads = watchInspectionReads(page, appId, userId);
  const navigations: string[] = [];
  page.on('framenavigated', (f) => f === page.mainFrame() && navigations.push(f.url()));
  await page.goto(`/admin/inspector?app=${appId}&user=${userId}`);
  await expect(page.locator('[data-mission="ranked-wins"]').getByTestId('mission-count')).toHaveText('1 / 3');
  await expect(page.getByTestId('live-state')).toHaveText('Live', { timeout: 30_000 });
  // Settled: the first read and the one made when the stream opened are done.
  await expect.poll(() => reads.started > 0 && reads.done === reads.started).toBe(true);
  const readsBefore = reads.started;
  navigations.length = 0;

  // A wrong event name over real HTTP: no mission counts it, nothing changes.
  const sentAt = Date.now();
  const wrong = await send('match_win', { mode: 'ranked' });
  expect(wrong.missionsUpdated).toEqual([]);
  const line = page.getByRole('log', { name: 'Live updates' }).locator(`[data-live-event="${wrong.eventId}"]`);
  await expect(line).toContainText('did you mean “match_won”?', { timeout: 5_000 });
  // Pushed, not read: the line is there and the page made no read of the
  // inspection since it settled (the time is printed, never asserted: a
  // loaded CI machine took 1,051 ms once).
  expect(reads.started, 'reads of the inspection before the line showed').toBe(readsBefore);
  console.info(`[${test.info().project.name}] POST /v1/events (counted for nothing) to its line in the live panel: ${Date.now() - sentAt} ms`);
  await expect(line).toContainText('match_win');
  await expect(line).toContainText('counted for nothing. No mission counts “match_win”: did you mean “match_won”?');

  // The recent events have it too, collapsed to one line instead of a row per mission.
  const row = page.locator(`[data-event="${wrong.eventId}"]`);
  await expect(row).toContainText('counted for no mission · did you mean “match_won”?');
  await row.locator('summary').click();
  const why = row.getByRole('list', { name: 'Why, mission by mission' });
  await expect(why.getByRole('listitem')).toHaveCount(1);
  await expect(why.getByTestId('name-mismatch')).toHaveText(
    'No mission counts “match_win”: did you mean “match_won”? (5 missions count “tournament_joined”, “match_played”, “login”, “level_up”, “match_won”)',
  );

  // The right name, a payload the filter refuses: the reason names the mission by title.
  const casual = await send('match_won', { mode: 'casual' });
  expect(casual.missionsUpdated).toEqual([]);
  const casualLine = page.locator(`[data-live-event="${casual.eventId}"]`);
  await expect(casualLine).toContainText('counted for nothing. “Win 3 ranked matches”: Filter “mode” did not match: needs = "ranked", saw "casual"', { timeout: 5_000 });
  await expect(page.locator(`[data-event="${casual.eventId}"]`)).toContainText('counted for no mission');

  // Neither came from a read of the inspection nor from a reload; and no read comes
  // later either, past the 10 s the inspector used to poll at.
  expect(reads.started, 'reads of the inspection since the page settled').toBe(readsBefore);
  await page.waitForTimeout(11_000);
  expect(reads.started, 'no poll').toBe(readsBefore);
  expect(navigations).toEqual([]);
});

test('titles instead of ids before and after a reload; recent events beside the missions at 1280 px, stacked on narrow screens; axe clean light and dark', async ({ pageAs, request }, testInfo) => {
  const { appId, userId, send } = await setUp(request);
  await send('match_won', { mode: 'ranked' });
  const page = await pageAs('support');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/admin/inspector?app=${appId}&user=${userId}`);
  await expect(page.getByTestId('live-state')).toHaveText('Live', { timeout: 30_000 });
  const wrong = await send('match_win', {});
  await send('match_played', {});
  const live = page.getByRole('log', { name: 'Live updates' });
  await expect(live.locator(`[data-live-event="${wrong.eventId}"]`)).toContainText('did you mean “match_won”?', { timeout: 5_000 });
  // A change of the player names the mission by title in the panel too.
  await expect(live).toContainText('“Play a match today” 1 / 1 (completed)', { timeout: 30_000 });

  const lock = page.locator('[data-mission="cup-entry"]');
  const expectTitles = async () => {
    await expect(lock).toContainText('Locked: its campaign “Winter Cup” starts');
    await expect(lock).toContainText('in “Winter Cup”');
    await expect(lock).not.toContainText('its campaign winter-cup');
    await expect(page.locator(`[data-event="${wrong.eventId}"]`)).toContainText('did you mean “match_won”?');
  };
  await expectTitles();

  // 1280 px: the recent events sit beside the missions, at the top of the right column. Measured at the
  // card's title: the card's name, date and page filter (issue 37 §6) sit between it and its list.
  const missionsAt = await page.getByRole('list', { name: 'Missions' }).boundingBox();
  await expect(page.getByRole('list', { name: 'Recent events' })).toBeVisible();
  const eventsAt = await page.getByText('Recent events', { exact: true }).boundingBox();
  expect(missionsAt && eventsAt).toBeTruthy();
  expect(eventsAt!.x, 'events to the right of the missions').toBeGreaterThan(missionsAt!.x + missionsAt!.width);
  expect(eventsAt!.y, 'events start beside the missions, not below them').toBeLessThan(missionsAt!.y + missionsAt!.height);

  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    // The switch animates colours (transition-colors): axe must see the end state, not a frame of the transition.
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await expectAccessible(page, `inspector with the live panel (${colorScheme})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // Narrow: one column, in ticket order: missions, live, recent events.
  await page.setViewportSize({ width: 800, height: 900 });
  const stacked = {
    missions: (await page.getByRole('list', { name: 'Missions' }).boundingBox())!,
    live: (await live.boundingBox())!,
    events: (await page.getByRole('list', { name: 'Recent events' }).boundingBox())!,
  };
  expect(stacked.live.y).toBeGreaterThan(stacked.missions.y + stacked.missions.height);
  expect(stacked.events.y).toBeGreaterThan(stacked.live.y + stacked.live.height);
  expect(Math.abs(stacked.events.x - stacked.missions.x)).toBeLessThan(40);

  // After a reload: the same titles and the same verdict line (the live panel starts empty).
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.reload();
  await expect(page.getByTestId('live-state')).toHaveText('Live', { timeout: 30_000 });
  await expectTitles();
  testInfo.annotations.push({ type: 'layout', description: `1280 px: missions x=${Math.round(missionsAt!.x)}, events x=${Math.round(eventsAt!.x)}` });
});

test(`screenshot: the inspector with the live panel`, async ({ pageAs, request }, testInfo) => {
  test.skip(testInfo.project.name !== 'npm start', 'taken under npm start');
  const { appId, userId, send } = await setUp(request);
  await send('login', {});
  await send('match_won', { mode: 'ranked' });
  const page = await pageAs('support');
  await page.setViewportSize({ width: 1440, height: 1100 });
  await page.goto(`/admin/inspector?app=${appId}&user=${userId}`);
  await expect(page.getByTestId('live-state')).toHaveText('Live', { timeout: 30_000 });
  await send('level_up', {});
  await send('match_won', { mode: 'casual' });
  const wrong = await send('match_win', { mode: 'ranked' });
  await expect(page.locator(`[data-live-event="${wrong.eventId}"]`)).toContainText('did you mean', { timeout: 5_000 });
  await page.locator(`[data-event="${wrong.eventId}"] summary`).click();
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(250);
  await inBothSchemes(page, async (colorScheme) => {
    await page.screenshot({ path: path.join(DIR, `inspector-live-${colorScheme}.png`), caret: 'hide', animations: 'disabled' });
  });
});
