// Roles in the browser: the navigation shows what a role may use, pages it may
// not use say so (and load nothing), and the API behind them refuses it too.
import { expect, test } from './fixtures';

test('an editor sees no Apps or Staff entry, is refused those pages and their API', async ({ pageAs }) => {
  const page = await pageAs('editor');
  await page.goto('/admin');
  const nav = page.getByRole('navigation', { name: 'Console' });
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Apps' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Staff' })).toHaveCount(0);

  for (const [path, screen] of [
    ['/admin/apps', 'Apps'],
    ['/admin/staff', 'Staff'],
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: `You don’t have access to ${screen}` })).toBeVisible();
    await expect(page.getByText('Your role is Editor')).toBeVisible();
    // The screen itself never rendered: no list, no action.
    await expect(page.getByRole('table')).toHaveCount(0);
    await expect(page.getByRole('button', { name: /New app|Add staff/ })).toHaveCount(0);
  }

  const origin = new URL(page.url()).origin;
  const writes = { headers: { Origin: origin } };
  expect((await page.request.get('/api/admin/staff')).status()).toBe(403);
  expect((await page.request.post('/api/admin/staff', { ...writes, data: { email: 'x@studio.test', name: 'X', role: 'admin' } })).status()).toBe(403);
  expect((await page.request.post('/api/admin/apps', { ...writes, data: { id: 'editor-made', name: 'Nope' } })).status()).toBe(403);
  expect((await page.request.post('/api/admin/apps/demo/rotate-secret', writes)).status()).toBe(403);
  // What an editor may do still works.
  expect((await page.request.get('/api/admin/apps')).status()).toBe(200);
  expect((await page.request.get('/api/admin/apps/demo/catalog')).status()).toBe(200);
});

test('support reads the catalog but cannot edit it, and has no Apps or Staff entry', async ({ pageAs }) => {
  const page = await pageAs('support');
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your role: Support' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Console' });
  await expect(nav.getByRole('link', { name: 'Apps' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Staff' })).toHaveCount(0);

  const catalog = await page.request.get('/api/admin/apps/demo/catalog');
  expect(catalog.status()).toBe(200);
  const { missions } = await catalog.json();
  const origin = new URL(page.url()).origin;
  const put = await page.request.put('/api/admin/apps/demo/catalog', { headers: { Origin: origin }, data: { missions: [{ ...missions[0], title: 'Hijacked' }] } });
  expect(put.status()).toBe(403);
  expect((await put.json()).error).toBe('forbidden');
  const after = await (await page.request.get('/api/admin/apps/demo/catalog')).json();
  expect(after.missions[0].title).toBe(missions[0].title);
});

test('a cookie-authenticated write from another origin is refused', async ({ pageAs }) => {
  const page = await pageAs('admin');
  await page.goto('/admin');
  const res = await page.request.post('/api/admin/apps', { headers: { Origin: 'https://evil.example' }, data: { id: 'csrf-made', name: 'CSRF' } });
  expect(res.status()).toBe(403);
  const apps = await (await page.request.get('/api/admin/apps')).json();
  expect(apps.apps.map((a: { id: string }) => a.id)).not.toContain('csrf-made');
});
