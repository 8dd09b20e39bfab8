// The support desk in a real browser, against both servers: support finds a
// player by any part of their id in any case (the Inspector lists recent
// players and suggests ids as the User ID is typed), is told plainly about an
// id the app never saw, grants with a reason (it shows in the ledger and in
// the player's own /v1/balance), notes, dry-runs an event (an invalid payload
// clears the last answer), completes and resets a mission through the reason
// dialog, and reads the audit log filtered by the player (a grant's amount and
// reason inline, a long reason wrapped between words); an admin erases a
// player, after which the Inspector says who erased them, when and why, and
// /v1 shows them as a new user. Each
// view and dialog is axe-clean, light and dark (under npm start, one flow that
// switches the page's colour scheme at each check); screenshots
// of them go to docs/screenshots/ on the embedded pass (fresh database).
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { createApp, expect, expectAccessible, inBothSchemes, pickEconomy, playerToken, test, uniqueSuffix } from './fixtures';

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

/** A grant's reason long enough to wrap in the audit's change view. */
const LONG_REASON = 'Ticket 4411: ranked win not counted after the matchmaking outage of Saturday evening, confirmed by the match history the player sent and by the server logs of that night';

const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

async function sendEvent(request: APIRequestContext, token: string, userId: string, mode: string): Promise<void> {
  const res = await request.post('/v1/events', { ...bearer(token), data: { userId, name: 'match_won', payload: { mode }, timestamp: Date.now() } });
  expect(res.status()).toBe(200);
}

test.use({ viewport: { width: 1440, height: 1000 } });

/**
 * Under npm start (the same pages under both servers), axe on the page (or on
 * the open dialog) and a screenshot, in light then dark: of the card named
 * `card` alone, else of the window (a dialog over the page).
 */
const check = async (page: Page, name: string, main: boolean, { dialog = false, card }: { dialog?: boolean; card?: string } = {}) => {
  if (!main) return;
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `${colorScheme} ${name}`, dialog ? '[role=dialog]' : undefined);
    await page.evaluate(() => document.fonts.ready);
    const file = { path: path.join(DIR, `${name}-${colorScheme}.png`), caret: 'hide', animations: 'disabled' } as const;
    if (card) await page.locator('[data-slot=card]').filter({ has: page.getByRole('heading', { name: card, exact: true }) }).screenshot(file);
    else await page.screenshot(file);
  });
};

