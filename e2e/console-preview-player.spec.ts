// Issue 18 §4, "Preview as a player": on the Draft page, an editor picks a
// player and a date and sees what /v1/missions would answer that player from
// the draft then. The player's progress comes from real events sent here; the
// draft moves a campaign's start and adds a mission that expires. The card
// must name missions and lock reasons by title (never by id), and change its
// answer with the date: the campaign's mission locked before the new start,
// open after it; the expiring mission listed before it expires, then under
// "Not shown". Axe on the card light and dark; its screenshot for the docs.
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { ADMIN_HEADERS, createApp, expect, expectAccessible, localInput, playerToken, test, uniqueSuffix } from './fixtures';

const DIR = process.env.DATABASE_URL ? path.join('test-results', 'screenshots') : path.join('docs', 'screenshots');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The preview table's rows as [mission, state, progress, why locked], in the answer's order (mission ids); the mission's description under its title left out. */
async function rows(card: Locator): Promise<string[][]> {
  const table = card.getByRole('table', { name: 'Missions the player would see' });
  await expect(table).toBeVisible();
  return table.getByRole('row').evaluateAll((trs) =>
    trs.slice(1).map((tr) =>
      Array.from(tr.querySelectorAll('td')).map((td) => {
        const cell = td.cloneNode(true) as HTMLElement;
        cell.querySelectorAll('[data-hint]').forEach((hint) => hint.remove());
        return (cell.textContent ?? '').replace(/\s+/g, ' ').trim();
      }),
    ),
  );
}

async function preview(page: Page, card: Locator, userId: string, at: number | null): Promise<void> {
  await card.getByLabel('Player id').fill(userId);
  await card.getByLabel('At', { exact: true }).fill(at === null ? '' : localInput(at));
  const answered = page.waitForResponse((r) => r.url().endsWith('/draft/preview') && r.request().method() === 'POST');
  await card.getByRole('button', { name: 'Preview', exact: true }).click();
  expect((await answered).status()).toBe(200);
}

test('preview as a player: the draft read against a player’s real progress at two dates, every mission and lock reason by title', async ({ request, pageAs }, testInfo) => {
  test.setTimeout(180_000);
  const now = Date.now();
  const startLive = now + 10 * DAY;
  const startDraft = now + 2 * DAY;
  const live = {
    missions: [
      { id: 'first-win', title: 'First win', criteria: { eventName: 'match_won', count: 1 }, reward: { kind: 'currency', currency: 'gems', amount: 10 } },
      { id: 'second-win', title: 'Win again', criteria: { eventName: 'match_won', count: 3 }, reward: { kind: 'currency', currency: 'gems', amount: 20 }, prerequisites: ['first-win'] },
      { id: 'cup-win', title: 'Winter cup winner', criteria: { eventName: 'match_won', count: 2 }, reward: { kind: 'currency', currency: 'gems', amount: 50 }, campaignId: 'winter' },
    ],
    campaigns: [{ id: 'winter', title: 'Winter cup', startAt: startLive, endAt: now + 30 * DAY }],
  };
  const app = await createApp(request, `preview-${uniqueSuffix()}`, 'Preview as a player', live);

  // The player wins twice: First win completed (not claimed), so Win again stays locked behind it.
  const userId = 'pp-1';
  const auth = { Authorization: `Bearer ${await playerToken(request, app, userId)}` };
  for (let i = 0; i < 2; i++) {
    const sent = await request.post('/v1/events', { headers: auth, data: { userId, name: 'match_won', payload: { i }, timestamp: Date.now() } });
    expect(sent.status(), await sent.text()).toBe(200);
  }

  // The draft: the campaign starts in 2 days instead of 10, and a mission that expires in 1 day is added.
  const draft = {
    missions: [...live.missions, { id: 'flash', title: 'Flash weekend', criteria: { eventName: 'login', count: 1 }, reward: { kind: 'currency', currency: 'coins', amount: 5 }, expiresAt: now + DAY }],
    campaigns: [{ ...live.campaigns[0], startAt: startDraft }],
  };
  const put = await request.put(`/api/admin/apps/${app.appId}/draft`, { headers: ADMIN_HEADERS, data: draft });
  expect(put.status(), await put.text()).toBe(200);

  const page = await pageAs('editor');
  await page.goto(`/admin/draft?app=${app.appId}`);
  const card = page.locator('[data-slot=card]').filter({ has: page.getByRole('heading', { name: 'Preview as a player' }) });
  await expect(card).toBeVisible();

  // Now: the campaign has not started (its new start named), Win again waits for First win's claim.
  await preview(page, card, userId, null);
  const summary = card.getByRole('region', { name: 'Player preview' });
  await expect(summary).toContainText(`${userId} at`);
  await expect(summary).toContainText('4 missions shown');
  const before = await rows(card);
  // Ordered by id, as /v1/missions: cup-win, first-win, flash, second-win.
  expect(before.map((r) => r[0])).toEqual(['Winter cup winner', 'First win', 'Flash weekend', 'Win again']);
  expect(before[0].slice(0, 3)).toEqual(['Winter cup winner', 'Locked', '—']);
  expect(before[0][3]).toMatch(/^Campaign ‘Winter cup’ starts /);
  expect(before[1]).toEqual(['First win', 'Completed: can claim', '1 / 1', '—']);
  expect(before[2]).toEqual(['Flash weekend', 'Not started', '—', '—']);
  expect(before[3].slice(0, 2)).toEqual(['Win again', 'Locked']);
  expect(before[3][3]).toBe('Needs ‘First win’ claimed first');
  // Titles, never ids.
  await expect(card).not.toContainText('first-win');
  await expect(card).not.toContainText('winter');

  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.mouse.move(0, 0);
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await expectAccessible(page, `preview as a player (${colorScheme})`);
    if (testInfo.project.name === 'npm start') {
      await page.evaluate(() => document.fonts.ready);
      await card.screenshot({ path: path.join(DIR, `draft-preview-player-${colorScheme}.png`), caret: 'hide', animations: 'disabled' });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // Three days on: the campaign has started (its mission open, no progress: the wins came before it),
  // Flash weekend has expired and is listed as not shown, with the reason.
  await preview(page, card, userId, now + 3 * DAY);
  const after = await rows(card);
  expect(after.map((r) => r[0])).toEqual(['Winter cup winner', 'First win', 'Win again']);
  expect(after[0]).toEqual(['Winter cup winner', 'Not started', '—', '—']);
  expect(after[2][3]).toBe('Needs ‘First win’ claimed first');
  const hidden = card.getByRole('list', { name: 'Missions not shown' });
  await expect(hidden.getByRole('listitem')).toHaveCount(1);
  await expect(hidden).toContainText('‘Flash weekend’: it expired');

  // A player never seen: everything from nothing, said so.
  await preview(page, card, 'pp-never-seen', null);
  await expect(summary).toContainText('no progress stored for this player');

  // /v1 still answers the live catalog: the campaign's start is the live one (locked, no Flash weekend).
  const v1 = await request.get('/v1/missions', { headers: auth });
  const body = (await v1.json()) as { missions: Array<{ id: string; locked: boolean }> };
  expect(body.missions.map((m) => [m.id, m.locked])).toEqual([
    ['cup-win', true],
    ['first-win', false],
    ['second-win', true],
  ]);
});
