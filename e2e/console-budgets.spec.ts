// Campaign payout budgets in the console: players claim through /v1 until
// the budget refuses one (409 budget_exhausted); the dashboard shows spent
// against budget with the 80 % alert, the Campaigns screen the same per row;
// an editor raises the budget in the campaign form (spent and alerts shown
// there) and the refused claim then goes through. Axe clean, light and dark;
// screenshots into docs/screenshots on the embedded pass.
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { createApp, expect, expectAccessible, inBothSchemes, pickEconomy, playerToken, publishDraft, test, type CreatedApp, uniqueSuffix } from './fixtures';

const DAY = 86_400_000;
const DIR = process.env.DATABASE_URL ? path.join('test-results', 'screenshots') : path.join('docs', 'screenshots');

async function budgetedApp(request: APIRequestContext): Promise<CreatedApp> {
  const appId = `budget-${uniqueSuffix()}`;
  const now = Date.now();
  return createApp(request, appId, `Budgets ${appId}`, {
    campaigns: [
      { id: 'winter-festival', title: 'Winter festival', startAt: now - DAY, endAt: now + 14 * DAY, budget: [{ currency: 'gems', amount: 100 }, { currency: 'coins', amount: 5000 }] },
      { id: 'spring-cup', title: 'Spring cup', startAt: now - DAY, endAt: now + 30 * DAY, budget: [{ currency: 'gems', amount: 1000 }] },
    ],
    missions: [
      { id: 'win-three', title: 'Win three matches', campaignId: 'winter-festival', criteria: { eventName: 'match_won', count: 1 }, reward: { kind: 'currency', currency: 'gems', amount: 30 } },
      { id: 'play-five', title: 'Play five matches', campaignId: 'winter-festival', criteria: { eventName: 'match_won', count: 1 }, reward: { kind: 'currency', currency: 'coins', amount: 1200 } },
      { id: 'spring-opener', title: 'Spring opener', campaignId: 'spring-cup', criteria: { eventName: 'match_won', count: 1 }, reward: { kind: 'currency', currency: 'gems', amount: 150 } },
    ],
  });
}

/** A player who completed every mission; answers their claim function. */
async function player(request: APIRequestContext, app: CreatedApp, userId: string) {
  const token = await playerToken(request, app, userId);
  const headers = { Authorization: `Bearer ${token}` };
  const event = await request.post('/v1/events', { headers, data: { userId, name: 'match_won', payload: {}, timestamp: Date.now() } });
  expect(event.status(), await event.text()).toBe(200);
  return async (missionId: string) => {
    const res = await request.post(`/v1/missions/${missionId}/claim`, { headers });
    return { status: res.status(), body: (await res.json()) as { error?: string; message?: string } };
  };
}

async function shoot(page: Page, name: string, scheme: string): Promise<void> {
  await page.screenshot({ path: path.join(DIR, `${name}-${scheme}.png`), caret: 'hide', animations: 'disabled', fullPage: false });
}

test.use({ viewport: { width: 1280, height: 900 } });

test('budgets: a claim past the budget is refused; dashboard and campaign show spent and alerts; raising it in the form lets the claim through', async ({ pageAs, request }) => {
  const app = await budgetedApp(request);
  const claims = [];
  for (let i = 0; i < 4; i++) claims.push(await player(request, app, `player-${i}`));
  for (const claim of claims.slice(0, 3)) expect((await claim('win-three')).status).toBe(200); // 90 of 100 gems
  const refused = await claims[3]('win-three');
  expect(refused.status).toBe(409);
  expect(refused.body.error).toBe('budget_exhausted');
  expect(refused.body.message).toContain('Winter festival');
  for (const claim of claims.slice(0, 3)) expect((await claim('play-five')).status).toBe(200); // 3,600 of 5,000 coins
  expect((await claims[0]('spring-opener')).status).toBe(200); // 150 of 1,000 gems

  const page = await pageAs('editor');
  await page.goto(`/admin?app=${app.appId}`);
  const card = page.getByRole('table', { name: 'Campaign budgets' });
  await expect(card.getByRole('row').filter({ hasText: 'Winter festival' })).toContainText('90 of 100 gems (90 %)');
  await expect(card.getByRole('row').filter({ hasText: 'Winter festival' })).toContainText('3,600 of 5,000 coins (72 %)');
  await expect(card.getByRole('row').filter({ hasText: 'Spring cup' })).toContainText('150 of 1,000 gems (15 %)');
  await expect(page.getByRole('status').filter({ hasText: 'Budget alerts' })).toContainText('Winter festival: 80 % of the gems budget reached (90 of 100)');
  await expect(page.getByRole('meter', { name: 'Winter festival: gems budget spent' })).toHaveAttribute('aria-valuenow', '90');
  await page.getByRole('heading', { name: 'Campaign budgets' }).scrollIntoViewIfNeeded();
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `${colorScheme} dashboard with campaign budgets`);
    await shoot(page, 'budgets-dashboard', colorScheme);
  });

  await page.goto(`/admin/campaigns?app=${app.appId}`);
  const row = page.getByRole('row').filter({ hasText: 'Winter festival' });
  await expect(row).toContainText('90 of 100 gems (90 %)');
  await expect(row.getByText('80 % reached')).toBeVisible();
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `${colorScheme} campaigns with budgets`);
  });

  await row.getByRole('button', { name: 'Actions for campaign Winter festival' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit campaign “Winter festival”' });
  const budget = dialog.getByRole('group', { name: 'Payout budget' });
  await expect(budget.getByLabel('Currency').first()).toHaveText(/gems/);
  await expect(budget.getByLabel('Budget').first()).toHaveValue('100');
  await expect(budget.getByRole('list', { name: 'Budget alerts' })).toContainText('80 % of the gems budget reached');
  await expect(budget.getByRole('meter', { name: 'Winter festival: gems budget spent' })).toHaveAttribute('aria-valuetext', '90 of 100 gems (90 %)');
  await budget.scrollIntoViewIfNeeded();
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `${colorScheme} campaign form with its budget`, '[role=dialog]');
    await shoot(page, 'budget-form', colorScheme);
  });

  // A duplicate currency is refused by the contract's schema before anything is sent.
  await budget.getByRole('button', { name: 'Add a currency budget' }).click();
  await pickEconomy(page, budget.getByLabel('Currency').nth(2), 'gems');
  await dialog.getByRole('button', { name: 'Save to draft' }).click();
  await expect(budget.getByText('gems has a budget already', { exact: true })).toBeVisible(); // the contract's message in plain words (lib/console/plain-errors.ts)
  await budget.getByRole('button', { name: 'Remove the budget line 3' }).click();

  await budget.getByLabel('Budget').first().fill('200');
  await dialog.getByRole('button', { name: 'Save to draft' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Campaign “Winter festival” saved to the draft')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Winter festival' })).toContainText('90 of 200 gems (45 %)');
  await expect(page.getByRole('row').filter({ hasText: 'Winter festival' })).toContainText('Changed in draft');

  // Still refused while the raised budget is only in the draft; once published the claim goes through, and the figures follow.
  expect((await claims[3]('win-three')).status).toBe(409);
  await publishDraft(page, app.appId);
  expect((await claims[3]('win-three')).status).toBe(200);
  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: 'Winter festival' })).toContainText('120 of 200 gems (60 %)');
});