test(`support finds a player, grants, notes, dry-runs, completes and resets a mission, reads their audit`, async ({ pageAs, request }, testInfo) => {
  const main = testInfo.project.name === 'npm start';
  const appId = `e2e-desk-${uniqueSuffix()}`;
  const app = await createApp(request, appId, `Desk ${appId}`, CATALOG);
  const prefix = `ana-${uniqueSuffix()}`;
  const players = [`${prefix}-main`, `${prefix}-alt`];
  const tokens: Record<string, string> = {};
  for (const userId of players) {
    tokens[userId] = await playerToken(request, app, userId);
    await sendEvent(request, tokens[userId], userId, 'casual');
  }
  const page = await pageAs('support');

  // No player yet: the app's recent players, most recently seen first.
  await page.goto(`/admin/inspector?app=${appId}`);
  const recent = page.getByRole('list', { name: 'Recent players' });
  await expect(recent.getByRole('link')).toHaveText([players[1], players[0]]);
  await expect(recent.getByRole('listitem').first()).toContainText(' · 1 event · ');

  // Typing the start of an id suggests the players it matches.
  await page.getByLabel('App', { exact: true }).selectOption(appId);
  await page.getByLabel('User ID').fill(prefix);
  const suggestions = page.locator('#inspector-user-suggestions option');
  await expect(suggestions).toHaveCount(2);
  await expect(suggestions.first()).toHaveAttribute('value', players[1]);
  await check(page, 'desk-search', main);
  // Any part of the id, in any case, finds it.
  await page.getByLabel('User ID').fill(`${prefix.slice(2)}-MAI`.toUpperCase());
  await expect(suggestions).toHaveCount(1);
  await expect(suggestions.first()).toHaveAttribute('value', players[0]);

  // An id the app never saw says so plainly.
  await page.getByLabel('User ID').fill(`${prefix}-typo`);
  await page.getByRole('button', { name: 'Inspect' }).click();
  await expect(page.getByTestId('never-seen')).toContainText(`has never seen ${prefix}-typo`);
  await check(page, 'desk-never-seen', main);

  // The real player, found by clicking a suggestion's id: no warning; a grant with a reason shows in the ledger and in the player's balance.
  await page.getByLabel('User ID').fill(players[0]);
  await page.getByRole('button', { name: 'Inspect' }).click();
  await expect(page.locator('[data-mission="ranked-wins"]')).toBeVisible();
  await expect(page.getByTestId('never-seen')).toHaveCount(0);
  // Data requests are for admins: support sees neither button.
  await expect(page.getByRole('heading', { name: 'Fix a mission' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Erase player…' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Export data' })).toHaveCount(0);
  const grant = page.getByRole('form', { name: 'Grant or correct currency' });
  await pickEconomy(page, grant.getByLabel('Currency'), 'gold');
  await grant.getByLabel('Amount').fill('50');
  await grant.getByLabel('Reason').fill(LONG_REASON);
  await check(page, 'desk-grant-form', main, { card: 'Grant or correct currency' });
  await grant.getByRole('button', { name: 'Grant' }).click();
  // The confirmation states the effect before it applies.
  await expect(page.getByTestId('grant-effect')).toHaveText(`gold: 0 → 50 for ${players[0]}`);
  await page.getByRole('dialog').getByRole('button', { name: 'Grant', exact: true }).click();
  await expect(page.getByText('Granted 50 gold: balance now 50')).toBeVisible();
  await expect(page.getByTestId('balance-gold')).toHaveText('50', { timeout: 30_000 });
  await expect(page.getByRole('table', { name: 'Ledger' })).toContainText('Ticket 4411: ranked win not counted');
  // The test event's name suggests one the app has seen: the player's own.
  await expect(page.getByLabel('Event name')).toHaveAttribute('placeholder', 'match_won');
  const balance = await request.get('/v1/balance?currency=gold', bearer(tokens[players[0]]));
  expect((await balance.json()).balance.amount).toBe(50);

  // A note keeps its author.
  await page.getByLabel('New note').fill('Granted 50 gold for the lost ranked win.');
  await page.getByRole('button', { name: 'Add note' }).click();
  const notes = page.getByRole('list', { name: 'Notes' });
  await expect(notes).toContainText('Granted 50 gold for the lost ranked win.');
  await expect(notes).toContainText('sam.rivera@studio.test');
  await check(page, 'desk-notes', main, { card: 'Notes' });

  // The dry run explains without recording: no new event in the list.
  await page.getByLabel('Event name').fill('match_won');
  await page.getByLabel('Payload (JSON)').fill('{"mode":"casual"}');
  await page.getByRole('button', { name: 'Dry run' }).click();
  const result = page.getByRole('status', { name: 'Dry run result' });
  await expect(result).toContainText('Dry run: would count for nothing');
  await expect(result).toContainText('Filter “mode” did not match');
  await expect(page.getByRole('list', { name: 'Recent events' }).getByRole('listitem')).toHaveCount(1);
  await check(page, 'desk-dry-run', main, { card: 'Actions' });
  // A payload that is not JSON: the answer of the last one goes, the error says why.
  await page.getByLabel('Payload (JSON)').fill('{"mode":');
  await page.getByRole('button', { name: 'Dry run' }).click();
  await expect(page.getByText('Payload is not valid JSON')).toBeVisible();
  await expect(result).toHaveCount(0);

  // Complete the mission for the wronged player: a dialog asks why; the player's game sees it completed.
  await page.getByLabel('Mission', { exact: true }).selectOption('ranked-wins');
  await page.getByRole('button', { name: 'Complete…' }).click();
  let dialog = page.getByRole('dialog', { name: 'Complete the mission for the player?' });
  await expect(dialog.getByRole('button', { name: 'Complete mission' })).toBeDisabled();
  await dialog.getByLabel('Reason').fill('Ticket 4411: the ranked win was lost in an outage');
  await check(page, 'desk-complete-dialog', main, { dialog: true });
  await dialog.getByRole('button', { name: 'Complete mission' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Win 2 ranked matches: completed, claimable by the player')).toBeVisible();
  const completed = await request.get('/v1/missions/ranked-wins', bearer(tokens[players[0]]));
  expect((await completed.json()).progress).toMatchObject({ status: 'completed', currentCount: 2 });

  // Reset it: back to no progress, once the view shows the completion.
  await expect(page.getByRole('button', { name: 'Complete…' })).toBeDisabled({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Reset progress…' }).click();
  dialog = page.getByRole('dialog', { name: 'Reset the mission’s progress?' });
  await expect(dialog).toContainText('A reward already claimed is not taken back');
  // A lifetime mission has no window to speak of.
  await expect(dialog).toContainText(`Win 2 ranked matches goes back to no progress for ${players[0]}, and can be earned again.`);
  await expect(dialog).not.toContainText('window');
  await dialog.getByLabel('Reason').fill('Ticket 4412: let them play it again');
  await check(page, 'desk-reset-dialog', main, { dialog: true });
  await dialog.getByRole('button', { name: 'Reset progress' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Win 2 ranked matches: progress reset')).toBeVisible();
  const reset = await request.get('/v1/missions/ranked-wins', bearer(tokens[players[0]]));
  expect((await reset.json()).progress).toMatchObject({ status: 'active', currentCount: 0 });

  // What staff did to this player, from the notes card's link: the audit log filtered by the player.
  await page.getByRole('link', { name: 'the audit log', exact: true }).click();
  await expect(page.getByRole('searchbox', { name: 'Player' })).toHaveValue(players[0]);
  const rows = page.getByRole('table', { name: 'Audit log' }).getByRole('row');
  await expect(rows.filter({ hasText: 'user.' })).toHaveCount(4);
  for (const action of ['user.grant', 'user.note', 'user.mission_complete', 'user.mission_reset']) await expect(rows.filter({ hasText: action })).toHaveCount(1);
  // A grant's amount, currency and reason are in the list; its change view wraps the long reason between words.
  const grantRow = rows.filter({ hasText: 'user.grant' });
  await expect(grantRow.getByTestId('audit-summary')).toHaveText(`+50 gold: ${LONG_REASON}`);
  await grantRow.getByRole('button', { name: /^Changes of user\.grant/ }).click();
  const changes = page.getByRole('dialog').getByRole('table', { name: 'Changes' });
  const reasonCell = changes.getByRole('row').filter({ hasText: 'reason' }).getByRole('cell').nth(2);
  await expect(reasonCell).toContainText('ranked win not counted');
  expect(await reasonCell.evaluate((cell) => [getComputedStyle(cell).wordBreak, getComputedStyle(cell).overflowWrap])).toEqual(['normal', 'break-word']);
  // Every line of the wrapped reason ends at a space: no word is cut.
  const lines = await reasonCell.evaluate((cell) => {
    const text = cell.querySelector('ins')!.firstChild as Text;
    const range = document.createRange();
    const tops = new Map<number, string>();
    for (let i = 0; i < text.length; i++) {
      range.setStart(text, i);
      range.setEnd(text, i + 1);
      const top = Math.round(range.getBoundingClientRect().top);
      tops.set(top, (tops.get(top) ?? '') + text.data[i]);
    }
    return [...tops.values()];
  });
  expect(lines.length).toBeGreaterThan(1);
  for (const line of lines.slice(0, -1)) expect(line, `a line of the wrapped reason: ${JSON.stringify(lines)}`).toMatch(/ $/);
  await page.keyboard.press('Escape');
  await expect(rows.filter({ hasText: players[1] })).toHaveCount(0);
  await check(page, 'desk-audit-by-player', main);
  // Typing another player's id filters to them (nothing done to them yet).
  await page.getByRole('searchbox', { name: 'Player' }).fill(players[1]);
  await expect(page.getByText('No change matches these filters.')).toBeVisible();
});

test(`an admin exports and erases a player; /v1 then shows a new user`, async ({ pageAs, request }, testInfo) => {
  const main = testInfo.project.name === 'npm start';
  const appId = `e2e-erase-${uniqueSuffix()}`;
  const app = await createApp(request, appId, `Erase ${appId}`, CATALOG);
  const userId = `gdpr-${uniqueSuffix()}`;
  const token = await playerToken(request, app, userId);
  await sendEvent(request, token, userId, 'ranked');
  await sendEvent(request, token, userId, 'ranked');
  expect((await request.post('/v1/missions/ranked-wins/claim', bearer(token))).status()).toBe(200);
  expect((await (await request.get('/v1/balance?currency=gold', bearer(token))).json()).balance.amount).toBe(25);

  const page = await pageAs('admin');
  await page.goto(`/admin/inspector?app=${appId}&user=${userId}`);
  await expect(page.locator('[data-mission="ranked-wins"]')).toBeVisible();
  await expect(page.getByTestId('balance-gold')).toHaveText('25');

  // The export downloads one JSON document with everything stored.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export data' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`questline-${appId}-${userId}-export.json`);

  await page.getByRole('button', { name: 'Erase player…' }).click();
  const dialog = page.getByRole('dialog', { name: `Erase ${userId}?` });
  await expect(dialog).toContainText('cannot be undone');
  await dialog.getByLabel('Reason').fill('GDPR request 2026-118');
  await check(page, 'desk-erase-dialog', main, { dialog: true });
  await dialog.getByRole('button', { name: 'Erase player' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`${userId} erased: 2 events, 1 ledger row, 0 notes removed`)).toBeVisible();
  // The view now says who erased the player, when and why, never "never seen".
  await expect(page.getByTestId('erased')).toContainText(new RegExp(`${userId} was erased on .+ by alex\\.morgan@studio\\.test: GDPR request 2026-118`));
  await expect(page.getByTestId('never-seen')).toHaveCount(0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await check(page, 'desk-erased', main);

  // /v1: the old token is refused; a new one is a new user, no progress, zero balance.
  expect((await request.get('/v1/balance', bearer(token))).status()).toBe(401);
  const fresh = await playerToken(request, app, userId);
  expect(await (await request.get('/v1/balance', bearer(fresh))).json()).toEqual({ balances: [] });
  expect((await (await request.get('/v1/missions/ranked-wins', bearer(fresh))).json()).progress).toBeNull();
});
