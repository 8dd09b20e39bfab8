// Issue 37 §4: every mission is described by what it measures, from one
// function (lib/missions/describe-mission.ts): a sum by its total and field,
// a streak by its days in a row, distinct values by how many different ones,
// with the audience and the prerequisite, in the Missions table, the mission
// editor's player preview and labels, and the Inspector (progress in the
// mission's units: "4,200 / 10,000 gold", "day 1 of 7", not 0/1). A player
// of the audience claims the prerequisite, then sends real events through /v1.
// Photographed, light and dark, into docs/screenshots (the embedded pass;
// test-results/screenshots on a shared database).
import path from 'node:path';
import type { Page } from '@playwright/test';
import { createApp, expect, inBothSchemes, test, uniqueSuffix } from './fixtures';

const DIR = process.env.DATABASE_URL ? path.join('test-results', 'screenshots') : path.join('docs', 'screenshots');

const ios = { platform: 'ios' };
const CATALOG = {
  missions: [
    { id: 'play-five', title: 'Play 5 matches', criteria: { eventName: 'match_played', count: 5 }, reward: { kind: 'currency', currency: 'gems', amount: 10 } },
    {
      id: 'gold-rush',
      title: 'Gold rush',
      criteria: { eventName: 'gold_earned', count: 10_000, window: 'weekly', aggregate: { op: 'sum', field: 'gold' } },
      reward: { kind: 'currency', currency: 'gems', amount: 50 },
      audience: ios,
      prerequisites: ['play-five'],
    },
    {
      id: 'login-streak',
      title: 'Log in every day',
      criteria: { eventName: 'login', count: 1, window: 'daily', streak: { length: 7 } },
      reward: { kind: 'badge', badgeId: 'regular' },
      audience: ios,
      prerequisites: ['play-five'],
    },
    {
      id: 'mode-explorer',
      title: 'Try every mode',
      criteria: { eventName: 'match_played', count: 3, aggregate: { op: 'distinct', field: 'mode' } },
      reward: { kind: 'item', itemId: 'compass', quantity: 1 },
      audience: ios,
      prerequisites: ['play-five'],
    },
  ],
};

const AUDIENCE = 'Only players with platform = "ios"';
const AFTER = 'After ‘Play 5 matches’';

/** The Criteria cell of a mission's row, found by the mission's id (its title is in other rows' prerequisites). */
const criteriaOf = (page: Page, id: string) => page.getByRole('row').filter({ hasText: id }).getByTestId('mission-criteria');

