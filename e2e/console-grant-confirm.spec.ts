// The support desk's grant in a real browser, against both servers: the
// support role's limit of the currency beside the amount (an amount above it
// is not sent), a confirmation stating the effect ("gems: 50 → 550 for …")
// before it applies, and for a player the app has never seen a second question
// ("This player has never been seen by <app>. Grant anyway?") that sends it
// with createUser: true. The currency is a picker of the app's defined
// currencies (issue 39 §1). The dialogs are axe-clean; the form with its limit
// is screenshotted (docs/screenshots/grant-limit-light.png).
import path from 'node:path';
import { ADMIN_HEADERS, createApp, expect, expectAccessible, pickEconomy, playerToken, test, uniqueSuffix } from './fixtures';

const DIR = process.env.DATABASE_URL ? path.join('test-results', 'screenshots') : path.join('docs', 'screenshots');

test.use({ viewport: { width: 1440, height: 1000 } });

test('support sees the limit, confirms the effect, and is asked before granting to a never-seen player', async ({ pageAs, request }) => {
  const appId = `e2e-grant-${uniqueSuffix()}`;
  const name = `Demo game ${appId}`;
  const app = await createApp(request, appId, name, { missions: [], currencies: [{ id: 'gems', name: 'Gems' }, { id: 'gold', name: 'Gold' }] });
  const limits = await request.patch(`/api/admin/apps/${appId}`, { headers: ADMIN_HEADERS, data: { grantLimits: { gems: { perGrant: 500 } } } });
  expect(limits.status(), await limits.text()).toBe(200);
  const player = `p-${uniqueSuffix()}`;
  const token = await playerToken(request, app, player);
  expect((await request.post('/v1/events', { headers: { Authorization: `Bearer ${token}` }, data: { userId: player, name: 'login', payload: {}, timestamp: Date.now() } })).status()).toBe(200);
  const start = await request.post(`/api/admin/apps/${appId}/users/${player}/grants`, { headers: ADMIN_HEADERS, data: { currency: 'gems', amount: 50, reason: 'starting balance' } });
  expect(start.status(), await start.text()).toBe(200);

  const page = await pageAs('support');
  await page.goto(`/admin/inspector?app=${appId}&user=${player}`);
  await expect(page.getByTestId('balance-gems')).toHaveText('50', { timeout: 30_000 });
  const grant = page.getByRole('form', { name: 'Grant or correct currency' });
  // Only the defined currencies are offered, each as name and id.
  await grant.getByLabel('Currency').click();
  await expect(page.getByRole('option')).toHaveText([/^Gems\s*gems$/, /^Gold\s*gold$/]);
  await page.keyboard.press('Escape');
  await pickEconomy(page, grant.getByLabel('Currency'), 'gems');
  await grant.getByLabel('Reason').fill('Ticket 4411: lost purchase');
  await expect(page.getByTestId('grant-limit')).toHaveText('Your limit: at most 500 per grant, 5,000 per staff member a day (UTC)');
  // Above the limit: said beside the field, and the form does not send it.
  await grant.getByLabel('Amount').fill('501');
  await expect(page.getByTestId('grant-limit')).toHaveText('Above your limit: at most 500 gems per grant');
  await expect(grant.getByLabel('Amount')).toHaveAttribute('aria-invalid', 'true');
  await expect(grant.getByRole('button', { name: 'Grant' })).toBeDisabled();
  await expectAccessible(page, 'grant form above the limit');
  await page.evaluate(() => document.fonts.ready);
  await page.locator('[data-slot=card]').filter({ has: grant }).screenshot({ path: path.join(DIR, 'grant-limit-light.png'), caret: 'hide', animations: 'disabled' });
  // Another currency has the default limits: 501 gold is within them.
  await pickEconomy(page, grant.getByLabel('Currency'), 'gold');
  await expect(page.getByTestId('grant-limit')).toHaveText('Your limit: at most 1,000 per grant, 5,000 per staff member a day (UTC)');
  await expect(grant.getByRole('button', { name: 'Grant' })).toBeEnabled();
  await pickEconomy(page, grant.getByLabel('Currency'), 'gems');
  await expect(grant.getByRole('button', { name: 'Grant' })).toBeDisabled();

  // Within it: a confirmation with the effect; nothing is applied until it is confirmed.
  await grant.getByLabel('Amount').fill('500');
  await grant.getByRole('button', { name: 'Grant' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('grant-effect')).toHaveText(`gems: 50 → 550 for ${player}`);
  await expectAccessible(page, 'grant confirmation', '[role=dialog]');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('balance-gems')).toHaveText('50');
  await grant.getByRole('button', { name: 'Grant' }).click();
  await dialog.getByRole('button', { name: 'Grant', exact: true }).click();
  await expect(page.getByText('Granted 500 gems: balance now 550')).toBeVisible();
  await expect(page.getByTestId('balance-gems')).toHaveText('550', { timeout: 30_000 });

  // A player the app has never seen: asked again, then created with the grant.
  const ghost = `ghost-${uniqueSuffix()}`;
  await page.goto(`/admin/inspector?app=${appId}&user=${ghost}`);
  await expect(page.getByTestId('never-seen')).toBeVisible();
  await pickEconomy(page, grant.getByLabel('Currency'), 'gold');
  await grant.getByLabel('Amount').fill('10');
  await grant.getByLabel('Reason').fill('Ticket 4412: new account');
  await grant.getByRole('button', { name: 'Grant' }).click();
  await expect(dialog.getByTestId('grant-effect')).toHaveText(`gold: 0 → 10 for ${ghost}`);
  await dialog.getByRole('button', { name: 'Grant', exact: true }).click();
  await expect(dialog.getByRole('alert')).toHaveText(`This player has never been seen by ${name}. Grant anyway?`);
  await expectAccessible(page, 'grant never-seen question', '[role=dialog]');
  const seenBefore = await request.get(`/api/admin/apps/${appId}/users?query=${ghost}`, { headers: ADMIN_HEADERS });
  expect((await seenBefore.json()).users).toEqual([]);
  await dialog.getByRole('button', { name: 'Grant anyway' }).click();
  await expect(page.getByText('Granted 10 gold: balance now 10')).toBeVisible();
  const seenAfter = await request.get(`/api/admin/apps/${appId}/users?query=${ghost}`, { headers: ADMIN_HEADERS });
  expect((await seenAfter.json()).users).toEqual([expect.objectContaining({ userId: ghost, events: 0 })]);
});
