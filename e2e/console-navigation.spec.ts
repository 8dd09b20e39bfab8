// Every sidebar page, reached by clicking from a fresh sign-in, in the
// sidebar's order and in the reverse one: no error page, no uncaught error in
// the page, no console error and no failed request. The pages share one React
// Query cache, so a page opened after another reads what the other cached: the
// Campaigns page crashed ("e.map is not a function") when the Dashboard had
// cached the campaigns under the same key in another shape (issue 37), and
// every editing page logged a failed request (404 …/draft) for an app without
// a draft. Each walk's app has no draft.
import type { Page } from '@playwright/test';
import { createApp, ensureStaff, expect, STAFF_PASSWORD, test, uniqueSuffix } from './fixtures';

const DAY = 86_400_000;

/** The admin's sidebar, top to bottom (components/console/nav.ts); each page's heading is its entry's name. */
const SIDEBAR = ['Dashboard', 'Missions', 'Campaigns', 'Themes', 'Draft', 'Releases', 'Inspector', 'Audit log', 'Apps', 'Staff'];

/**
 * What went wrong on the page since it opened: uncaught errors, console
 * errors (a response of 400 or more shows there too), requests answered 400
 * or more and requests that failed; and how many requests are still open.
 */
function watch(page: Page) {
  const problems: string[] = [];
  const open = new Set<unknown>();
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()} (${msg.location().url})`);
  });
  page.on('request', (req) => open.add(req));
  page.on('requestfinished', (req) => open.delete(req));
  page.on('requestfailed', (req) => {
    open.delete(req);
    // A client navigation cancels the previous page's prefetches: not a failure of the page.
    if (req.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`request failed: ${req.method()} ${req.url()} (${req.failure()?.errorText})`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`${res.status()} ${res.request().method()} ${res.url()}`);
  });
  return { problems, open };
}

/** Signs in through the form (a fresh session: no cookie, nothing cached, nothing remembered) and picks the app in the switcher. */
async function signIn(page: Page, email: string, appId: string): Promise<void> {
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin\/sign-in\?next=%2Fadmin$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  // The switcher remembers the choice, so the pages without ?app= (Audit log, Apps, Staff) keep it for the next per-app link.
  await page.getByRole('combobox', { name: 'Selected app' }).click();
  await page.getByRole('option', { name: new RegExp(appId) }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]app=${appId}`));
  await expect(page.getByRole('combobox', { name: 'Selected app' })).toContainText(appId);
}

/** The page shows its heading, nothing is loading any more (no skeleton, no request open), and it is not an error page. */
async function settled(page: Page, name: string, open: Set<unknown>): Promise<void> {
  // The error page's heading is a level-1 one too ("This page couldn’t load"): a crash fails here, naming it.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(page.locator('[data-slot="skeleton"]')).toHaveCount(0);
  await expect.poll(() => open.size, { message: `requests still open on ${name}` }).toBe(0);
  await expect(page.getByText(/couldn.t load|Application error/i)).toHaveCount(0);
}

for (const order of ['sidebar order', 'reverse order'] as const) {
  test(`a fresh sign-in clicks through every sidebar page in ${order}: no error page, no page or console error, no failed request`, async ({ browser, request, baseURL }) => {
    const email = `nav-${uniqueSuffix()}@studio.test`;
    await ensureStaff(request, { email, name: 'Noa Navigator', role: 'admin', password: STAFF_PASSWORD });
    const appId = `nav-${uniqueSuffix()}`;
    const now = Date.now();
    // Something on every page: a campaign with a budget (the Dashboard's budgets card reads the campaigns too), its missions, a theme; no draft.
    await createApp(request, appId, `Navigation ${appId}`, {
      themes: [{ id: 'dusk', name: 'Dusk', primaryColor: '#5b3cc4' }],
      campaigns: [{ id: 'harvest', title: 'Harvest week', startAt: now - DAY, endAt: now + 7 * DAY, themeId: 'dusk', budget: [{ currency: 'coins', amount: 5000 }] }],
      missions: [
        { id: 'win-one', title: 'Win a match', campaignId: 'harvest', criteria: { eventName: 'match_won', count: 1 }, reward: { kind: 'currency', currency: 'coins', amount: 100 } },
        { id: 'log-in', title: 'Log in', criteria: { eventName: 'login', count: 1 }, reward: { kind: 'currency', currency: 'coins', amount: 10 } },
      ],
    });
    expect((await request.get(`/api/admin/apps/${appId}/draft`, { headers: { Authorization: 'Bearer e2e-admin-key-0123456789abcdef' } })).status()).toBe(404);

    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    const { problems, open } = watch(page);
    await signIn(page, email, appId);
    await settled(page, 'Dashboard', open);

    const nav = page.getByRole('navigation', { name: 'Console' });
    const pages = order === 'sidebar order' ? SIDEBAR.slice(1) : [...SIDEBAR].reverse();
    for (const name of pages) {
      await nav.getByRole('link', { name, exact: true }).click();
      await settled(page, name, open);
      expect(problems, `after clicking ${name} (${order})`).toEqual([]);
    }
    // The per-app pages kept the chosen app all along.
    await expect(page.getByRole('combobox', { name: 'Selected app' })).toContainText(appId);
    await context.close();
  });
}
