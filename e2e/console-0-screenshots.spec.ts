// Screenshots of the main screens, light and dark, for the docs (the live-ops guide, docs/live-ops.md). Named to
// run first (Playwright runs files in name order), so the lists show the
// showcase data made here rather than what other specs create. On the
// embedded pass (a fresh database) they go to docs/screenshots/; on a shared
// database (DATABASE_URL set) to test-results/screenshots/ only.
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { ADMIN_HEADERS, expect, inBothSchemes, test } from './fixtures';
import { BANNER_URL } from './banner';

const DIR = process.env.DATABASE_URL ? path.join('test-results', 'screenshots') : path.join('docs', 'screenshots');
const SHOWCASE_APPS = [
  { id: 'star-raiders', name: 'Star Raiders' },
  { id: 'moonfall', name: 'Moonfall Tactics' },
];

/** Pages outside the root layout: the API reference (Scalar) marks its scheme on <body>, not <html>. */
const NO_THEME_CLASS = new Set(['api-reference']);

async function shoot(page: Page, name: string, scheme: string, fullPage = false): Promise<void> {
  // Fonts and transitions settled, no caret blinking in the picture.
  await page.evaluate(() => document.fonts.ready);
  // The page follows the emulated scheme (a page that ignored it once gave a light "dark" picture).
  if (!NO_THEME_CLASS.has(name)) await expect(page.locator('html')).toHaveClass(scheme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
  await page.waitForTimeout(250);
  await page.screenshot({ path: path.join(DIR, `${name}-${scheme}.png`), caret: 'hide', animations: 'disabled', fullPage });
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
  await sendShowcaseActivity(request);
});

/** Star Raiders' catalog and some players' events and claims through /v1, for the Dashboard's charts. */
async function sendShowcaseActivity(request: APIRequestContext): Promise<void> {
  const put = await request.put('/api/admin/apps/star-raiders/catalog', {
    headers: ADMIN_HEADERS,
    data: {
      missions: [
        { id: 'first-flight', title: 'First flight', criteria: { eventName: 'launch', count: 1 }, reward: { kind: 'currency', currency: 'credits', amount: 100 } },
        { id: 'ace-pilot', title: 'Ace pilot', criteria: { eventName: 'enemy_down', count: 3 }, reward: { kind: 'currency', currency: 'credits', amount: 250 } },
        { id: 'salvager', title: 'Salvager', criteria: { eventName: 'salvage', count: 2 }, reward: { kind: 'currency', currency: 'crystals', amount: 5 } },
        { id: 'daily-patrol', title: 'Daily patrol', criteria: { eventName: 'launch', count: 2, window: 'daily' }, reward: { kind: 'badge', badgeId: 'patrol' } },
      ],
    },
  });
  expect(put.status()).toBe(200);
  // The secret is shown once: a new one for this run (the showcase app has no other client).
  const { appSecret } = (await (await request.post('/api/admin/apps/star-raiders/rotate-secret', { headers: ADMIN_HEADERS })).json()) as { appSecret: string };
  const plan: Array<[string, string[], string[]]> = [
    ['nova', ['launch', 'launch', 'enemy_down', 'enemy_down', 'enemy_down', 'salvage', 'salvage'], ['first-flight', 'ace-pilot', 'salvager', 'daily-patrol']],
    ['orion', ['launch', 'enemy_down', 'enemy_down', 'enemy_down', 'salvage'], ['first-flight', 'ace-pilot']],
    ['vega', ['launch', 'launch', 'salvage', 'salvage', 'dock'], ['first-flight', 'salvager']],
    ['lyra', ['launch', 'enemy_down', 'dock', 'dock'], ['first-flight']],
    ['cass', ['launch', 'launch', 'enemy_down'], []],
  ];
  for (const [userId, names, claims] of plan) {
    const token = await request.post('/v1/auth/token', { data: { appId: 'star-raiders', appSecret, userId } });
    expect(token.status()).toBe(200);
    const auth = { Authorization: `Bearer ${((await token.json()) as { accessToken: string }).accessToken}` };
    for (const name of names) expect((await request.post('/v1/events', { headers: auth, data: { userId, name, payload: {}, timestamp: Date.now() } })).status()).toBe(200);
    // 409 on a rerun against the same database: claimed then.
    for (const id of claims) expect([200, 409]).toContain((await request.post(`/v1/missions/${id}/claim`, { headers: auth })).status());
  }
}

