// A reward bundle in the mission editor (issue 39 §2) in Chromium: an editor
// adds a badge to a mission's coins, sees "100 coins + Winter badge" in the
// preview, saves to the draft, and the missions list shows the bundle; the
// published mission grants both by one claim over /v1. Removing a reward
// takes it out again. Axe clean, with a screenshot in docs/screenshots/.
import path from 'node:path';
import { ADMIN_HEADERS, createApp, expect, expectAccessible, playerToken, publishDraft, test, uniqueSuffix } from './fixtures';

const DIR = process.env.DATABASE_URL ? path.join('test-results', 'screenshots') : path.join('docs', 'screenshots');

test.beforeAll(({}, testInfo) => test.skip(testInfo.project.name !== 'npm start', 'the same pages under both servers'));
test.use({ viewport: { width: 1440, height: 1000 } });

test('an editor makes a mission a bundle: coins and a badge, granted together', async ({ pageAs, request }) => {
  const appId = `bundle-${uniqueSuffix()}`;
  const app = await createApp(request, appId, `Bundles ${appId}`, {
    currencies: [{ id: 'coins', name: 'Coins' }],
    items: [{ id: 'winter', name: 'Winter badge', kind: 'badge' }],
    campaigns: [],
    missions: [{ id: 'feast', title: 'Winter feast', criteria: { eventName: 'feast', count: 1 }, reward: { kind: 'currency', currency: 'coins', amount: 100 } }],
  });
  const page = await pageAs('editor');
  await page.goto(`/admin/missions/edit?app=${appId}&id=feast`);
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue('Winter feast', { timeout: 30_000 });

  await page.getByRole('button', { name: 'Add reward' }).click();
  await expect(page.getByRole('combobox', { name: 'Reward kind (reward 2)' })).toHaveText(/Badge/);
  await page.getByRole('combobox', { name: 'Badge (reward 2)' }).click();
  await page.getByRole('option', { name: /Winter badge/ }).click();
  await expect(page.getByText('100 coins + Winter badge')).toBeVisible();
  // Picked: the row's "Enter badge id" (shown when the empty picker was opened) is gone.
  await expect(page.getByRole('combobox', { name: 'Badge (reward 2)' })).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Enter badge id')).toHaveCount(0);
  await expectAccessible(page, 'mission editor with a bundle');
  await page.evaluate(() => document.fonts.ready);
  await page.getByRole('group', { name: 'Rewards' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(DIR, 'mission-bundle-light.png'), caret: 'hide', animations: 'disabled' });

  await page.getByRole('button', { name: 'Save to draft' }).click();
  await expect(page).toHaveURL(/\/admin\/missions\?/);
  await expect(page.getByRole('row', { name: /Winter feast/ })).toContainText('100 coins + Winter badge');
  await expectAccessible(page, 'missions list with a bundle');

  // The draft holds the bundle; published, one claim grants both.
  await publishDraft(page, appId);
  const catalog = await (await request.get(`/api/admin/apps/${appId}/catalog`, { headers: ADMIN_HEADERS })).json();
  expect(catalog.missions[0]).toMatchObject({
    reward: { kind: 'currency', currency: 'coins', amount: 100 },
    rewards: [{ kind: 'currency', currency: 'coins', amount: 100 }, { kind: 'badge', badgeId: 'winter' }],
  });
  const userId = `p-${uniqueSuffix()}`;
  const token = await playerToken(request, app, userId);
  const auth = { Authorization: `Bearer ${token}` };
  expect((await request.post('/v1/events', { headers: auth, data: { userId, name: 'feast', payload: {}, timestamp: Date.now() } })).status()).toBe(200);
  const claim = await request.post('/v1/missions/feast/claim', { headers: auth });
  expect(claim.status()).toBe(200);
  const body = await claim.json();
  expect(body.rewards.map((r: { kind: string }) => r.kind)).toEqual(['currency', 'badge']);
  expect(body.balances).toEqual([expect.objectContaining({ currency: 'coins', amount: 100 })]);

  // Removing the badge again: the mission is back to its one reward.
  await page.goto(`/admin/missions/edit?app=${appId}&id=feast`);
  await expect(page.getByRole('combobox', { name: 'Badge (reward 2)' })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Remove reward 2' }).click();
  await expect(page.getByRole('combobox', { name: 'Badge (reward 2)' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Save to draft' }).click();
  // The list shows the draft's one reward beside the live bundle.
  await expect(page.getByTestId('draft-reward')).toContainText('Live: 100 coins + Winter badge');
  const draft = await (await request.get(`/api/admin/apps/${appId}/draft`, { headers: ADMIN_HEADERS })).json();
  expect(draft.catalog.missions[0].reward).toEqual({ kind: 'currency', currency: 'coins', amount: 100 });
  expect(draft.catalog.missions[0]).not.toHaveProperty('rewards');
});