test('sum, streak and distinct missions read by what they measure, with audience and prerequisite: Missions table, editor preview, Inspector', async ({ pageAs, request }, testInfo) => {
  test.setTimeout(180_000);
  const appId = `describe-${uniqueSuffix()}`;
  const app = await createApp(request, appId, `Descriptions ${appId}`, CATALOG);

  // The Missions table.
  const page = await pageAs('editor');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/admin/missions?app=${appId}`);
  await expect(criteriaOf(page, 'gold-rush')).toHaveText(['Collect 10,000 gold (sum of gold on gold_earned)', 'Weekly', AUDIENCE, AFTER].join(''));
  await expect(criteriaOf(page, 'login-streak')).toHaveText(['login on 7 days in a row', 'Daily streak', AUDIENCE, AFTER].join(''));
  await expect(criteriaOf(page, 'mode-explorer')).toHaveText(['3 different modes (distinct mode on match_played)', 'Lifetime', AUDIENCE, AFTER].join(''));
  await expect(criteriaOf(page, 'play-five')).toHaveText('5 match_played eventsLifetime');
  if (testInfo.project.name === 'npm start') {
    await inBothSchemes(page, async (colorScheme) => {
      await page.evaluate(() => document.fonts.ready);
      await page.getByRole('table').screenshot({ path: path.join(DIR, `missions-descriptions-${colorScheme}.png`), caret: 'hide', animations: 'disabled' });
    });
  }

  // The editor: the target's label in the measure's words, and the player preview.
  await page.goto(`/admin/missions/edit?app=${appId}&id=gold-rush`);
  const preview = page.getByRole('region', { name: 'Player preview' });
  await expect(preview.getByTestId('preview-measure')).toHaveText('Collect 10,000 gold (sum of gold on gold_earned)');
  await expect(preview.getByTestId('preview-progress')).toHaveText('0 / 10,000 gold');
  await expect(preview).toContainText('Resets every Monday at 00:00 in the player’s time zone (UTC when they have none)');
  await expect(preview).toContainText(AUDIENCE);
  await expect(preview).toContainText('Unlocks after ‘Play 5 matches’ is claimed.');
  await expect(page.getByLabel('Total', { exact: true })).toHaveValue('10000');

  await page.goto(`/admin/missions/edit?app=${appId}&id=login-streak`);
  await expect(preview.getByTestId('preview-measure')).toHaveText('login on 7 days in a row');
  await expect(preview.getByTestId('preview-progress')).toHaveText('day 0 of 7');
  await expect(preview).toContainText('a day that ends without meeting the target starts the streak again');
  await expect(preview).not.toContainText('Resets every day');
  await expect(page.getByLabel('Days in a row', { exact: true })).toHaveValue('7');
  await expect(page.getByLabel('Count a day', { exact: true })).toHaveValue('1');

  await page.goto(`/admin/missions/edit?app=${appId}&id=mode-explorer`);
  await expect(preview.getByTestId('preview-measure')).toHaveText('3 different modes (distinct mode on match_played)');
  await expect(preview.getByTestId('preview-progress')).toHaveText('0 / 3 modes');
  await expect(page.getByLabel('Different values', { exact: true })).toHaveValue('3');

  // A player of the audience (their zone Berlin) claims the prerequisite, then earns gold, logs in and plays a new mode.
  const userId = `player-${uniqueSuffix()}`;
  const token = await request.post('/v1/auth/token', { data: { appId: app.appId, appSecret: app.appSecret, userId, attributes: { platform: 'ios', timezone: 'Europe/Berlin' } } });
  expect(token.status(), await token.text()).toBe(200);
  const auth = { Authorization: `Bearer ${((await token.json()) as { accessToken: string }).accessToken}` };
  const send = async (name: string, payload: Record<string, unknown>) => {
    const res = await request.post('/v1/events', { headers: auth, data: { userId, name, payload, timestamp: Date.now() } });
    expect(res.status(), await res.text()).toBe(200);
  };
  for (let i = 0; i < 5; i++) await send('match_played', { mode: 'ranked' });
  expect((await request.post('/v1/missions/play-five/claim', { headers: auth })).status()).toBe(200);
  await send('gold_earned', { gold: 4200 });
  await send('login', {});
  await send('match_played', { mode: 'arena' });

  const support = await pageAs('support');
  await support.setViewportSize({ width: 1440, height: 1100 });
  await support.goto(`/admin/inspector?app=${appId}&user=${userId}`);
  const mission = (id: string) => support.locator(`[data-mission="${id}"]`);
  await expect(mission('gold-rush').getByTestId('mission-count')).toHaveText('4,200 / 10,000 gold');
  await expect(mission('gold-rush').getByTestId('mission-criteria')).toHaveText(
    'gold-rush · Collect 10,000 gold (sum of gold on gold_earned) · weekly · only players with platform = "ios" · after ‘Play 5 matches’',
  );
  await expect(support.getByRole('progressbar', { name: 'Gold rush progress' })).toHaveAttribute('aria-valuenow', '42');
  await expect(mission('login-streak').getByTestId('mission-count')).toHaveText('day 1 of 7');
  await expect(mission('login-streak').getByTestId('mission-criteria')).toHaveText('login-streak · login on 7 days in a row · daily streak · only players with platform = "ios" · after ‘Play 5 matches’');
  await expect(support.getByRole('progressbar', { name: 'Log in every day progress' })).toHaveAttribute('aria-valuenow', '14');
  await expect(mission('mode-explorer').getByTestId('mission-count')).toHaveText('1 / 3 modes');
  await expect(mission('mode-explorer').getByTestId('mission-criteria')).toContainText('3 different modes (distinct mode on match_played)');

  // The verdicts say the progress in the same words.
  const eventNamed = (name: string) => support.locator('[data-event]').filter({ has: support.locator('summary code').getByText(name, { exact: true }) });
  const goldEvent = eventNamed('gold_earned');
  await goldEvent.locator('summary').click();
  await expect(goldEvent).toContainText('Counted +4,200: progress 4,200 / 10,000 gold');
  const loginEvent = eventNamed('login');
  await loginEvent.locator('summary').click();
  await expect(loginEvent).toContainText('Counted: progress day 1 of 7');
});
