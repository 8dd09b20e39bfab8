// Screenshots of the main screens, light and dark, for the README. Named to
// run first (Playwright runs files in name order), so the lists show the
// showcase data made here rather than what other specs create. On the
// embedded pass (a fresh database) they go to docs/screenshots/; on a shared
// database (DATABASE_URL set) to test-results/screenshots/ only.
import path from 'node:path';
import type { Page } from '@playwright/test';
import { ADMIN_HEADERS, expect, test } from './fixtures';
import { BANNER_URL } from './banner';

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
  // Themes and campaigns of every phase for the Themes and Campaigns screens (a PUT upserts: reruns are fine).
  const day = 86_400_000;
  const now = Date.now();
  const catalog = await request.put('/api/admin/apps/star-raiders/catalog', {
    headers: ADMIN_HEADERS,
    data: {
      themes: [
        { id: 'nebula', name: 'Nebula', primaryColor: '#7c3aed', accentColor: '#f59e0b', backgroundColor: '#1e1b4b', textColor: '#f8fafc' },
        { id: 'solar-flare', name: 'Solar flare', primaryColor: '#c2410c', accentColor: '#facc15' },
        { id: 'deep-ice', name: 'Deep ice', primaryColor: '#0e7490', backgroundColor: '#ecfeff', textColor: '#083344' },
      ],
      campaigns: [
        { id: 'launch-week', title: 'Launch Week', description: 'Win ranked matches for a limited-time skin.', startAt: now - 3 * day, endAt: now + 4 * day, themeId: 'nebula', bannerUrl: BANNER_URL },
        { id: 'solar-cup', title: 'Solar Cup', description: 'A weekend tournament.', startAt: now + 6 * day, endAt: now + 9 * day, themeId: 'solar-flare', bannerUrl: '' },
        { id: 'winter-thaw', title: 'Winter Thaw', description: 'Daily quests while the ice melts.', startAt: now - 20 * day, endAt: now - 8 * day, themeId: 'deep-ice', bannerUrl: '' },
        { id: 'founders', title: 'Founders’ Month', description: 'Thanks for being here early.', startAt: now - 10 * day, endAt: now + 20 * day, theme: { primaryColor: '#15803d' }, bannerUrl: '' },
      ],
      missions: [
        { id: 'ranked-wins', title: 'Win 3 ranked matches', campaignId: 'launch-week', criteria: { eventName: 'match_won', count: 3, filter: { mode: 'ranked' } }, reward: { kind: 'currency', currency: 'gems', amount: 50 } },
        { id: 'daily-play', title: 'Play a match today', campaignId: 'founders', criteria: { eventName: 'match_played', count: 1, window: 'daily' }, reward: { kind: 'currency', currency: 'coins', amount: 20 } },
        { id: 'cup-entry', title: 'Enter the Solar Cup', campaignId: 'solar-cup', criteria: { eventName: 'tournament_joined', count: 1 }, reward: { kind: 'badge', badgeId: 'solar-cup' } },
      ],
    },
  });
  expect(catalog.status()).toBe(200);
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

      await page.goto('/admin/campaigns?app=star-raiders');
      await expect(page.getByRole('list', { name: 'Campaign timeline' }).getByText('Winter Thaw')).toBeVisible();
      await shoot(page, 'campaigns', colorScheme);
      await page.getByRole('button', { name: 'Actions for campaign Launch Week' }).click();
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      const campaignForm = page.getByRole('dialog', { name: 'Edit campaign “Launch Week”' });
      await expect.poll(() => campaignForm.getByTestId('campaign-card-preview').locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      await shoot(page, 'campaign-form', colorScheme);
      await page.keyboard.press('Escape');

      await page.goto('/admin/themes?app=star-raiders');
      await expect(page.getByRole('row').filter({ hasText: 'Solar flare' })).toBeVisible();
      await shoot(page, 'themes', colorScheme);
      await page.getByRole('button', { name: 'Actions for theme Nebula' }).click();
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      await expect(page.getByRole('dialog', { name: 'Edit theme “Nebula”' })).toBeVisible();
      await shoot(page, 'theme-form', colorScheme);
      await page.keyboard.press('Escape');
    });
  });
}

test('a laptop screen (1280 × 800)', async ({ pageAs }) => {
  const page = await pageAs('editor');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/admin?app=demo');
  await expect(page.getByRole('listitem').filter({ hasText: 'First match' })).toBeVisible();
  await shoot(page, 'dashboard-editor-laptop', 'light');
});
