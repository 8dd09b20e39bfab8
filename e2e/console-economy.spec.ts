// The Economy screen (issue 39 §1) in Chromium: an app whose catalog names
// free-text currencies shows them as not defined yet; an editor defines a
// currency with its icon and maximum balance, saved into the draft and
// published; /v1 then shows the name beside the reward. Axe clean, with a
// screenshot in docs/screenshots/.
import path from 'node:path';
import { ADMIN_HEADERS, createApp, expect, expectAccessible, playerToken, publishDraft, test, uniqueSuffix } from './fixtures';

const DIR = process.env.DATABASE_URL ? path.join('test-results', 'screenshots') : path.join('docs', 'screenshots');

test.beforeAll(({}, testInfo) => test.skip(testInfo.project.name !== 'npm start', 'the same pages under both servers'));
test.use({ viewport: { width: 1440, height: 1000 } });

test('an editor defines the currencies the catalog names, through the draft', async ({ pageAs, request }) => {
  const appId = `eco-${uniqueSuffix()}`;
  const app = await createApp(request, appId, `Economy ${appId}`, {
    campaigns: [],
    missions: [
      { id: 'win-3', title: 'Win 3 matches', criteria: { eventName: 'match_won', count: 3 }, reward: { kind: 'currency', currency: 'gems', amount: 100 } },
      { id: 'first-login', title: 'First login', criteria: { eventName: 'login', count: 1 }, reward: { kind: 'badge', badgeId: 'welcome' } },
    ],
  });
  const page = await pageAs('editor');
  await page.goto(`/admin/economy?app=${appId}`);
  const currencies = page.getByRole('table', { name: 'Currencies' });
  await expect(currencies.getByRole('row', { name: /gems/ })).toContainText('Not defined', { timeout: 30_000 });
  await expect(page.getByRole('table', { name: 'Items and badges' }).getByRole('row', { name: /welcome/ })).toContainText('badge');

  await page.getByRole('button', { name: 'New currency' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Coins');
  await dialog.getByLabel('Currency ID').fill('coins');
  await dialog.getByLabel('Maximum balance').fill('5000');
  await expectAccessible(page, 'economy currency dialog', '[role=dialog]');
  await dialog.getByRole('button', { name: 'Save to draft' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(currencies.getByRole('row', { name: /coins/ })).toContainText('5,000');

  // Edit the implied one: its display name, icon and limit.
  await currencies.getByRole('button', { name: 'Actions for currency gems' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  await dialog.getByLabel('Name').fill('Gems');
  await dialog.getByLabel('Icon URL').fill('/favicon.svg');
  await dialog.getByLabel('Maximum balance').fill('100000');
  await dialog.getByLabel('Description').fill('Premium currency');
  await dialog.getByRole('button', { name: 'Save to draft' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(currencies.getByRole('row', { name: /Gems/ })).toContainText('100,000');
  await expect(currencies.getByRole('row', { name: /Gems/ })).not.toContainText('Not defined');

  await expectAccessible(page, 'economy screen');
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: path.join(DIR, 'economy-light.png'), caret: 'hide', animations: 'disabled' });

  // Published: the catalog carries the sections and /v1 shows the name beside the reward.
  await publishDraft(page, appId);
  const catalog = await (await request.get(`/api/admin/apps/${appId}/catalog`, { headers: ADMIN_HEADERS })).json();
  expect(catalog.currencies).toEqual([
    { id: 'coins', name: 'Coins', maxBalance: 5000 },
    { id: 'gems', name: 'Gems', iconUrl: '/favicon.svg', maxBalance: 100000, description: 'Premium currency' },
  ]);
  const token = await playerToken(request, app, `p-${uniqueSuffix()}`);
  const missions = await (await request.get('/v1/missions', { headers: { Authorization: `Bearer ${token}` } })).json();
  expect(missions.missions.find((m: { id: string }) => m.id === 'win-3').reward).toEqual({ kind: 'currency', currency: 'gems', amount: 100, name: 'Gems', iconUrl: '/favicon.svg' });
});
