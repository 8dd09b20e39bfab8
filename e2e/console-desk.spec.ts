// The support desk in a real browser (support role): the Inspector lists the
// app's recent players and suggests ids as the User ID is typed; an id the
// app never saw says so; a grant with its reason shows in the ledger and in
// the player's /v1/balance; a dry run explains an event without recording
// it; a note keeps its author. Axe-clean; screenshots of the new views go to
// docs/screenshots/ on the embedded pass (fresh database) under npm start.
import path from 'node:path';
import type { Page } from '@playwright/test';
import { createApp, expect, expectAccessible, playerToken, test, uniqueSuffix } from './fixtures';

const DIR = process.env.DATABASE_URL ? path.join('test-results', 'screenshots') : path.join('docs', 'screenshots');
const CATALOG = {
  missions: [
    {
      id: 'ranked-wins',
      title: 'Win 2 ranked matches',
      criteria: { eventName: 'match_won', count: 2, window: 'lifetime', filter: { mode: 'ranked' } },
      reward: { kind: 'currency', currency: 'gold', amount: 25 },
    },
  ],
};

async function shoot(page: Page, name: string, enabled: boolean): Promise<void> {
  if (!enabled) return;
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: path.join(DIR, `${name}-light.png`), caret: 'hide', animations: 'disabled', fullPage: true });
}

test('support finds a player by the start of their id, is told about an unknown id, grants with a reason and dry-runs an event', async ({ pageAs, request }, testInfo) => {
  const main = testInfo.project.name === 'npm start';
  const appId = `e2e-desk-${uniqueSuffix()}`;
  const app = await createApp(request, appId, `Desk ${appId}`, CATALOG);
  const prefix = `ana-${uniqueSuffix()}`;
  const players = [`${prefix}-main`, `${prefix}-alt`];
  const tokens: Record<string, string> = {};
  for (const userId of players) {
    tokens[userId] = await playerToken(request, app, userId);
    const res = await request.post('/v1/events', { headers: { Authorization: `Bearer ${tokens[userId]}` }, data: { userId, name: 'match_won', payload: { mode: 'casual' }, timestamp: Date.now() } });
    expect(res.status()).toBe(200);
  }
  const page = await pageAs('support');

  // No player yet: the app's recent players, most recently seen first.
  await page.goto(`/admin/inspector?app=${appId}`);
  const recent = page.getByRole('list', { name: 'Recent players' });
  await expect(recent.getByRole('link')).toHaveText([players[1], players[0]]);
  if (main) await expectAccessible(page, 'inspector with recent players');
  await shoot(page, 'inspector-recent-players', main);

  // Typing the start of an id suggests the players it matches.
  await page.getByLabel('App', { exact: true }).selectOption(appId);
  await page.getByLabel('User ID').fill(prefix);
  const suggestions = page.locator('#inspector-user-suggestions option');
  await expect(suggestions).toHaveCount(2);
  await expect(suggestions.first()).toHaveAttribute('value', players[1]);

  // An id the app never saw says so plainly.
  await page.getByLabel('User ID').fill(`${prefix}-typo`);
  await page.getByRole('button', { name: 'Inspect' }).click();
  await expect(page.getByTestId('never-seen')).toContainText(`has never seen ${prefix}-typo`);
  if (main) await expectAccessible(page, 'inspector, never-seen player');
  await shoot(page, 'inspector-never-seen', main);

  // The real player: no warning; a grant with a reason shows in the ledger and in the player's balance.
  await page.getByLabel('User ID').fill(players[0]);
  await page.getByRole('button', { name: 'Inspect' }).click();
  await expect(page.locator('[data-mission="ranked-wins"]')).toBeVisible();
  await expect(page.getByTestId('never-seen')).toHaveCount(0);
  const grant = page.getByRole('form', { name: 'Grant or correct currency' });
  await grant.getByLabel('Currency').fill('gold');
  await grant.getByLabel('Amount').fill('50');
  await grant.getByLabel('Reason').fill('Ticket 4411: ranked win not counted');
  await grant.getByRole('button', { name: 'Grant' }).click();
  await expect(page.getByText('Granted 50 gold: balance now 50')).toBeVisible();
  await expect(page.getByTestId('balance-gold')).toHaveText('50', { timeout: 30_000 });
  await expect(page.getByRole('table', { name: 'Ledger' })).toContainText('Ticket 4411: ranked win not counted');
  const balance = await request.get('/v1/balance?currency=gold', { headers: { Authorization: `Bearer ${tokens[players[0]]}` } });
  expect((await balance.json()).balance.amount).toBe(50);

  // A note keeps its author.
  await page.getByLabel('New note').fill('Granted 50 gold for the lost ranked win.');
  await page.getByRole('button', { name: 'Add note' }).click();
  await expect(page.getByRole('list', { name: 'Notes' })).toContainText('Granted 50 gold for the lost ranked win.');

  // The dry run explains without recording: no new event in the list.
  await page.getByLabel('Event name').fill('match_won');
  await page.getByLabel('Payload (JSON)').fill('{"mode":"casual"}');
  await page.getByRole('button', { name: 'Dry run' }).click();
  const result = page.getByRole('status', { name: 'Dry run result' });
  await expect(result).toContainText('Dry run: would count for nothing');
  await expect(result).toContainText('Filter “mode” did not match');
  await expect(page.getByRole('list', { name: 'Recent events' }).getByRole('listitem')).toHaveCount(1);
  if (main) await expectAccessible(page, 'inspector with the support desk');
  await shoot(page, 'inspector-desk', main);
});
