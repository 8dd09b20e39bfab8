// The Dashboard in a real browser: events and claims sent through /v1 show up
// in its totals, its per-mission and per-currency tables and its charts; the
// range picker and an app without activity; axe in light and dark.
import type { APIRequestContext } from '@playwright/test';
import { ADMIN_HEADERS, createApp, expect, expectAccessible, inBothSchemes, playerToken, test, uniqueSuffix } from './fixtures';

async function appWithActivity(request: APIRequestContext): Promise<string> {
  const appId = `dash-${uniqueSuffix()}`;
  const app = await createApp(request, appId, `Dashboard ${appId}`, {
    missions: [
      { id: 'win-two', title: 'Win two matches', criteria: { eventName: 'match_won', count: 2 }, reward: { kind: 'currency', currency: 'gems', amount: 25 } },
      { id: 'first-login', title: 'Log in', criteria: { eventName: 'login', count: 1 }, reward: { kind: 'currency', currency: 'coins', amount: 7 } },
    ],
  });
  for (const userId of ['ada', 'grace', 'linus']) {
    const auth = { Authorization: `Bearer ${await playerToken(request, app, userId)}` };
    const send = async (name: string) => {
      const res = await request.post('/v1/events', { headers: auth, data: { userId, name, payload: {}, timestamp: Date.now() } });
      expect(res.status()).toBe(200);
    };
    // Each user: a login, two wins; one win is re-sent under its key (a replay, not counted again).
    await send('login');
    const winAt = Date.now();
    for (const key of [`${userId}-w1`, `${userId}-w1`]) {
      const res = await request.post('/v1/events', { headers: { ...auth, 'Idempotency-Key': key }, data: { userId, name: 'match_won', payload: {}, timestamp: winAt } });
      expect(res.status()).toBe(200);
    }
    await send('match_won');
    expect((await request.post('/v1/missions/win-two/claim', { headers: auth })).status()).toBe(200);
    if (userId !== 'linus') expect((await request.post('/v1/missions/first-login/claim', { headers: auth })).status()).toBe(200);
  }
  return appId;
}

test('the dashboard shows what /v1 recorded: totals, missions, currency and the charts', async ({ pageAs, request }) => {
  const appId = await appWithActivity(request);
  const page = await pageAs('support');
  await page.goto(`/admin?app=${appId}`);

  // 3 users × (1 login + 2 wins) = 9 events; 6 completions; 3 + 2 claims; 75 gems and 14 coins.
  await expect(page.getByTestId('analytics-totals')).toContainText('9 events, 6 completions, 5 claims in the last hour; granted 75 gems · 14 coins.', { timeout: 20_000 });
  const totals = page.getByRole('region', { name: 'Totals' });
  await expect(totals).toContainText('Events9');
  await expect(totals).toContainText('Completions6');

  const missions = page.getByRole('table', { name: 'Completions and claims per mission' });
  await expect(missions.getByRole('row').filter({ hasText: 'Win two matches' })).toContainText(/win-two\s*3\s*3/);
  await expect(missions.getByRole('row').filter({ hasText: 'Log in' })).toContainText(/first-login\s*3\s*2/);
  const currency = page.getByRole('table', { name: 'Currency granted' });
  await expect(currency.getByRole('row').filter({ hasText: 'gems' })).toContainText(/gems\s*75\s*3/);
  await expect(currency.getByRole('row').filter({ hasText: 'coins' })).toContainText(/coins\s*14\s*2/);

  // The charts are drawn: an area for the events, a bar per mission and per currency.
  const rate = page.getByRole('img', { name: /^Events per minute in the last hour: 9 events/ });
  await expect(rate.locator('.recharts-area-area')).toBeVisible();
  const bars = page.getByRole('img', { name: /^Completions and claims per mission/ });
  await expect(bars.locator('.recharts-bar-rectangle')).toHaveCount(4);
  await expect(page.getByRole('img', { name: /^Currency granted in the last hour: 75 gems · 14 coins/ }).locator('.recharts-bar-rectangle')).toHaveCount(2);

  // Another range keeps the numbers (everything happened just now).
  await page.getByRole('button', { name: 'Last 7 days' }).click();
  await expect(page.getByTestId('analytics-totals')).toContainText('9 events, 6 completions, 5 claims in the last 7 days');
  await page.getByRole('button', { name: 'Custom' }).click();
  await expect(page.getByLabel('From', { exact: true })).toBeVisible();
  await expect(page.getByTestId('analytics-totals')).toContainText('9 events, 6 completions, 5 claims in the chosen range');
  // A custom range before anything happened: the empty state.
  await page.getByLabel('From', { exact: true }).fill('2020-01-01T00:00');
  await page.getByLabel('To', { exact: true }).fill('2020-01-02T00:00');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('No events in the chosen range')).toBeVisible();
  await expect(page.getByTestId('analytics-totals')).toContainText('0 events, 0 completions, 0 claims in the chosen range');
});

test('refreshes on its own: an event sent while the page is open appears without a reload', async ({ pageAs, request }) => {
  const appId = await appWithActivity(request);
  const page = await pageAs('editor');
  await page.goto(`/admin?app=${appId}`);
  await expect(page.getByTestId('analytics-totals')).toContainText('9 events,', { timeout: 20_000 });
  // One more event, through the webhook-free path: a new user's token and an event.
  const rotated = await request.post(`/api/admin/apps/${appId}/rotate-secret`, { headers: ADMIN_HEADERS });
  const { appSecret } = (await rotated.json()) as { appSecret: string };
  const auth = { Authorization: `Bearer ${await playerToken(request, { appId, appSecret }, 'late')}` };
  expect((await request.post('/v1/events', { headers: auth, data: { userId: 'late', name: 'shop_open', payload: {}, timestamp: Date.now() } })).status()).toBe(200);
  // The last hour refreshes every 15 s.
  await expect(page.getByTestId('analytics-totals')).toContainText('10 events,', { timeout: 45_000 });
});

test.beforeAll(({}, testInfo) => test.skip(testInfo.project.name !== 'npm start', 'checked under npm start'));

test(`the dashboard with charts and with none`, async ({ pageAs, request }) => {
  const appId = await appWithActivity(request);
  const page = await pageAs('admin');
  await page.goto(`/admin?app=${appId}`);
  await expect(page.getByTestId('analytics-totals')).toContainText('9 events,', { timeout: 20_000 });
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `${colorScheme} dashboard with charts`);
  });
  await page.getByRole('button', { name: 'Custom' }).click();
  await page.getByLabel('From', { exact: true }).fill('2020-01-01T00:00');
  await page.getByLabel('To', { exact: true }).fill('2020-01-02T00:00');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('No events in the chosen range')).toBeVisible();
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `${colorScheme} dashboard empty range`);
  });
});
