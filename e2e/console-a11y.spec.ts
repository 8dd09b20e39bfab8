// axe-core on every page this part of the console builds, light and dark (the
// page switched to dark at each check), with its dialogs open: no serious or
// critical violation.
import { expect, expectAccessible, inBothSchemes, test } from './fixtures';

// Once, under `npm start`: the pages are the same Next.js pages under both servers.
test.beforeAll(({}, testInfo) => test.skip(testInfo.project.name !== 'npm start', 'checked under npm start'));

test('public pages: home, walkthrough, sign-in', async ({ page }) => {
  for (const path of ['/', '/walkthrough', '/admin/sign-in']) {
    await page.goto(path);
    await expect(page.locator('h1')).toBeVisible();
    await inBothSchemes(page, async (colorScheme) => {
      await expectAccessible(page, `${colorScheme} ${path}`);
    });
  }
  // The sign-in page with its error showing.
  await page.getByLabel('Email').fill('nobody@studio.test');
  await page.getByLabel('Password').fill('wrong password 0000');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Wrong e-mail address or password')).toBeVisible();
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `${colorScheme} sign-in error`);
  });

  await page.goto('/docs');
  await expect(page.getByRole('heading', { name: 'Questline API', level: 1 })).toBeVisible({ timeout: 20_000 });
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `${colorScheme} /docs`, '#app');
  });
});

test('console pages and their dialogs (admin)', async ({ pageAs }) => {
  const page = await pageAs('admin');
  // The demo app: on a shared database the first app in the list may be another test's.
  await page.goto('/admin?app=demo');
  await expect(page.getByRole('listitem').filter({ has: page.getByText('First match', { exact: true }) })).toBeVisible();
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `${colorScheme} /admin`);
  });

  await page.goto('/admin/apps');
  await expect(page.getByRole('row').filter({ hasText: 'demo' })).toBeVisible();
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `${colorScheme} /admin/apps`);
  });
  await page.getByRole('button', { name: 'New app' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Create app' }).click();
  await expect(page.getByRole('dialog').getByText('Enter a name')).toBeVisible();
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `${colorScheme} new app dialog with errors`, '[role=dialog]');
  });
  await page.keyboard.press('Escape');

  await page.goto('/admin/staff');
  await expect(page.getByRole('row').filter({ hasText: '(you)' })).toBeVisible();
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `${colorScheme} /admin/staff`);
  });
  await page.getByRole('button', { name: 'Add staff' }).click();
  await expect(page.getByRole('dialog', { name: 'Add a staff member' })).toBeVisible();
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `${colorScheme} add staff dialog`, '[role=dialog]');
  });
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: /^Account:/ }).click();
  await expect(page.getByRole('menuitem', { name: 'Sign out' })).toBeVisible();
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `${colorScheme} account menu`, '[role=menu]');
  });
});

test('the page a role may not use', async ({ pageAs }) => {
  const page = await pageAs('editor');
  await page.goto('/admin/staff');
  await expect(page.getByRole('heading', { name: 'You don’t have access to Staff' })).toBeVisible();
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `${colorScheme} forbidden`);
  });
});
