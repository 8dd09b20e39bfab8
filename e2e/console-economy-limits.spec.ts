// Issue 39 §1 and §4 in Chromium: the Economy screen's grant limits (the
// support role's, per currency, with the defaults shown; an admin edits them,
// a bad value is refused under its field, the app setting is saved), and the
// mission editor's reward fields as pickers of the app's defined currencies,
// items and badges (name + id), saying so with a link to the Economy screen
// when the app defines none. Axe clean; screenshots in docs/screenshots/.
import path from 'node:path';
import { ADMIN_HEADERS, createApp, expect, expectAccessible, pickEconomy, test, uniqueSuffix } from './fixtures';

const DIR = process.env.DATABASE_URL ? path.join('test-results', 'screenshots') : path.join('docs', 'screenshots');

test.use({ viewport: { width: 1440, height: 1000 } });

const ECONOMY = {
  missions: [],
  currencies: [
    { id: 'gems', name: 'Gems', maxBalance: 100000 },
    { id: 'coins', name: 'Coins' },
  ],
  items: [
    { id: 'golden-sword', name: 'Golden sword', kind: 'item' },
    { id: 'winter-badge', name: 'Winter badge', kind: 'badge' },
  ],
};

test('an admin sets the support role’s grant limits per currency on the Economy screen', async ({ pageAs, request }) => {
  const appId = `eco-limits-${uniqueSuffix()}`;
  await createApp(request, appId, `Limits ${appId}`, ECONOMY);
  const page = await pageAs('admin');
  await page.goto(`/admin/economy?app=${appId}`);
  const table = page.getByRole('table', { name: 'Grant limits' });
  // The defaults, shown for every currency and for every other one.
  await expect(table.getByRole('row', { name: /Gems/ })).toContainText('1,000(default)', { timeout: 30_000 });
  await expect(table.getByRole('row', { name: /Gems/ })).toContainText('5,000(default)');
  await expect(table.getByRole('row', { name: /Every other currency/ })).toContainText('1,000(default)');
  await expect(page.getByText('Defaults: 1,000 per grant and 5,000 per day.', { exact: false })).toBeVisible();

  await table.getByRole('button', { name: 'Actions for the grant limits of Gems' }).click();
  await page.getByRole('menuitem', { name: 'Edit limits' }).click();
  const dialog = page.getByRole('dialog', { name: 'Grant limits of Gems' });
  await expect(dialog.getByRole('textbox', { name: 'Per grant' })).toHaveAttribute('placeholder', '1,000 (default)');
  // A bad value: refused under its field by the API's own schema, nothing sent.
  await dialog.getByRole('textbox', { name: 'Per grant' }).fill('0');
  await dialog.getByRole('button', { name: 'Save limits' }).click();
  await expect(dialog.getByTestId('grant-limit-perGrant-error')).toHaveText('at least 1 (null: no limit)');
  await expect(dialog.getByRole('textbox', { name: 'Per grant' })).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByTestId('grant-limit-perStaffPerDay-error')).toHaveCount(0);
  await dialog.getByRole('textbox', { name: 'Per grant' }).fill('2.5');
  await dialog.getByRole('button', { name: 'Save limits' }).click();
  await expect(dialog.getByTestId('grant-limit-perGrant-error')).toHaveText('a whole amount, or null for no limit');
  await expectAccessible(page, 'grant limit dialog with an error', '[role=dialog]');
  expect((await (await request.get('/api/admin/apps', { headers: ADMIN_HEADERS })).json()).apps.find((a: { id: string }) => a.id === appId).grantLimits).toBeNull();

  await dialog.getByRole('textbox', { name: 'Per grant' }).fill('500');
  await dialog.getByRole('checkbox', { name: 'No limit (per staff member per day)' }).check();
  await expect(dialog.getByRole('textbox', { name: 'Per staff member per day' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Save limits' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(table.getByRole('row', { name: /Gems/ })).toContainText('500');
  await expect(table.getByRole('row', { name: /Gems/ })).toContainText('No limit');

  // Every other currency: 200 per grant; Coins (no entry of its own) now shows it as inherited.
  await table.getByRole('button', { name: 'Actions for the grant limits of every other currency' }).click();
  await page.getByRole('menuitem', { name: 'Edit limits' }).click();
  await page.getByRole('dialog').getByRole('textbox', { name: 'Per grant' }).fill('200');
  await page.getByRole('dialog').getByRole('button', { name: 'Save limits' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(table.getByRole('row', { name: /Coins/ })).toContainText('200(from every other currency)');

  const apps = (await (await request.get('/api/admin/apps', { headers: ADMIN_HEADERS })).json()).apps as { id: string; grantLimits: unknown }[];
  expect(apps.find((a) => a.id === appId)?.grantLimits).toEqual({ gems: { perGrant: 500, perStaffPerDay: null }, '*': { perGrant: 200 } });

  await page.mouse.move(0, 0);
  await expectAccessible(page, 'economy screen with grant limits');
  await page.evaluate(() => document.fonts.ready);
  await page.getByRole('region', { name: 'Grant limits (support role)' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(DIR, 'economy-grant-limits-light.png'), caret: 'hide', animations: 'disabled', fullPage: true });

  // An editor reads the limits but gets no way to change them (an app setting: admins).
  const editor = await pageAs('editor');
  await editor.goto(`/admin/economy?app=${appId}`);
  const editorTable = editor.getByRole('table', { name: 'Grant limits' });
  await expect(editorTable.getByRole('row', { name: /Gems/ })).toContainText('500', { timeout: 30_000 });
  await expect(editorTable.getByRole('button', { name: /Actions for the grant limits/ })).toHaveCount(0);
});

test('the mission editor’s reward is a picker of the defined currencies, items and badges', async ({ pageAs, request }) => {
  const appId = `eco-picker-${uniqueSuffix()}`;
  await createApp(request, appId, `Picker ${appId}`, ECONOMY);
  const page = await pageAs('editor');
  await page.goto(`/admin/missions/new?app=${appId}`);
  await expect(page.getByRole('heading', { name: 'New mission', level: 1 })).toBeVisible();
  await page.getByLabel('Title', { exact: true }).fill('Win 3 matches');
  await page.getByLabel('Event name', { exact: true }).fill('match_won');
  await page.getByLabel('Count', { exact: true }).fill('3');

  // Currency: the two defined currencies, name and id; nothing typed.
  const currency = page.getByRole('combobox', { name: 'Currency', exact: true });
  await currency.scrollIntoViewIfNeeded();
  await currency.click();
  await expect(page.getByRole('option')).toHaveText([/^Coins\s*coins$/, /^Gems\s*gems$/]);
  await expectAccessible(page, 'reward currency picker open', '[role=listbox]');
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: path.join(DIR, 'mission-reward-picker-light.png'), caret: 'hide', animations: 'disabled' });
  await page.getByRole('option', { name: /Gems/ }).click();
  await expect(currency).toHaveText(/Gems\s*gems/);
  await page.getByLabel('Amount', { exact: true }).fill('100');
  await expect(page.getByRole('region', { name: 'Player preview' })).toContainText('100 gems');

  // Badge: only the badges.
  const kind = page.getByRole('combobox', { name: 'Reward kind' });
  await kind.click();
  await page.getByRole('option', { name: 'Badge' }).click();
  const badge = page.getByRole('combobox', { name: 'Badge', exact: true });
  await badge.click();
  await expect(page.getByRole('option')).toHaveText([/^Winter badge\s*winter-badge$/]);
  await page.keyboard.press('Escape');
  await kind.click();
  await page.getByRole('option', { name: 'Item' }).click();
  await pickEconomy(page, page.getByRole('combobox', { name: 'Item', exact: true }), 'golden-sword');
  await page.getByRole('button', { name: 'Save to draft' }).click();
  await expect(page).toHaveURL(/\/admin\/missions\?app=/);
  const draft = await (await request.get(`/api/admin/apps/${appId}/draft`, { headers: ADMIN_HEADERS })).json();
  expect(draft.catalog.missions).toEqual([expect.objectContaining({ id: 'win-3-matches', reward: expect.objectContaining({ kind: 'item', itemId: 'golden-sword' }) })]);

  // An app that defines nothing: the field says so and links to the Economy screen.
  const bare = `eco-bare-${uniqueSuffix()}`;
  await createApp(request, bare, `Bare ${bare}`);
  await page.goto(`/admin/missions/new?app=${bare}`);
  const empty = page.getByTestId('economy-picker-empty');
  await expect(empty).toHaveText(`Bare ${bare} defines no currencies yet. Define them on the Economy screen.`);
  await expect(empty.getByRole('link', { name: 'Define them on the Economy screen' })).toHaveAttribute('href', `/admin/economy?app=${bare}`);
  await expectAccessible(page, 'mission editor of an app without currencies');
});
