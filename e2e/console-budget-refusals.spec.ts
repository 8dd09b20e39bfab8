// Claims refused by a campaign's budget, in the console (issue 37, item 3):
// players claim through /v1 until the budget refuses (409 budget_exhausted),
// one of them retrying under the same Idempotency-Key (one claim, counted
// once); the Campaigns budget column and the dashboard's budget card say
// "2 claims refused since HH:MM" in the reader's time zone (a browser in
// Asia/Kolkata, UTC+05:30, so the minutes differ from UTC's), the dashboard's
// claims figure says how many were refused, and the inspector shows "Claim
// refused: the campaign's gems budget is spent" with the time on the refused
// player's mission, and nothing on a granted one's. Axe clean.
import type { APIRequestContext } from '@playwright/test';
import { ADMIN_HEADERS, createApp, expect, expectAccessible, playerToken, test, uniqueSuffix, type CreatedApp } from './fixtures';

const DAY = 86_400_000;
const ZONE = 'Asia/Kolkata';
const LOCALE = 'en-GB';

/** The console's formats (components/console/campaign-budget.tsx, format.ts), in the browser's zone and locale. */
const inZone = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(LOCALE, { ...options, timeZone: ZONE });
const sameDay = (a: number, b: number) => inZone({ dateStyle: 'short' }).format(a) === inZone({ dateStyle: 'short' }).format(b);
const since = (ms: number) =>
  sameDay(ms, Date.now()) ? inZone({ hour: '2-digit', minute: '2-digit' }).format(ms) : inZone({ month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }).format(ms);
const dateTime = (ms: number) => inZone({ year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' }).format(ms);

async function player(request: APIRequestContext, app: CreatedApp, userId: string) {
  const token = await playerToken(request, app, userId);
  const headers = { Authorization: `Bearer ${token}` };
  const event = await request.post('/v1/events', { headers, data: { userId, name: 'match_won', payload: {}, timestamp: Date.now() } });
  expect(event.status(), await event.text()).toBe(200);
  return async (missionId: string, key?: string) => {
    const res = await request.post(`/v1/missions/${missionId}/claim`, { headers: key ? { ...headers, 'Idempotency-Key': key } : headers });
    return { status: res.status(), error: ((await res.json()) as { error?: string }).error };
  };
}

test('budget refusals: counted once per claim, shown on the Campaigns budget column, the dashboard and the inspector in the reader’s zone', async ({ browser, staffStates, baseURL, request }) => {
  const appId = `refusals-${uniqueSuffix()}`;
  const now = Date.now();
  const app = await createApp(request, appId, `Refusals ${appId}`, {
    campaigns: [{ id: 'winter-festival', title: 'Winter festival', startAt: now - DAY, endAt: now + 14 * DAY, budget: [{ currency: 'gems', amount: 100 }] }],
    missions: [
      { id: 'win-three', title: 'Win three matches', campaignId: 'winter-festival', criteria: { eventName: 'match_won', count: 1 }, reward: { kind: 'currency', currency: 'gems', amount: 30 } },
    ],
  });
  const claims = [];
  for (let i = 0; i < 5; i++) claims.push(await player(request, app, `player-${i}`));
  for (const claim of claims.slice(0, 3)) expect((await claim('win-three')).status).toBe(200); // 90 of 100 gems
  // player-3 tries twice under one key (one claim), player-4 once: 2 claims refused.
  for (const [claim, key] of [[claims[3], 'retry-1'], [claims[3], 'retry-1'], [claims[4], undefined]] as const) {
    expect(await claim('win-three', key)).toEqual({ status: 409, error: 'budget_exhausted' });
  }
  const read = await request.get(`/api/admin/apps/${appId}/campaigns/winter-festival`, { headers: ADMIN_HEADERS });
  const refusals = ((await read.json()) as { campaign: { budgetRefusals: Array<{ currency: string; count: number; firstAt: number }> } }).campaign.budgetRefusals;
  expect(refusals).toEqual([expect.objectContaining({ currency: 'gems', count: 2 })]);
  const line = `2 claims refused since ${since(refusals[0].firstAt)}`;

  const context = await browser.newContext({ baseURL, storageState: staffStates.admin, timezoneId: ZONE, locale: LOCALE, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();

  // The Campaigns screen: the budget column.
  await page.goto(`/admin/campaigns?app=${appId}`);
  const row = page.getByRole('row').filter({ hasText: 'Winter festival' });
  await expect(row).toContainText('90 of 100 gems (90 %)');
  await expect(row.getByTestId('budget-refusals')).toHaveText(line);
  await expectAccessible(page, 'campaigns with budget refusals');

  // The dashboard: the budget card (its table and its alert list) and the claims figure.
  await page.goto(`/admin?app=${appId}`);
  const card = page.getByRole('table', { name: 'Campaign budgets' });
  await expect(card.getByRole('row').filter({ hasText: 'Winter festival' }).getByTestId('budget-refusals')).toHaveText(line);
  await expect(page.getByRole('status').filter({ hasText: 'Budget alerts' })).toContainText(`Winter festival: 80 % of the gems budget reached (90 of 100); ${line}`);
  await expect(page.getByTestId('analytics-totals')).toContainText('5 events, 5 completions, 3 claims in the last hour');
  await expect(page.getByRole('region', { name: 'Totals' })).toContainText('1 missions · 2 refused by a budget');
  await expectAccessible(page, 'dashboard with budget refusals');

  // The inspector: the refused player's mission says why, with the time; a granted player's does not.
  const refusalAt = await (async () => {
    const res = await request.get(`/api/admin/apps/${appId}/users/player-4`, { headers: ADMIN_HEADERS });
    const body = (await res.json()) as { missions: Array<{ mission: { id: string }; claimRefusal: { at: number } | null }> };
    return body.missions.find((m) => m.mission.id === 'win-three')!.claimRefusal!.at;
  })();
  await page.goto(`/admin/inspector?app=${appId}&user=player-4`);
  const refused = page.locator('[data-mission="win-three"]');
  await expect(refused).toContainText('completed');
  await expect(refused.getByTestId('claim-refusal')).toContainText('Claim refused: the campaign’s gems budget is spent');
  await expect(refused.getByTestId('claim-refusal').locator('time')).toHaveText(dateTime(refusalAt));
  await expectAccessible(page, 'inspector with a refused claim');
  await page.goto(`/admin/inspector?app=${appId}&user=player-0`);
  await expect(page.locator('[data-mission="win-three"]')).toContainText('claimed');
  await expect(page.locator('[data-mission="win-three"]').getByTestId('claim-refusal')).toHaveCount(0);
  await context.close();
});
