// /docs: the API reference renders both OpenAPI documents with Scalar, from
// files this server serves (no CDN, no font or telemetry requests).
import { expect, expectAccessible, test } from './fixtures';

test('renders the public and admin API documents without reaching any other host', async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const elsewhere: string[] = [];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.origin !== origin && url.protocol.startsWith('http')) elsewhere.push(req.url());
  });
  await page.goto('/docs');
  await expect(page.getByRole('heading', { name: 'Questline API', level: 1 })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('Exchange an app secret for a one-hour JWT').first()).toBeVisible();

  // The admin document is one switch away.
  await page.getByRole('button', { name: /Public API \(\/v1\)/ }).first().click();
  await page.getByRole('option', { name: /Admin API/ }).click();
  await expect(page.getByRole('heading', { name: 'Questline admin API', level: 1 })).toBeVisible({ timeout: 20_000 });
  // Scalar opens the first tag group (apps); the others are collapsed.
  await expect(page.getByRole('heading', { name: 'Create an app; its secrets are answered this once', level: 3 })).toBeVisible();
  expect(elsewhere).toEqual([]);
});

test('the admin OpenAPI document is public and names each operation’s capability', async ({ request }) => {
  const res = await request.get('/api/admin/openapi.json');
  expect(res.status()).toBe(200);
  expect(res.headers()['access-control-allow-origin']).toBeUndefined();
  const doc = await res.json();
  expect(doc.paths['/api/admin/staff'].post.description).toContain('staff.manage');
  expect(doc.paths['/api/admin/apps'].get.description).toContain('apps.read (admin, editor, support)');
});

test('the home page links the console, the API reference and the walkthrough', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Give players goals');
  await page.getByRole('link', { name: /^Walkthrough/ }).click();
  await expect(page.getByRole('heading', { name: 'Walkthrough', level: 1 })).toBeVisible();
  await expect(page.locator('pre').first()).toContainText('/v1/auth/token');
  await page.goto('/');
  await page.getByRole('link', { name: 'Open the console' }).click();
  await expect(page).toHaveURL(/\/admin\/sign-in/);
  await page.goto('/');
  await page.getByRole('link', { name: 'Read the API reference' }).click();
  // The reference (Scalar) may already have put the first section in the hash (`/docs#v1`) when the URL is read.
  await expect(page).toHaveURL(/\/docs(#[\w-]*)?$/);
  await expectAccessible(page, '/docs', '#app');
});
