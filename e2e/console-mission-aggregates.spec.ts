// Issue 19 in the console: an editor builds a sum mission with a daily streak
// in the mission form (the aggregate and streak builder), sees the schema's
// errors (a streak on a lifetime window, a missing payload field), saves it
// into the draft and publishes it, and the admin API and /v1 carry criteria.aggregate and criteria.streak.
// Axe clean and photographed, light and dark, into docs/screenshots (the
// embedded pass; test-results/screenshots on a shared database).
import path from 'node:path';
import { ADMIN_HEADERS, createApp, expect, expectAccessible, inBothSchemes, playerToken, publishDraft, test, uniqueSuffix } from './fixtures';

const DIR = process.env.DATABASE_URL ? path.join('test-results', 'screenshots') : path.join('docs', 'screenshots');

test.beforeAll(({}, testInfo) => test.skip(testInfo.project.name !== 'npm start', 'the same Next.js page under both servers: checked under npm start'));

test(`an editor builds a sum mission with a 5-day streak`, async ({ pageAs, request }) => {
  const appId = `aggregates-${uniqueSuffix()}`;
  const app = await createApp(request, appId, `Aggregates ${appId}`, { currencies: [{ id: 'gems', name: 'Gems' }] });
  const page = await pageAs('editor');
  await page.setViewportSize({ width: 1440, height: 1100 });
  await page.goto(`/admin/missions/new?app=${appId}`);
  await expect(page.getByRole('heading', { name: 'New mission', level: 1 })).toBeVisible();

  await page.getByLabel('Title', { exact: true }).fill('Collect 1,000 gold a day, 5 days in a row');
  await page.getByLabel('Event name', { exact: true }).fill('gold_earned');
  await page.getByLabel('Count', { exact: true }).fill('1000');
  await page.getByRole('combobox', { name: 'Measure' }).click();
  await page.getByRole('option', { name: 'Sum of a payload field' }).click();
  await page.getByLabel('Streak: the target must be met in consecutive windows').check();
  await page.getByRole('spinbutton', { name: /in a row$/ }).fill('5');

  // The schema's errors: no payload field; then a streak on the default lifetime window.
  await page.getByRole('button', { name: 'Save to draft' }).click();
  await expect(page.getByLabel('Payload field')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Payload field').fill('amount');
  await page.getByRole('button', { name: 'Save to draft' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Streak: a streak needs a daily or weekly window' })).toBeVisible();
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `${colorScheme} mission form with a streak error`);
  });

  await page.getByRole('combobox', { name: 'Window' }).click();
  await page.getByRole('option', { name: 'Daily' }).click();
  await expect(page.getByText('A day that ends without meeting the target starts the streak again.')).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Streak:' })).toHaveCount(0);
  const builder = page.getByRole('group', { name: 'What counts and streak' });
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `${colorScheme} mission form with aggregate and streak`);
    await builder.scrollIntoViewIfNeeded();
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: path.join(DIR, `mission-aggregate-streak-${colorScheme}.png`), caret: 'hide', animations: 'disabled' });
  });

  await page.getByRole('button', { name: 'Save to draft' }).click();
  await expect(page).toHaveURL(/\/admin\/missions\?app=/);
  expect((await (await request.get(`/api/admin/apps/${appId}/missions`, { headers: ADMIN_HEADERS })).json()).missions).toEqual([]);
  await publishDraft(page, appId);
  const { missions } = await (await request.get(`/api/admin/apps/${appId}/missions`, { headers: ADMIN_HEADERS })).json();
  expect(missions).toHaveLength(1);
  expect(missions[0].criteria).toEqual({ eventName: 'gold_earned', count: 1000, window: 'daily', aggregate: { op: 'sum', field: 'amount' }, streak: { length: 5 } });

  // A player's first event: the sum and the streak in /v1.
  const token = await playerToken(request, app, 'player-1');
  const auth = { Authorization: `Bearer ${token}` };
  const sent = await request.post('/v1/events', { headers: auth, data: { userId: 'player-1', name: 'gold_earned', payload: { amount: 412.5 }, timestamp: Date.now() } });
  expect(sent.status()).toBe(200);
  const listed = await (await request.get('/v1/missions', { headers: auth })).json();
  expect(Object.values(listed.progress)[0]).toMatchObject({ currentCount: 412, targetCount: 1000, streak: { current: 0, length: 5 } });

  // Editing shows what was saved.
  await page.goto(`/admin/missions/edit?app=${appId}&id=${encodeURIComponent(missions[0].id)}`);
  await expect(page.getByLabel('Payload field')).toHaveValue('amount');
  await expect(page.getByRole('spinbutton', { name: /in a row$/ })).toHaveValue('5');
});
