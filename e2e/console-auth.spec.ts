// Staff sign-in in a real browser against `next start`: signed-out pages and
// API calls are refused, sign in (mouse and keyboard only) lands where the
// person was going, sign out ends the session.
import { ADMIN_HEADERS, ensureStaff, expect, STAFF_PASSWORD, test, uniqueSuffix } from './fixtures';

const CONSOLE_PAGES = ['/admin', '/admin/apps', '/admin/staff'];

test('every console page sends a signed-out visitor to the sign-in page, keeping the destination', async ({ page }) => {
  for (const path of CONSOLE_PAGES) {
    await page.goto(`${path}?app=demo`);
    await expect(page).toHaveURL((url) => url.pathname === '/admin/sign-in' && url.searchParams.get('next') === `${path}?app=demo`);
    await expect(page.getByRole('heading', { name: 'Sign in to Questline' })).toBeVisible();
  }
});

test('the admin API answers 401 to signed-out requests without the key, and works with the key', async ({ request }) => {
  const calls: [string, string][] = [
    ['GET', '/api/admin/me'],
    ['GET', '/api/admin/apps'],
    ['POST', '/api/admin/apps'],
    ['GET', '/api/admin/staff'],
    ['POST', '/api/admin/staff'],
    ['GET', '/api/admin/apps/demo/catalog'],
    ['POST', '/api/admin/apps/demo/rotate-secret'],
  ];
  for (const [method, url] of calls) {
    const res = await request.fetch(url, { method, data: method === 'POST' ? {} : undefined });
    expect(res.status(), `${method} ${url}`).toBe(401);
    expect((await res.json()).error).toBe('unauthorized');
  }
  expect((await request.get('/api/admin/me', { headers: ADMIN_HEADERS })).status()).toBe(200);
});

test('a staff member signs in with Email and Password, lands on the page they asked for, and signs out', async ({ page, request }) => {
  const email = `signin-${uniqueSuffix()}@studio.test`;
  await ensureStaff(request, { email, name: 'Robin Sign-in', role: 'admin', password: STAFF_PASSWORD });

  await page.goto('/admin/staff');
  await expect(page).toHaveURL(/\/admin\/sign-in\?next=%2Fadmin%2Fstaff$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('not the password 123');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Wrong e-mail address or password')).toBeVisible();

  await page.getByLabel('Password').fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/admin\/staff$/);
  await expect(page.getByRole('heading', { name: 'Staff', level: 1 })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Console' });
  await expect(nav.getByRole('link', { name: 'Staff' })).toHaveAttribute('aria-current', 'page');

  // The session cookie is HttpOnly and SameSite=Lax (no Secure flag over plain HTTP).
  const cookie = (await page.context().cookies()).find((c) => c.name === 'questline.session_token');
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false });

  // A click that lands before the shell has hydrated opens nothing: click again until the menu shows,
  // but never on a menu that is already open (a second click would close it again on a slow machine).
  const account = page.getByRole('button', { name: /^Account:.*Robin Sign-in/ });
  await expect(async () => {
    if ((await account.getAttribute('aria-expanded')) !== 'true') await account.click();
    await expect(page.getByRole('menuitem', { name: 'Sign out' })).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/admin\/sign-in$/);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin\/sign-in\?next=%2Fadmin$/);
  // The old cookie no longer works for the API either.
  const res = await page.request.get('/api/admin/me', { headers: { Cookie: `questline.session_token=${cookie!.value}` } });
  expect(res.status()).toBe(401);
});

test('sign-in works with the keyboard alone', async ({ page, request }) => {
  const email = `keyboard-${uniqueSuffix()}@studio.test`;
  await ensureStaff(request, { email, name: 'Kim Keyboard', role: 'support', password: STAFF_PASSWORD });
  await page.goto('/admin/sign-in');
  // The e-mail field has focus on arrival.
  await expect(page.getByLabel('Email')).toBeFocused();
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type(STAFF_PASSWORD);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
});

test('a signed-in visitor of the sign-in page goes straight to the console', async ({ pageAs }) => {
  const page = await pageAs('editor');
  await page.goto('/admin/sign-in?next=%2Fadmin');
  await expect(page).toHaveURL(/\/admin$/);
  // An outside `next` is ignored (no open redirect).
  await page.goto('/admin/sign-in?next=https%3A%2F%2Fevil.example%2F');
  await expect(page).toHaveURL(/\/admin$/);
});
