// The Staff screen: an admin adds a member (generated password shown once),
// changes the role, and removes the member; each takes effect for that member.
import { expect, signInState, test, uniqueSuffix } from './fixtures';

test('an admin adds a staff member, changes the role, and removes the member', async ({ pageAs, baseURL, browser }) => {
  const page = await pageAs('admin');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const email = `jordan-${uniqueSuffix()}@studio.test`;
  await page.goto('/admin/staff');
  await expect(page.getByRole('heading', { name: 'Staff', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Add staff' }).click();
  const form = page.getByRole('dialog', { name: 'Add a staff member' });
  await form.getByLabel('Name').fill('Jordan Lee');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Role').click();
  await page.getByRole('option', { name: 'Support' }).click();
  await expect(form.getByText('Reads everything, finds and inspects players')).toBeVisible();
  await form.getByRole('button', { name: 'Add staff member' }).click();

  const shown = page.getByRole('dialog', { name: 'Jordan Lee can sign in' });
  await expect(shown.getByText('Shown only once')).toBeVisible();
  const password = (await shown.getByTestId('secret-value').textContent())!.trim();
  await shown.getByRole('button', { name: 'Copy Password' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);
  await shown.getByRole('button', { name: /Done/ }).click();
  await expect(page.getByText(password)).toHaveCount(0);

  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Support');
  const asJordan = await browser.newContext({ baseURL, storageState: await signInState(baseURL!, email, password) });
  expect(await (await asJordan.request.get('/api/admin/me')).json()).toMatchObject({ role: 'support', staff: { email } });

  await row.getByRole('button', { name: `Actions for ${email}` }).click();
  await page.getByRole('menuitem', { name: 'Change role' }).click();
  const roleDialog = page.getByRole('dialog', { name: 'Change the role of Jordan Lee' });
  await roleDialog.getByLabel('Role').click();
  await page.getByRole('option', { name: 'Editor' }).click();
  await roleDialog.getByRole('button', { name: 'Save role' }).click();
  await expect(roleDialog).toBeHidden();
  await expect(row).toContainText('Editor');
  // Their very next request has the new role; no new sign-in needed.
  expect((await (await asJordan.request.get('/api/admin/me')).json()).role).toBe('editor');

  await row.getByRole('button', { name: `Actions for ${email}` }).click();
  await page.getByRole('menuitem', { name: 'Remove' }).click();
  await page.getByRole('alertdialog', { name: 'Remove Jordan Lee?' }).getByRole('button', { name: 'Remove' }).click();
  await expect(row).toHaveCount(0);
  expect((await asJordan.request.get('/api/admin/me')).status()).toBe(401);
  await asJordan.close();
});

test('an admin cannot remove their own account from the Staff screen', async ({ pageAs }) => {
  const page = await pageAs('admin');
  await page.goto('/admin/staff');
  const self = page.getByRole('row').filter({ hasText: '(you)' });
  await self.getByRole('button', { name: /Actions for/ }).click();
  await expect(page.getByRole('menuitem', { name: 'Remove' })).toHaveAttribute('aria-disabled', 'true');
});
