// Shared fixtures of the console specs: one staff account per role (created
// with the admin key, idempotently), signed in once per worker through the
// real /api/auth route, and pages opened as that role from the saved cookies
// (storageState), so no spec pays for a UI sign-in it does not test.
import { test as base, expect, request as playwrightRequest, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import type { StaffRole } from '@/lib/auth/roles';

export { expect };

const ADMIN_KEY = 'e2e-admin-key-0123456789abcdef';
export const ADMIN_HEADERS = { Authorization: `Bearer ${ADMIN_KEY}` };
export const STAFF_PASSWORD = 'e2e staff password 0123';

export interface StaffAccount {
  role: StaffRole;
  email: string;
  name: string;
  password: string;
}

/** The people the screenshots show; fixed addresses so reruns on one database reuse them. */
const STAFF: Record<StaffRole, StaffAccount> = {
  admin: { role: 'admin', email: 'alex.morgan@studio.test', name: 'Alex Morgan', password: STAFF_PASSWORD },
  editor: { role: 'editor', email: 'priya.shah@studio.test', name: 'Priya Shah', password: STAFF_PASSWORD },
  support: { role: 'support', email: 'sam.rivera@studio.test', name: 'Sam Rivera', password: STAFF_PASSWORD },
};

type StorageState = Awaited<ReturnType<APIRequestContext['storageState']>>;

/** Creates the account unless it exists (409 from an earlier run on the same database). */
export async function ensureStaff(request: APIRequestContext, account: Omit<StaffAccount, 'password'> & { password?: string }): Promise<void> {
  const res = await request.post('/api/admin/staff', { headers: ADMIN_HEADERS, data: { email: account.email, name: account.name, role: account.role, password: account.password } });
  expect([201, 409], `create ${account.email}: ${await res.text()}`).toContain(res.status());
}

/** Signs in through POST /api/auth/sign-in/email (as the browser would) and answers the cookies. */
export async function signInState(baseURL: string, email: string, password: string): Promise<StorageState> {
  const context = await playwrightRequest.newContext({ baseURL });
  const res = await context.post('/api/auth/sign-in/email', { data: { email, password }, headers: { Origin: baseURL } });
  expect(res.status(), `sign in ${email}: ${await res.text()}`).toBe(200);
  const state = await context.storageState();
  await context.dispose();
  return state;
}

/**
 * No serious or critical accessibility violation on the page as it is now.
 * `within`: a selector to scan alone, for an open dialog or menu: Radix hides
 * the page behind a modal with aria-hidden while trapping focus in the modal,
 * which axe reports as focusable content inside aria-hidden (aria-hidden-focus).
 */
export async function expectAccessible(page: Page, label: string, within?: string): Promise<void> {
  // axe.run in the page itself (`setLegacyMode`): by default the builder runs
  // axe.runPartial in each frame and then axe.finishRun in a blank page it
  // opens for every scan, which took more than half of each scan's time
  // (34 scans of two specs: 113 s against 53 s, docs/engineering/reliability.md). What
  // it gives up is scanning cross-origin frames; the console and the docs
  // have no frames.
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).setLegacyMode();
  if (within) builder = builder.include(within);
  // Axe reads the colours the page settles on: a colour transition still running
  // (a colour-scheme switch, a hover) is cut to its end for the scan, then
  // allowed again. (Waiting for document.getAnimations() to finish was not
  // enough under load: axe still read frames of the switch to dark.)
  // Next.js streams a dynamic page's metadata after its first HTML: the title
  // may land a moment after the content. Wait for it (a page without one still
  // fails here), so axe's document-title rule reads the page as it settles.
  await expect(page, `the title of ${label}`).toHaveTitle(/\S/);
  const settle = await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; }' });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const results = await builder.analyze().finally(() => settle.evaluate((el) => (el as Element).remove()));
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = serious.map((v) => `${v.impact} ${v.id}: ${v.help}\n  ${v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`).join('\n  ')}`).join('\n');
  expect(report, `axe on ${label}`).toBe('');
}

/**
 * Runs `check` with the page in the light theme, then again with it switched
 * to dark, then puts light back: the console follows the system's colour
 * scheme live (components/console/theme.tsx), so one flow gives both themes'
 * axe checks and screenshots at the same moments instead of the whole flow
 * run twice. Each pass reads the page at rest: the pointer moved off the
 * element the test last clicked (a hovered row's or button's colours are not
 * what the page shows, and where the pointer rests after a list re-rendered
 * under it is a matter of timing), and the theme's colour transitions ended.
 */
export async function inBothSchemes(page: Page, check: (colorScheme: 'light' | 'dark') => Promise<void>): Promise<void> {
  const settled = () => page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  // The dark pass was a test of its own with its own time: the test's bound
  // (for a hang, not for speed) grows by a minute per check, or a long flow on
  // a loaded machine runs out of time with twice the scans (CI: the desk and
  // budgets flows at 120 s under CPU pressure 60-80 %).
  test.info().setTimeout(test.info().timeout + 60_000);
  await page.mouse.move(0, 0);
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await settled();
    await check(colorScheme);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await settled();
}

interface WorkerFixtures {
  staffStates: Record<StaffRole, StorageState>;
}

interface TestFixtures {
  /** A new page signed in as the role (its own browser context). */
  pageAs(role: StaffRole): Promise<Page>;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  staffStates: [
    async ({}, use, workerInfo) => {
      const baseURL = workerInfo.project.use.baseURL!;
      const api = await playwrightRequest.newContext({ baseURL });
      const states = {} as Record<StaffRole, StorageState>;
      for (const account of Object.values(STAFF)) {
        await ensureStaff(api, account);
        states[account.role] = await signInState(baseURL, account.email, account.password);
      }
      await api.dispose();
      await use(states);
    },
    { scope: 'worker' },
  ],
  pageAs: async ({ browser, staffStates, baseURL, colorScheme, viewport }, use) => {
    const contexts: Awaited<ReturnType<typeof browser.newContext>>[] = [];
    await use(async (role) => {
      const context = await browser.newContext({ baseURL, colorScheme, viewport, storageState: staffStates[role] });
      contexts.push(context);
      return context.newPage();
    });
    for (const context of contexts) await context.close();
  },
});

/** A unique id for things a spec creates. */
export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

export interface CreatedApp {
  appId: string;
  appSecret: string;
}

/** An app made with the admin key (as apps are: an admin screen), with `catalog` put when given. */
export async function createApp(request: APIRequestContext, appId: string, name: string, catalog?: Record<string, unknown>): Promise<CreatedApp> {
  const created = await request.post('/api/admin/apps', { headers: ADMIN_HEADERS, data: { id: appId, name } });
  expect(created.status(), await created.text()).toBe(201);
  const { appSecret } = (await created.json()) as { appSecret: string };
  if (catalog) {
    const put = await request.put(`/api/admin/apps/${appId}/catalog`, { headers: ADMIN_HEADERS, data: catalog });
    expect(put.status(), await put.text()).toBe(200);
  }
  return { appId, appSecret };
}

/**
 * Publishes the app's draft now as the staff member signed in on `page` (the
 * Draft page's "Publish now" makes the same call): the console's editors save
 * into the draft, so /v1 shows their changes only after this. Answers the release.
 */
export async function publishDraft(page: Page, appId: string): Promise<number> {
  const origin = new URL(page.url()).origin;
  const res = await page.request.post(`/api/admin/apps/${encodeURIComponent(appId)}/draft/publish`, { headers: { Origin: origin }, data: {} });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { release: number }).release;
}

/** A player's access token from POST /v1/auth/token, as a game backend gets it. */
export async function playerToken(request: APIRequestContext, app: CreatedApp, userId: string): Promise<string> {
  const res = await request.post('/v1/auth/token', { data: { appId: app.appId, appSecret: app.appSecret, userId } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

/** A datetime-local value in the browser's (and this machine's) time zone. */
export function localInput(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * Chooses `id` in an economy picker (components/console/economy-picker.tsx, a
 * select of the app's defined currencies, items or badges): opens it and
 * clicks the option of that id, as a person would.
 */
export async function pickEconomy(page: Page, picker: Locator, id: string): Promise<void> {
  await picker.click();
  await page.locator(`[role=option][data-economy-id="${id}"]`).click();
  await expect(picker).toContainText(id);
}
