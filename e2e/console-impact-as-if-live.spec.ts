// Issue 39 §5 in the console, against both servers: a campaign that has not
// started and a new mission are shown in the Draft page's Impact panel as if
// they had been live over the last 7 days, with the payout if every
// completion is claimed and at the observed claim rate, from real events and
// claims sent over /v1 here (every figure counted by hand below). Axe on the
// panel light and dark; screenshots for docs/console.md.
import path from 'node:path';
import type { Page } from '@playwright/test';
import { ADMIN_HEADERS, createApp, expect, expectAccessible, playerToken, test, uniqueSuffix } from './fixtures';

const DIR = process.env.DATABASE_URL ? path.join('test-results', 'screenshots') : path.join('docs', 'screenshots');
const DAY = 86_400_000;
const coins = (amount: number) => ({ kind: 'currency', currency: 'coins', amount });

async function checkBothSchemes(page: Page, name: string, projectName: string, target: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.mouse.move(0, 0);
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await expectAccessible(page, `${name} (${colorScheme})`, target);
    if (projectName !== 'npm start') continue;
    await page.evaluate(() => document.fonts.ready);
    await page.locator(target).first().screenshot({ path: path.join(DIR, `${name}-${colorScheme}.png`), caret: 'hide', animations: 'disabled' });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('a campaign that has not started and a new mission: impact as if live over the last 7 days, at 100 % and at the observed claim rate', async ({ request, pageAs }, testInfo) => {
  const startAt = Date.now() + 10 * DAY;
  const winter = { id: 'winter', title: 'Winter cup', startAt, endAt: startAt + 7 * DAY };
  const play2 = { id: 'play-2', title: 'Play 2 matches', campaignId: 'winter', criteria: { eventName: 'match_played', count: 2 }, reward: coins(100) };
  const first = { id: 'first-match', title: 'First match', criteria: { eventName: 'match_played', count: 1 }, reward: coins(10) };
  const app = await createApp(request, `as-if-live-${uniqueSuffix()}`, 'Winter games', { missions: [play2, first], campaigns: [winter] });

  // Three players play 3, 2 and 1 matches; each completes First match, the first two claim it (2 of 3: 67 %).
  for (const [i, n] of [3, 2, 1].entries()) {
    const userId = `player-${i + 1}`;
    const auth = { Authorization: `Bearer ${await playerToken(request, app, userId)}` };
    for (let k = 0; k < n; k++) {
      const sent = await request.post('/v1/events', { headers: auth, data: { userId, name: 'match_played', payload: { k }, timestamp: Date.now() } });
      expect(sent.status(), await sent.text()).toBe(200);
    }
    if (i < 2) expect((await request.post('/v1/missions/first-match/claim', { headers: auth })).status()).toBe(200);
  }

  // The draft raises the campaign's reward from 100 to 10,000 coins and adds a mission of 3 matches.
  const draft = { missions: [{ ...play2, reward: coins(10_000) }, first, { id: 'play-3', title: 'Play 3 matches', criteria: { eventName: 'match_played', count: 3 }, reward: coins(30) }], campaigns: [winter] };
  const put = await request.put(`/api/admin/apps/${app.appId}/draft`, { headers: ADMIN_HEADERS, data: draft });
  expect(put.status(), await put.text()).toBe(200);

  const page = await pageAs('editor');
  await page.goto(`/admin/draft?app=${app.appId}`);
  await page.getByLabel('Events of the last').selectOption('7');
  await page.getByRole('button', { name: 'Replay events' }).click();
  // Play 2 matches as if live: players 1 and 2 complete (200 coins → 20,000), at 2/3: 133 → 13,333.
  // Play 3 matches: player 1 completes (30 coins), at 2/3: 20.
  await expect(page.getByRole('list', { name: 'Impact summary' }).getByRole('listitem')).toHaveText([
    "Play 2 matches (its campaign has not started): if it had been live over the last 7 days: 2 players, 200 coins → 20,000 coins if every completion is claimed, 133 coins → 13,333 coins at the app's observed claim rate (67 %; this mission has no history)",
    "Play 3 matches (new mission): if it had been live over the last 7 days: 0 → 1 player, — → 30 coins if every completion is claimed, — → 20 coins at the app's observed claim rate (67 %; this mission has no history)",
  ]);
  const rows = page.getByRole('table', { name: 'Impact' }).getByRole('row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1).getByRole('cell')).toHaveText(['Play 2 matches', 'changed', 'as if live over the last 7 days', '2', '1', '200 coins → 20,000 coins', '67 % (the app’s)', '133 coins → 13,333 coins']);
  await expect(rows.nth(2).getByRole('cell')).toHaveText(['Play 3 matches', 'added', 'as if live over the last 7 days', '0 → 1', '0 → 2', '— → 30 coins', '67 % (the app’s)', '— → 20 coins']);
  await checkBothSchemes(page, 'draft-impact-as-if-live', testInfo.project.name, '[data-slot=card]:has(table[aria-label="Impact"])');
});
