// The draft read before it pays out (issue 39 §5), in Chromium against both
// servers: the review shows each changed field before → after ("Reward: 100
// coins → 10,000 coins"), the payout warning, and "Publish now" asks before it
// publishes with the warning acknowledged; a scheduled release says what it
// holds and what came since ("Release 3 is scheduled for … with 1 change; 1
// change since is not in it"), and cancelling it keeps its change in the
// draft. Axe on the page and the dialog, light and dark; screenshots for the docs.
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { ADMIN_HEADERS, createApp, expect, expectAccessible, inBothSchemes, playerToken, test, type CreatedApp, uniqueSuffix } from './fixtures';

const coins = (amount: number) => ({ kind: 'currency', currency: 'coins', amount });
const playFive = (amount: number, count = 5) => ({ id: 'play-5-matches', title: 'Play 5 matches', criteria: { eventName: 'match_played', count }, reward: coins(amount) });

async function shoot(page: Page, name: string, scheme: string, projectName: string): Promise<void> {
  if (projectName !== 'npm start') return;
  const dir = process.env.DATABASE_URL ? path.join('test-results', 'screenshots') : path.join('docs', 'screenshots');
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(250);
  await page.screenshot({ path: path.join(dir, `${name}-${scheme}.png`), caret: 'hide', animations: 'disabled', fullPage: true });
}

async function liveReward(request: APIRequestContext, app: CreatedApp): Promise<unknown> {
  const token = await playerToken(request, app, 'player-1');
  const res = await request.get('/v1/missions', { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { missions: Array<{ id: string; reward: unknown }> }).missions.find((m) => m.id === 'play-5-matches')?.reward;
}

test('the review shows each field before → after and the payout warning; publishing asks, then publishes acknowledged', async ({ request, pageAs }, testInfo) => {
  const app = await createApp(request, `review-${uniqueSuffix()}`, 'Review e2e', { missions: [playFive(100)], campaigns: [] });
  const put = await request.put(`/api/admin/apps/${app.appId}/draft`, { headers: ADMIN_HEADERS, data: { missions: [playFive(10_000, 3)], campaigns: [] } });
  expect(put.status(), await put.text()).toBe(200);

  const page = await pageAs('editor');
  await page.goto(`/admin/draft?app=${app.appId}`);
  const changes = page.getByRole('list', { name: 'Changes against live' });
  await expect(changes.getByRole('listitem')).toHaveCount(1);
  await expect(changes).toContainText('Reward: 100 coins → 10,000 coins');
  await expect(changes).toContainText('Target count: 5 → 3');
  const warnings = page.getByRole('status', { name: 'Payout warnings' });
  await expect(warnings).toContainText('1 payout warning');
  await expect(warnings).toContainText('Mission "play-5-matches": reward 100 coins → 10,000 coins (×100)');
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `${colorScheme} /admin/draft with field diffs and a warning`);
    await shoot(page, 'draft-review', colorScheme, testInfo.project.name);
  });

  await page.getByRole('button', { name: 'Publish now' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog.getByRole('list', { name: 'Warnings to confirm' })).toContainText('10,000 coins (×100)');
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `${colorScheme} publish dialog with a warning`, '[role=alertdialog]');
    await shoot(page, 'draft-review-confirm', colorScheme, testInfo.project.name);
  });
  expect(await liveReward(request, app)).toEqual(coins(100));
  await dialog.getByRole('button', { name: 'Publish anyway' }).click();
  await expect(page.getByText('No draft')).toBeVisible();
  await expect.poll(() => liveReward(request, app)).toEqual(coins(10_000));
});

test('a scheduled release says what it holds and what came since; cancelling keeps its change in the draft', async ({ request, pageAs }, testInfo) => {
  const app = await createApp(request, `snapshot-${uniqueSuffix()}`, 'Snapshot e2e', { missions: [playFive(100)], campaigns: [] });
  const item = (id: string, title: string) => ({ id, title, criteria: { eventName: 'match_played', count: 1 }, reward: coins(5) });
  expect((await request.put(`/api/admin/apps/${app.appId}/draft/missions/daily`, { headers: ADMIN_HEADERS, data: item('daily', 'Daily match') })).status()).toBe(200);
  const at = Date.now() + 86_400_000;
  expect((await request.post(`/api/admin/apps/${app.appId}/draft/publish`, { headers: ADMIN_HEADERS, data: { at } })).status()).toBe(202);
  expect((await request.put(`/api/admin/apps/${app.appId}/draft/missions/weekly`, { headers: ADMIN_HEADERS, data: item('weekly', 'Weekly match') })).status()).toBe(200);

  const page = await pageAs('editor');
  await page.goto(`/admin/draft?app=${app.appId}`);
  const summary = page.getByTestId('scheduled-summary');
  await expect(summary).toContainText('Release 2 is scheduled for');
  await expect(summary).toContainText('with 1 change; 1 change since is not in it.');
  await expect(page.getByRole('list', { name: 'In scheduled release 2' })).toContainText('daily');
  await expect(page.getByRole('list', { name: 'Changes since it was scheduled' })).toContainText('weekly');
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `${colorScheme} /admin/draft with a scheduled snapshot`);
    await shoot(page, 'draft-scheduled-snapshot', colorScheme, testInfo.project.name);
  });

  await page.getByRole('button', { name: 'Cancel schedule' }).click();
  await expect(summary).toBeHidden();
  const changes = page.getByRole('list', { name: 'Changes against live' });
  await expect(changes.getByRole('listitem')).toHaveCount(2);
  await expect(changes).toContainText('daily');
  await expect(changes).toContainText('weekly');
});
