// Drafts and releases in the console, against both servers: an editor's
// draft (written through the admin API) leaves /v1 unchanged; the Draft page
// lists its changes, replays real events for its impact, and publishes it; /v1 changes; the Releases page restores
// the previous release into the draft; publishing it brings /v1 back. Axe on
// both pages and their dialogs, light and dark; screenshots for the docs.
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { ADMIN_HEADERS, createApp, expect, expectAccessible, inBothSchemes, playerToken, test, type CreatedApp, uniqueSuffix } from './fixtures';

const mission = (id: string, title: string, count = 1) => ({ id, title, criteria: { eventName: 'match_won', count }, reward: { kind: 'currency', currency: 'gems', amount: 10 } });

async function liveMissions(request: APIRequestContext, app: CreatedApp): Promise<Array<{ id: string; title: string }>> {
  const token = await playerToken(request, app, 'player-1');
  const res = await request.get('/v1/missions', { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { missions: Array<{ id: string; title: string }> }).missions;
}

async function shoot(page: Page, name: string, scheme: string, projectName: string): Promise<void> {
  if (projectName !== 'npm start') return;
  const dir = process.env.DATABASE_URL ? path.join('test-results', 'screenshots') : path.join('docs', 'screenshots');
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(250);
  await page.screenshot({ path: path.join(dir, `${name}-${scheme}.png`), caret: 'hide', animations: 'disabled', fullPage: true });
}

test('edit the draft, publish it, restore the previous release, publish: /v1 follows only the publishes', async ({ request, pageAs }) => {
  const app = await createApp(request, `drafts-${uniqueSuffix()}`, 'Drafts e2e', { missions: [mission('ranked-ace', 'Ranked ace', 2), mission('daily-win', 'Daily win')], campaigns: [] });
  const before = await liveMissions(request, app);
  expect(before.map((m) => [m.id, m.title])).toEqual([
    ['daily-win', 'Daily win'],
    ['ranked-ace', 'Ranked ace'],
  ]);

  // The draft: Ranked ace to 3 wins and renamed, Daily win removed, a new mission.
  const draft = { missions: [mission('ranked-ace', 'Ranked ace (3 wins)', 3), mission('season-opener', 'Season opener')], campaigns: [] };
  const put = await request.put(`/api/admin/apps/${app.appId}/draft`, { headers: ADMIN_HEADERS, data: draft });
  expect(put.status(), await put.text()).toBe(200);
  expect(await liveMissions(request, app)).toEqual(before);

  // Real events: a player wins twice (Ranked ace at 2 and Daily win at 1 complete live).
  const token = await playerToken(request, app, 'player-1');
  for (let i = 0; i < 2; i++) {
    const sent = await request.post('/v1/events', { headers: { Authorization: `Bearer ${token}` }, data: { userId: 'player-1', name: 'match_won', payload: { i }, timestamp: Date.now() } });
    expect(sent.status(), await sent.text()).toBe(200);
  }

  const page = await pageAs('editor');
  await page.goto(`/admin/draft?app=${app.appId}`);
  const changes = page.getByRole('list', { name: 'Changes against live' });
  await expect(changes.getByRole('listitem')).toHaveCount(3);

  // The impact over those events: with the draft, Ranked ace (3 wins) is not reached, Daily win is gone, Season opener completes.
  await page.getByRole('button', { name: 'Replay events' }).click();
  const impact = page.getByRole('list', { name: 'Impact summary' });
  await expect(impact.getByRole('listitem')).toHaveText([
    'Daily win: 1 → 0 players would have completed, 10 gems → —',
    'Ranked ace (3 wins): 1 → 0 players would have completed, 10 gems → —',
    // New: shown as if live, at the app's claim rate (the two live completions were not claimed: 0 %).
    "Season opener (new mission): if it had been live over the last 30 days: 0 → 1 player, — → 10 gems if every completion is claimed, — → 0 gems at the app's observed claim rate (0 %; this mission has no history)",
  ]);
  await expect(page.getByRole('table', { name: 'Impact' }).getByRole('row')).toHaveCount(4);
  await expect(changes).toContainText('season-opener');
  await expect(changes.getByRole('listitem').filter({ hasText: 'daily-win' })).toContainText('removed');
  await page.getByRole('button', { name: 'Publish now' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Publish now' }).click();
  await expect(page.getByText('No draft')).toBeVisible();
  await expect.poll(async () => (await liveMissions(request, app)).map((m) => m.title)).toEqual(['Ranked ace (3 wins)', 'Season opener']);

  // Revert: the release before it, restored into the draft, published.
  await page.goto(`/admin/releases?app=${app.appId}`);
  const releases = page.getByRole('table', { name: 'Releases' });
  await expect(releases.getByRole('row')).toHaveCount(3);
  await expect(releases.getByRole('row').nth(1)).toContainText('(live)');
  await page.getByRole('button', { name: 'Restore release 1 into the draft' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Restore into the draft' }).click();
  await expect(page).toHaveURL(/\/admin\/draft/);
  await expect(page.getByRole('list', { name: 'Changes against live' }).getByRole('listitem')).toHaveCount(3);
  expect((await liveMissions(request, app)).map((m) => m.title)).toEqual(['Ranked ace (3 wins)', 'Season opener']);
  await page.getByRole('button', { name: 'Publish now' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Publish now' }).click();
  await expect(page.getByText('No draft')).toBeVisible();
  await expect.poll(async () => (await liveMissions(request, app)).map((m) => [m.id, m.title])).toEqual(before.map((m) => [m.id, m.title]));
});


test('the Draft and Releases pages and their dialogs are axe clean', async ({ request, pageAs }, testInfo) => {
  const app = await createApp(request, `drafts-a11y-${uniqueSuffix()}`, 'Winter season', {
    missions: [mission('ranked-ace', 'Ranked ace', 2), mission('daily-win', 'Daily win')],
    campaigns: [],
  });
  await request.put(`/api/admin/apps/${app.appId}/missions/daily-win`, { headers: ADMIN_HEADERS, data: { ...mission('daily-win', 'Daily win: any mode'), version: 1 } });
  const put = await request.put(`/api/admin/apps/${app.appId}/draft`, {
    headers: ADMIN_HEADERS,
    data: { missions: [mission('ranked-ace', 'Ranked ace (3 wins)', 3), mission('snow-fort', 'Build a snow fort')], campaigns: [] },
  });
  expect(put.status()).toBe(200);
  const at = Date.now() + 86_400_000;
  expect((await request.post(`/api/admin/apps/${app.appId}/draft/publish`, { headers: ADMIN_HEADERS, data: { at } })).status()).toBe(202);

  // A few real events, so the Impact panel (and its screenshot) shows differences.
  for (const player of ['player-1', 'player-2']) {
    const token = await playerToken(request, app, player);
    for (let i = 0; i < (player === 'player-1' ? 3 : 2); i++) {
      expect((await request.post('/v1/events', { headers: { Authorization: `Bearer ${token}` }, data: { userId: player, name: 'match_won', payload: { i }, timestamp: Date.now() } })).status()).toBe(200);
    }
  }

  const page = await pageAs('editor');
  await page.goto(`/admin/draft?app=${app.appId}`);
  await expect(page.getByRole('list', { name: 'Changes against live' }).getByRole('listitem')).toHaveCount(3);
  // The draft card's line (a toast says "Scheduled for …" too).
  await expect(page.locator('[data-slot=card-description]').filter({ hasText: 'Scheduled for' })).toBeVisible();
  await page.getByRole('button', { name: 'Replay events' }).click();
  await expect(page.getByRole('table', { name: 'Impact' }).getByRole('row')).toHaveCount(4);
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `${colorScheme} /admin/draft`);
    await shoot(page, 'draft', colorScheme, testInfo.project.name);
  });
  await page.getByRole('button', { name: 'Discard draft' }).click();
  await expect(page.getByRole('alertdialog')).toBeVisible();
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `${colorScheme} discard draft dialog`, '[role=alertdialog]');
  });
  await page.keyboard.press('Escape');

  await page.goto(`/admin/releases?app=${app.appId}`);
  await expect(page.getByRole('table', { name: 'Releases' }).getByRole('row')).toHaveCount(3);
  await expect(page.getByRole('heading', { name: 'Scheduled' })).toBeVisible();
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `${colorScheme} /admin/releases`);
    await shoot(page, 'releases', colorScheme, testInfo.project.name);
  });
  await page.getByRole('button', { name: 'Restore release 1 into the draft' }).click();
  await expect(page.getByRole('alertdialog')).toBeVisible();
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `${colorScheme} restore dialog`, '[role=alertdialog]');
  });
});
