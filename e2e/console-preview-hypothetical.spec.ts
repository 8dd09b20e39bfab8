// Issue 40 §5, "Preview a player who does not exist yet": on the Draft page,
// the preview card's switch "A hypothetical player" takes attribute rows and
// optional progress per mission, and answers what such a player would see
// from the draft: an audience-restricted mission (iOS, level ≥ 10) shown for
// an iOS player at level 12 in Tokyo and not for an Android one, a claimed
// prerequisite unlocking the mission behind it, a count shown as progress.
// Nothing is stored for the player (the app's player list stays empty).
// Axe on the card light and dark; its light screenshot for the docs.
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { ADMIN_HEADERS, createApp, expect, expectAccessible, test, uniqueSuffix } from './fixtures';

const DIR = process.env.DATABASE_URL ? path.join('test-results', 'screenshots') : path.join('docs', 'screenshots');

/** The preview table's rows as [mission, state, progress, why locked] (the description under the title left out). */
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

async function previewNow(page: Page, card: Locator): Promise<unknown> {
  const answered = page.waitForResponse((r) => r.url().endsWith('/draft/preview') && r.request().method() === 'POST');
  await card.getByRole('button', { name: 'Preview', exact: true }).click();
  const response = await answered;
  expect(response.status()).toBe(200);
  return response.request().postDataJSON();
}

test('preview a hypothetical player: attributes decide the audience, typed progress shows and unlocks, nothing stored', async ({ request, pageAs }, testInfo) => {
  test.setTimeout(180_000);
  const reward = { kind: 'currency', currency: 'gems', amount: 10 };
  const catalog = {
    missions: [
      { id: 'first-win', title: 'First win', criteria: { eventName: 'match_won', count: 1 }, reward },
      { id: 'second-win', title: 'Win again', criteria: { eventName: 'match_won', count: 3 }, reward, prerequisites: ['first-win'] },
      { id: 'ios-launch', title: 'iOS launch week', criteria: { eventName: 'match_won', count: 5 }, reward, audience: { platform: 'ios', level: { gte: 10 } } },
    ],
    campaigns: [],
  };
  const app = await createApp(request, `hypo-${uniqueSuffix()}`, 'Hypothetical preview', catalog);
  const put = await request.put(`/api/admin/apps/${app.appId}/draft`, { headers: ADMIN_HEADERS, data: catalog });
  expect(put.status(), await put.text()).toBe(200);

  const page = await pageAs('editor');
  await page.goto(`/admin/draft?app=${app.appId}`);
  const card = page.locator('[data-slot=card]').filter({ has: page.getByRole('heading', { name: 'Preview as a player' }) });
  await expect(card).toBeVisible();
  await card.getByRole('radio', { name: 'A hypothetical player' }).check();
  await expect(card.getByLabel('Player id')).toHaveCount(0);

  // The name field offers the names the draft's audiences use, and timezone.
  const offered = await page.locator('#preview-attribute-names option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  expect(offered).toEqual(['level', 'platform', 'timezone']);

  const attribute = async (i: number, name: string, value: string) => {
    if ((await card.getByLabel(`Attribute ${i} name`).count()) === 0) await card.getByRole('button', { name: 'Add attribute' }).click();
    await card.getByLabel(`Attribute ${i} name`).fill(name);
    await card.getByLabel(`Attribute ${i} value`).fill(value);
  };
  await attribute(1, 'platform', 'ios');
  await attribute(2, 'level', '12');
  await attribute(3, 'timezone', 'Asia/Tokyo');
  await card.getByText('Progress (optional)').click();
  await card.getByLabel('Status of First win').selectOption('claimed');
  await card.getByLabel('Count of Win again').fill('2');

  const sent = await previewNow(page, card);
  expect(sent).toEqual({ attributes: { platform: 'ios', level: 12, timezone: 'Asia/Tokyo' }, progress: { 'first-win': { status: 'claimed' }, 'second-win': { count: 2 } } });
  const summary = card.getByRole('region', { name: 'Player preview' });
  await expect(summary).toContainText('A player with platform = ios, level = 12, timezone = Asia/Tokyo at');
  await expect(summary).toContainText('3 missions shown');
  expect(await rows(card)).toEqual([
    ['First win', 'Claimed', '1 / 1', '—'],
    ['iOS launch week', 'Not started', '—', '—'],
    ['Win again', 'In progress', '2 / 3', '—'],
  ]);

  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.mouse.move(0, 0);
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await expectAccessible(page, `preview a hypothetical player (${colorScheme})`);
    if (testInfo.project.name === 'npm start' && colorScheme === 'light') {
      await page.evaluate(() => document.fonts.ready);
      await card.screenshot({ path: path.join(DIR, 'draft-preview-hypothetical-light.png'), caret: 'hide', animations: 'disabled' });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // An Android player: the iOS mission is not shown, and the card says why; without progress, Win again is locked.
  await card.getByLabel('Attribute 1 value').fill('android');
  await card.getByLabel('Status of First win').selectOption('');
  await card.getByLabel('Count of Win again').fill('');
  expect(await previewNow(page, card)).toEqual({ attributes: { platform: 'android', level: 12, timezone: 'Asia/Tokyo' } });
  await expect(summary).toContainText('no progress given (a new player)');
  const after = await rows(card);
  expect(after.map((r) => r.slice(0, 2))).toEqual([
    ['First win', 'Not started'],
    ['Win again', 'Locked'],
  ]);
  await expect(card.getByRole('list', { name: 'Missions not shown' })).toContainText('‘iOS launch week’: the player is not in its audience');

  // A name given twice is refused on the card.
  await attribute(4, 'platform', 'ios');
  await expect(card.getByRole('alert')).toContainText('The attribute “platform” is given twice.');
  await expect(card.getByRole('button', { name: 'Preview', exact: true })).toBeDisabled();

  // Nothing stored: the app still has no player.
  const users = await request.get(`/api/admin/apps/${app.appId}/users`, { headers: ADMIN_HEADERS });
  expect(users.status()).toBe(200);
  expect(((await users.json()) as { users: unknown[] }).users).toEqual([]);
});