test.describe('screens', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test(`public pages`, async ({ page }) => {
    await page.goto('/');
    await inBothSchemes(page, async (colorScheme) => {
      await shoot(page, 'home', colorScheme);
    });
    await page.goto('/admin/sign-in');
    await expect(page.getByLabel('Email')).toBeFocused();
    await inBothSchemes(page, async (colorScheme) => {
      await shoot(page, 'sign-in', colorScheme);
    });
    await page.goto('/docs');
    await expect(page.getByRole('heading', { name: 'Questline API', level: 1 })).toBeVisible({ timeout: 20_000 });
    await inBothSchemes(page, async (colorScheme) => {
      await shoot(page, 'api-reference', colorScheme);
    });
  });

  test(`console screens`, async ({ pageAs }) => {
    const page = await pageAs('admin');
    await page.goto('/admin?app=star-raiders');
    await expect(page.getByRole('img', { name: /^Events per minute/ }).locator('.recharts-area-area')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('listitem').filter({ hasText: 'Ace pilot' })).toBeVisible();
    await inBothSchemes(page, async (colorScheme) => {
      await shoot(page, 'dashboard', colorScheme);
    });
    await expect(page.getByRole('table', { name: 'Currency granted' })).toBeVisible();
    await inBothSchemes(page, async (colorScheme) => {
      await shoot(page, 'dashboard-full', colorScheme, true);
    });

    await page.goto('/admin/apps');
    await expect(page.getByRole('row').filter({ hasText: 'Star Raiders' })).toBeVisible();
    await inBothSchemes(page, async (colorScheme) => {
      await shoot(page, 'apps', colorScheme);
    });
    await page.getByRole('button', { name: 'Actions for Moonfall Tactics (moonfall)' }).click();
    await page.getByRole('menuitem', { name: 'Rotate app secret' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Rotate secret' }).click();
    await expect(page.getByRole('dialog', { name: /New app secret/ })).toBeVisible();
    await inBothSchemes(page, async (colorScheme) => {
      await shoot(page, 'apps-secret-once', colorScheme);
    });
    await page.keyboard.press('Escape');

    await page.goto('/admin/staff');
    await expect(page.getByRole('row').filter({ hasText: 'Priya Shah' })).toBeVisible();
    await inBothSchemes(page, async (colorScheme) => {
      await shoot(page, 'staff', colorScheme);
    });

    // Star Raiders' missions: live ones, the Solar Cup's scheduled one, and a reward the draft raises
    // (marked Draft, the live one beside it); the draft is discarded after, for the pictures below.
    const origin = new URL(page.url()).origin;
    const draftPath = '/api/admin/apps/star-raiders/draft';
    const raised = await page.request.put(`${draftPath}/missions/ranked-wins`, {
      headers: { Origin: origin },
      data: { id: 'ranked-wins', title: 'Win 3 ranked matches', campaignId: 'launch-week', criteria: { eventName: 'match_won', count: 3, filter: { mode: 'ranked' } }, reward: { kind: 'currency', currency: 'gems', amount: 120 } },
    });
    expect(raised.status(), await raised.text()).toBe(200);
    await page.goto('/admin/missions?app=star-raiders');
    await expect(page.getByRole('row').filter({ hasText: 'Enter the Solar Cup' })).toContainText('Scheduled');
    await expect(page.getByRole('row').filter({ hasText: 'Win 3 ranked matches' })).toContainText('Live: 50 gems');
    // Campaign titles come from their own request: until it answers, the column shows the campaign's id.
    await expect(page.getByRole('row').filter({ hasText: 'Launch Week' }).first()).toBeVisible();
    await inBothSchemes(page, async (colorScheme) => {
      await shoot(page, 'missions', colorScheme);
    });
    expect((await page.request.delete(draftPath, { headers: { Origin: origin } })).status()).toBe(204);
    await page.goto('/admin/missions/edit?app=demo&id=ranked-ace');
    await expect(page.getByLabel('Filter 2 value')).toHaveValue('1000');
    await inBothSchemes(page, async (colorScheme) => {
      await shoot(page, 'mission-editor', colorScheme);
    });

    // A signed-in edit, so the audit log shows a person and a diff.
    const path = '/api/admin/apps/star-raiders/missions';
    const created = await page.request.post(path, {
      headers: { Origin: origin },
      data: { id: 'asteroid-run', title: 'Asteroid run', criteria: { eventName: 'asteroid_destroyed', count: 25, window: 'daily' }, reward: { kind: 'currency', currency: 'credits', amount: 100 } },
    });
    expect([201, 409]).toContain(created.status());
    // Back to the first version when an earlier run changed it, then the change the picture shows.
    const baseline = { title: 'Asteroid run', criteria: { eventName: 'asteroid_destroyed', count: 25, window: 'daily' } };
    let current = await (await page.request.get(`${path}/asteroid-run`)).json();
    if (current.title !== baseline.title) {
      const reset = await page.request.put(`${path}/asteroid-run`, { headers: { Origin: origin }, data: { ...current, ...baseline } });
      expect(reset.status()).toBe(200);
      current = await reset.json();
    }
    const updated = await page.request.put(`${path}/asteroid-run`, {
      headers: { Origin: origin },
      data: { ...current, title: 'Asteroid sweep', criteria: { ...current.criteria, count: 30, filter: { sector: { in: ['alpha', 'beta'] } } } },
    });
    expect(updated.status()).toBe(200);
    await page.goto('/admin/audit');
    const row = page.getByRole('row').filter({ hasText: 'mission.update' }).first();
    await expect(row).toBeVisible();
    await inBothSchemes(page, async (colorScheme) => {
      await shoot(page, 'audit-log', colorScheme);
    });
    await row.getByRole('button', { name: /^Changes of/ }).click();
    await expect(page.getByRole('dialog').getByRole('table', { name: 'Changes' })).toBeVisible();
    await inBothSchemes(page, async (colorScheme) => {
      await shoot(page, 'audit-diff', colorScheme);
    });

    await page.goto('/admin/campaigns?app=star-raiders');
    await expect(page.getByRole('list', { name: 'Campaign timeline' }).getByText('Winter Thaw')).toBeVisible();
    await inBothSchemes(page, async (colorScheme) => {
      await shoot(page, 'campaigns', colorScheme);
    });
    await page.getByRole('button', { name: 'Actions for campaign Launch Week' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const campaignForm = page.getByRole('dialog', { name: 'Edit campaign “Launch Week”' });
    await expect.poll(() => campaignForm.getByTestId('campaign-card-preview').locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await inBothSchemes(page, async (colorScheme) => {
      await shoot(page, 'campaign-form', colorScheme);
    });
    await page.keyboard.press('Escape');

    await page.goto('/admin/themes?app=star-raiders');
    await expect(page.getByRole('row').filter({ hasText: 'Solar flare' })).toBeVisible();
    await inBothSchemes(page, async (colorScheme) => {
      await shoot(page, 'themes', colorScheme);
    });
    await page.getByRole('button', { name: 'Actions for theme Nebula' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await expect(page.getByRole('dialog', { name: 'Edit theme “Nebula”' })).toBeVisible();
    await inBothSchemes(page, async (colorScheme) => {
      await shoot(page, 'theme-form', colorScheme);
    });
    await page.keyboard.press('Escape');
  });
});

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

test(`inspector`, async ({ pageAs, request }) => {
  const { userId, failedEventId } = await inspectorShowcase(request);
  const page = await pageAs('support');
  await page.setViewportSize({ width: 1440, height: 1100 });
  await page.goto(`/admin/inspector?app=nova-league&user=${userId}`);
  await expect(page.getByTestId('live-state')).toHaveText('Live', { timeout: 30_000 });
  const row = page.locator(`[data-event="${failedEventId}"]`);
  await row.locator('summary').click();
  await expect(row).toContainText('Filter “mode” did not match');
  await inBothSchemes(page, async (colorScheme) => {
    await shoot(page, 'inspector', colorScheme);
  });
});

test('a laptop screen (1280 × 800)', async ({ pageAs }) => {
  const page = await pageAs('editor');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/admin?app=demo');
  await expect(page.getByRole('listitem').filter({ has: page.getByText('First match', { exact: true }) })).toBeVisible();
  await shoot(page, 'dashboard-editor-laptop', 'light');
});
