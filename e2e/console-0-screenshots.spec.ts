// Screenshots of the main screens, light and dark, for the README. Named to
// run first (Playwright runs files in name order), so the lists show the
// showcase data made here rather than what other specs create. On the
// embedded pass (a fresh database) they go to docs/screenshots/; on a shared
// database (DATABASE_URL set) to test-results/screenshots/ only.
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { ADMIN_HEADERS, expect, test } from './fixtures';

const DIR = process.env.DATABASE_URL ? path.join('test-results', 'screenshots') : path.join('docs', 'screenshots');
const SHOWCASE_APPS = [
  { id: 'star-raiders', name: 'Star Raiders' },
  { id: 'moonfall', name: 'Moonfall Tactics' },
];

async function shoot(page: Page, name: string, scheme: string): Promise<void> {
  // Fonts and transitions settled, no caret blinking in the picture.
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(250);
  await page.screenshot({ path: path.join(DIR, `${name}-${scheme}.png`), caret: 'hide', animations: 'disabled' });
}

test.beforeAll(async ({ request }, testInfo) => {
  // Once, under `npm start`: the pages are the same Next.js pages under both servers.
  test.skip(testInfo.project.name !== 'npm start', 'taken under npm start');
  for (const app of SHOWCASE_APPS) {
    const res = await request.post('/api/admin/apps', { headers: ADMIN_HEADERS, data: app });
    expect([201, 409]).toContain(res.status());
  }
  // One app in a webhook-secret grace period, so the Apps screen shows that state too.
  const rotated = await request.post('/api/admin/apps/star-raiders/rotate-webhook-secret', { headers: ADMIN_HEADERS, data: {} });
  expect(rotated.status()).toBe(200);
});

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`${colorScheme}`, () => {
    test.use({ colorScheme, viewport: { width: 1440, height: 900 } });

    test(`public pages (${colorScheme})`, async ({ page }) => {
      await page.goto('/');
      await shoot(page, 'home', colorScheme);
      await page.goto('/admin/sign-in');
      await expect(page.getByLabel('Email')).toBeFocused();
      await shoot(page, 'sign-in', colorScheme);
      await page.goto('/docs');
      await expect(page.getByRole('heading', { name: 'Questline API', level: 1 })).toBeVisible({ timeout: 20_000 });
      await shoot(page, 'api-reference', colorScheme);
    });

    test(`console screens (${colorScheme})`, async ({ pageAs }) => {
      const page = await pageAs('admin');
      await page.goto('/admin?app=demo');
      await expect(page.getByRole('listitem').filter({ hasText: 'First match' })).toBeVisible();
      await shoot(page, 'dashboard', colorScheme);

      await page.goto('/admin/apps');
      await expect(page.getByRole('row').filter({ hasText: 'Star Raiders' })).toBeVisible();
      await shoot(page, 'apps', colorScheme);
      await page.getByRole('button', { name: 'Actions for Moonfall Tactics (moonfall)' }).click();
      await page.getByRole('menuitem', { name: 'Rotate app secret' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Rotate secret' }).click();
      await expect(page.getByRole('dialog', { name: /New app secret/ })).toBeVisible();
      await shoot(page, 'apps-secret-once', colorScheme);
      await page.keyboard.press('Escape');

      await page.goto('/admin/staff');
      await expect(page.getByRole('row').filter({ hasText: 'Priya Shah' })).toBeVisible();
      await shoot(page, 'staff', colorScheme);
    });
  });
}

/**
 * A player of its own app (created after the Apps picture) with progress, a
 * claim, and an event that failed a filter, for the Inspector's pictures.
 */
async function inspectorShowcase(request: APIRequestContext): Promise<{ userId: string; failedEventId: string }> {
  expect([201, 409]).toContain((await request.post('/api/admin/apps', { headers: ADMIN_HEADERS, data: { id: 'nova-league', name: 'Nova League' } })).status());
  const catalog = {
    missions: [
      { id: 'ranked-streak', title: 'Win 3 ranked matches', criteria: { eventName: 'match.won', count: 3, window: 'lifetime', filter: { mode: 'ranked' } }, reward: { kind: 'currency', currency: 'credits', amount: 150 } },
      { id: 'first-boss', title: 'Defeat the first boss', criteria: { eventName: 'boss.defeated', count: 1, window: 'lifetime' }, reward: { kind: 'currency', currency: 'credits', amount: 50 } },
      { id: 'veteran', title: 'Veteran pilot', criteria: { eventName: 'match.won', count: 10, window: 'lifetime' }, reward: { kind: 'badge', badgeId: 'veteran' }, prerequisites: ['ranked-streak'] },
    ],
  };
  expect((await request.put('/api/admin/apps/nova-league/catalog', { headers: ADMIN_HEADERS, data: catalog })).status()).toBe(200);
  const secret = await request.post('/api/admin/apps/nova-league/rotate-secret', { headers: ADMIN_HEADERS });
  const { appSecret } = await secret.json();
  const userId = `pilot-${Date.now().toString(36)}`;
  const { accessToken } = await (await request.post('/v1/auth/token', { data: { appId: 'nova-league', appSecret, userId } })).json();
  const auth = { Authorization: `Bearer ${accessToken}` };
  const send = async (name: string, payload: Record<string, unknown>) =>
    (await (await request.post('/v1/events', { headers: auth, data: { userId, name, payload, timestamp: Date.now() } })).json()) as { eventId: string };
  await send('boss.defeated', { boss: 'warden' });
  expect((await request.post('/v1/missions/first-boss/claim', { headers: auth })).status()).toBe(200);
  await send('match.won', { mode: 'ranked', map: 'nebula' });
  const failed = await send('match.won', { mode: 'casual', map: 'asteroids' });
  return { userId, failedEventId: failed.eventId };
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`inspector (${colorScheme})`, async ({ pageAs, request }) => {
    const { userId, failedEventId } = await inspectorShowcase(request);
    const page = await pageAs('support');
    await page.setViewportSize({ width: 1440, height: 1100 });
    await page.emulateMedia({ colorScheme });
    await page.goto(`/admin/inspector?app=nova-league&user=${userId}`);
    await expect(page.getByTestId('live-state')).toHaveText('Live', { timeout: 15_000 });
    const row = page.locator(`[data-event="${failedEventId}"]`);
    await row.locator('summary').click();
    await expect(row).toContainText('Filter “mode” did not match');
    await shoot(page, 'inspector', colorScheme);
  });
}

test('a laptop screen (1280 × 800)', async ({ pageAs }) => {
  const page = await pageAs('editor');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/admin?app=demo');
  await expect(page.getByRole('listitem').filter({ hasText: 'First match' })).toBeVisible();
  await shoot(page, 'dashboard-editor-laptop', 'light');
});
