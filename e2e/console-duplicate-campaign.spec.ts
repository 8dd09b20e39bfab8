// Issue 18 §4 in the console, against both servers:
// - "Duplicate a whole campaign with its missions (into the draft, with new
//   ids)": the campaigns list's row action copies a live campaign and its two
//   missions (one locked behind the other) into the draft; the copies are
//   badged "Added in draft" with their new ids, the lock points at the copy,
//   and /v1 is unchanged until the draft is published;
// - a refused campaign save focuses the first invalid field;
// - leaving the mission editor with unsaved changes by the browser's Back asks
//   first: no keeps the page and what was typed, yes leaves.
// Axe on the toast and the list, light and dark.
import type { Page } from '@playwright/test';
import { ADMIN_HEADERS, createApp, expect, expectAccessible, inBothSchemes, playerToken, publishDraft, test, uniqueSuffix } from './fixtures';

const DAY = 86_400_000;

/** Waits for the page's next window.confirm, answers it, and resolves with its text. */
function nextConfirm(page: Page, accept: boolean): Promise<string> {
  return new Promise((resolve) =>
    page.once('dialog', (d) => {
      resolve(d.message());
      void (accept ? d.accept() : d.dismiss());
    }),
  );
}

/** Clicks `item` in a campaign row's menu, opening the menu again if a render of the list (its draft arriving) closed it first. */
async function rowMenuItem(page: Page, campaign: string, item: string): Promise<void> {
  const entry = page.getByRole('menuitem', { name: item });
  await expect(async () => {
    if (!(await entry.isVisible())) await page.getByRole('button', { name: `Actions for campaign ${campaign}` }).click();
    await expect(entry).toBeVisible({ timeout: 2_000 });
  }).toPass();
  await entry.click();
}

test('duplicate a campaign with its missions into the draft, new ids and the lock pointing at the copy; a refused save focuses the first error; Back with unsaved changes asks', async ({ request, pageAs }) => {
  test.setTimeout(180_000);
  const startAt = Date.now() + 3 * DAY;
  const app = await createApp(request, `dup-${uniqueSuffix()}`, 'Duplicate campaign', {
    missions: [
      { id: 'cup-1', title: 'Cup: first win', criteria: { eventName: 'match_won', count: 1 }, reward: { kind: 'currency', currency: 'gems', amount: 10 }, campaignId: 'cup' },
      { id: 'cup-2', title: 'Cup: three wins', criteria: { eventName: 'match_won', count: 3 }, reward: { kind: 'currency', currency: 'gems', amount: 30 }, campaignId: 'cup', prerequisites: ['cup-1'] },
      { id: 'solo', title: 'Solo', criteria: { eventName: 'login', count: 1 }, reward: { kind: 'currency', currency: 'coins', amount: 1 } },
    ],
    campaigns: [{ id: 'cup', title: 'Winter cup', startAt, endAt: startAt + 7 * DAY }],
  });
  const auth = { Authorization: `Bearer ${await playerToken(request, app, 'dup-player')}` };
  const liveIds = async () => ((await (await request.get('/v1/missions', { headers: auth })).json()) as { missions: Array<{ id: string }> }).missions.map((m) => m.id);
  expect(await liveIds()).toEqual(['cup-1', 'cup-2', 'solo']);

  const page = await pageAs('editor');
  await page.goto(`/admin/campaigns?app=${app.appId}`);
  await rowMenuItem(page, 'Winter cup', 'Duplicate with its missions');
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'copied into the draft' });
  await expect(toast).toContainText('Campaign “Winter cup” copied into the draft as “Winter cup (copy)”');
  await expect(toast).toContainText('2 missions copied with them, new ids (cup-copy, cup-1-copy, cup-2-copy)');
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `duplicated campaign toast and list (${colorScheme})`);
  });

  // The list: the copy badged, with its two missions.
  const copyRow = page.getByRole('row').filter({ hasText: 'Winter cup (copy)' });
  await expect(copyRow).toContainText('Added in draft');
  await expect(copyRow.getByRole('cell').nth(3)).toHaveText('2');

  // The draft holds the copies with new ids; the copy of the locked mission needs the copy of the first.
  const draft = await request.get(`/api/admin/apps/${app.appId}/draft`, { headers: ADMIN_HEADERS });
  const doc = ((await draft.json()) as { catalog: { missions: Array<{ id: string; campaignId: string | null; prerequisites: string[]; title: string }> } }).catalog;
  expect(doc.missions.find((m) => m.id === 'cup-2-copy')).toMatchObject({ campaignId: 'cup-copy', prerequisites: ['cup-1-copy'], title: 'Cup: three wins' });
  expect(doc.missions.find((m) => m.id === 'cup-1-copy')).toMatchObject({ campaignId: 'cup-copy', prerequisites: [] });
  await page.goto(`/admin/missions?app=${app.appId}`);
  await expect(page.getByRole('row').filter({ hasText: 'cup-2-copy' })).toContainText('Added in draft');

  // Players see nothing of it until the draft is published.
  expect(await liveIds()).toEqual(['cup-1', 'cup-2', 'solo']);
  await publishDraft(page, app.appId);
  await expect.poll(liveIds).toEqual(['cup-1', 'cup-1-copy', 'cup-2', 'cup-2-copy', 'solo']);

  // After a reload, the campaign form's card preview shows the campaign's own missions by title.
  await page.goto(`/admin/campaigns?app=${app.appId}`);
  await rowMenuItem(page, 'Winter cup (copy)', 'Edit');
  const editDialog = page.getByRole('dialog', { name: /Edit campaign/ });
  await expect(editDialog.getByRole('list', { name: 'Missions on the card' }).getByRole('listitem')).toHaveText(['Cup: first win0 / 1', 'Cup: three wins0 / 3']);
  await expect(editDialog.getByTestId('campaign-card-preview')).toContainText('Claim 10 gems');
  await expect(editDialog.getByTestId('campaign-card-preview')).not.toContainText('Win 3 matches');
  await page.keyboard.press('Escape');
  await expect(editDialog).toBeHidden();

  // A refused campaign save: the first invalid field (the title, emptied) is focused.
  await page.goto(`/admin/campaigns?app=${app.appId}`);
  await page.getByRole('button', { name: 'New campaign' }).click();
  const dialog = page.getByRole('dialog', { name: 'New campaign' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Save to draft' }).click();
  await expect(dialog.getByLabel('Title', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByLabel('Title', { exact: true })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Back with unsaved changes in the mission editor: asked; no stays with the text, yes leaves.
  await page.goto(`/admin/missions?app=${app.appId}`);
  await page.getByRole('link', { name: 'Solo', exact: true }).click();
  const title = page.getByLabel('Title', { exact: true });
  await expect(title).toHaveValue('Solo');
  const editorUrl = page.url();
  await title.fill('Solo (renamed)');
  const stay = nextConfirm(page, false);
  await page.evaluate(() => window.history.back());
  expect(await stay).toContain('unsaved changes');
  await expect(title).toHaveValue('Solo (renamed)');
  expect(page.url()).toBe(editorUrl);
  const leave = nextConfirm(page, true);
  await page.evaluate(() => window.history.back());
  expect(await leave).toContain('unsaved changes');
  await expect(page).toHaveURL(/\/admin\/missions\?app=/);
  await expect(page.getByRole('heading', { name: 'Missions', level: 1 })).toBeVisible();
});
