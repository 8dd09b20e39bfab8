// The Themes and Campaigns screens: an editor creates a theme and a campaign
// using it through the UI (keyboard included), saved into the draft, and once
// it is published a player's /v1/campaigns answers the campaign with the
// resolved theme; support reads but cannot
// edit; axe finds nothing serious on the pages and their dialogs.
import type { APIRequestContext, Page } from '@playwright/test';
import { BANNER_URL } from './banner';
import { createApp, expect, expectAccessible, inBothSchemes, localInput, playerToken, publishDraft, test, type CreatedApp, uniqueSuffix } from './fixtures';

const DAY = 86_400_000;

/** An app with two missions, made with the admin key. */
async function appWithMissions(request: APIRequestContext): Promise<CreatedApp> {
  const appId = `themed-${uniqueSuffix()}`;
  return createApp(request, appId, `Themed ${appId}`, {
    missions: [
      { id: 'win-three', title: 'Win three matches', criteria: { eventName: 'match_won', count: 3 }, reward: { kind: 'currency', currency: 'gems', amount: 50 } },
      { id: 'play-five', title: 'Play five matches', criteria: { eventName: 'match_played', count: 5 }, reward: { kind: 'currency', currency: 'coins', amount: 100 } },
    ],
  });
}

async function playerCampaigns(request: APIRequestContext, app: CreatedApp): Promise<Record<string, unknown>[]> {
  const accessToken = await playerToken(request, app, 'player-1');
  const res = await request.get('/v1/campaigns', { headers: { Authorization: `Bearer ${accessToken}` } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { campaigns: Record<string, unknown>[] }).campaigns;
}

async function createThemeWithKeyboard(page: Page, name: string): Promise<void> {
  // Keyboard only: focus the button, open with Enter, Tab between fields, submit with Enter.
  await page.getByRole('button', { name: 'New theme' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'New theme' });
  await expect(dialog.getByLabel('Name')).toBeFocused();
  await page.keyboard.type(name);
  await page.keyboard.press('Tab');
  await expect(dialog.getByLabel('Theme ID')).toBeFocused();
  await expect(dialog.getByLabel('Theme ID')).toHaveValue(/^aurora-/);
  await page.keyboard.press('Tab'); // the primary colour's picker
  await page.keyboard.press('Tab'); // its hex field
  await expect(dialog.getByRole('textbox', { name: 'Primary colour', exact: true })).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('#0e7490');
  await page.keyboard.press('Tab'); // accent picker
  await page.keyboard.press('Tab'); // accent hex
  await expect(dialog.getByRole('textbox', { name: 'Accent colour', exact: true })).toBeFocused();
  await page.keyboard.type('#f59e0b');
  // The live preview follows the form: the claim button in the primary colour.
  await expect(dialog.getByTestId('campaign-card-preview').getByText('Claim 50 gems')).toHaveCSS('background-color', 'rgb(14, 116, 144)');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
}

test('an editor creates a theme and a campaign using it through the UI; a player’s /v1/campaigns answers it with the resolved theme', async ({ pageAs, request }) => {
  const app = await appWithMissions(request);
  const page = await pageAs('editor');
  const name = `Aurora ${uniqueSuffix()}`;

  await page.goto(`/admin/themes?app=${app.appId}`);
  await expect(page.getByRole('heading', { name: 'Themes', level: 1 })).toBeVisible();
  await expect(page.getByText('No theme yet')).toBeVisible();

  // A bad colour is refused inline, by the contract's schema, before anything is sent.
  await page.getByRole('button', { name: 'New theme' }).click();
  const draft = page.getByRole('dialog', { name: 'New theme' });
  await draft.getByLabel('Name').fill('Draft');
  await draft.getByRole('textbox', { name: 'Primary colour', exact: true }).fill('purple');
  await draft.getByRole('button', { name: 'Save to draft' }).click();
  await expect(draft.getByText('a hex colour such as #7c3aed')).toBeVisible();
  await expectAccessible(page, 'theme dialog with an error', '[role=dialog]');
  // The dialog has unsaved changes: Cancel asks first (docs/console.md, leaving a form); the test discards them.
  page.once('dialog', (d) => void d.accept());
  await draft.getByRole('button', { name: 'Cancel' }).click();
  await expect(draft).toBeHidden();

  await createThemeWithKeyboard(page, name);
  const themeId = name.toLowerCase().replace(/ /g, '-');
  await expect(page.getByRole('row').filter({ hasText: name })).toContainText('Added in draft');
  await expect(page.getByText(`Theme “${name}” saved to the draft`)).toBeVisible();

  // The campaign: dates in the reader's zone, missions, banner, the preset.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Campaigns' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/campaigns\\?app=${app.appId}`));
  await page.getByRole('button', { name: 'New campaign' }).click();
  const form = page.getByRole('dialog', { name: 'New campaign' });
  await form.getByLabel('Title').fill('Aurora Festival');
  await expect(form.getByLabel('Campaign ID')).toHaveValue('aurora-festival');
  await form.getByLabel('Description').fill('Northern lights all week.');
  const now = Date.now();
  await form.getByLabel('Starts').fill(localInput(now - DAY));
  await form.getByLabel('Ends').fill(localInput(now + 7 * DAY));
  await expect(form.getByText(/UTC[+-]\d\d:\d\d\)/).first()).toBeVisible();
  await form.getByLabel(/Win three matches/).check();
  await form.getByLabel('Banner URL').fill(BANNER_URL);
  await form.getByLabel('A theme preset').check();
  await form.getByLabel('Theme preset', { exact: true }).selectOption(themeId);
  const preview = form.getByTestId('campaign-card-preview');
  await expect(preview.getByText('Aurora Festival')).toBeVisible();
  await expect(preview.getByText('Claim 50 gems')).toHaveCSS('background-color', 'rgb(14, 116, 144)');
  // The banner image really loaded in the preview.
  await expect.poll(() => preview.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expectAccessible(page, 'campaign dialog', '[role=dialog]');
  await form.getByRole('button', { name: 'Save to draft' }).click();
  await expect(form).toBeHidden();

  const row = page.getByRole('row').filter({ hasText: 'Aurora Festival' });
  await expect(row).toBeVisible();
  // Only in the draft: no phase word, players see nothing of it yet (issue 37); Live once published, below.
  await expect(row.getByRole('cell').nth(1)).toHaveText('Added in draft');
  await expect(row.getByText('Added in draft')).toBeVisible();
  await expect(row.getByText(name)).toBeVisible();
  await expect(page.getByRole('list', { name: 'Campaign timeline' }).getByText('Aurora Festival')).toBeVisible();
  // In the draft (the theme, the campaign, its mission): players see none of it until it is published.
  await expect(page.getByRole('status').filter({ hasText: '3 unpublished changes' })).toBeVisible();
  expect(await playerCampaigns(request, app)).toEqual([]);
  await publishDraft(page, app.appId);
  await page.goto(`/admin/campaigns?app=${app.appId}`);
  await expect(row.getByRole('cell').nth(1)).toHaveText('Live');

  // A player of the app, over real HTTP.
  const campaigns = await playerCampaigns(request, app);
  expect(campaigns).toEqual([
    expect.objectContaining({
      id: 'aurora-festival',
      title: 'Aurora Festival',
      missionIds: ['win-three'],
      bannerUrl: BANNER_URL,
      theme: { primaryColor: '#0e7490', accentColor: '#f59e0b' },
    }),
  ]);
  expect(campaigns[0]).not.toHaveProperty('themeId');

  // Editing the preset changes what players get, once published.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Themes' }).click();
  await page.getByRole('button', { name: `Actions for theme ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: `Edit theme “${name}”` });
  await expect(edit.getByText('Used by 1 campaign')).toBeVisible();
  await edit.getByRole('textbox', { name: 'Primary colour', exact: true }).fill('#be123c');
  await edit.getByRole('button', { name: 'Save to draft' }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: name })).toContainText('Changed in draft');
  expect((await playerCampaigns(request, app))[0].theme).toEqual({ primaryColor: '#0e7490', accentColor: '#f59e0b' });
  await publishDraft(page, app.appId);
  expect((await playerCampaigns(request, app))[0].theme).toEqual({ primaryColor: '#be123c', accentColor: '#f59e0b' });

  // A preset in use cannot be deleted: the confirmation says so, and the API refuses.
  await page.getByRole('button', { name: `Actions for theme ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('aurora-festival');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete theme' }).click();
  await expect(page.getByText(/used by campaign "aurora-festival"/)).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: name })).toBeVisible();
});

test('the status filter follows the clock: a campaign that ends while the page stays open leaves "Live" and shows under "Ended"', async ({ pageAs, request }) => {
  const start = Date.now();
  const appId = `phases-${uniqueSuffix()}`;
  await createApp(request, appId, `Phases ${appId}`, {
    missions: [],
    campaigns: [
      { id: 'ends-soon', title: 'Ends Soon', startAt: start - DAY, endAt: start + 3 * 60_000, missionIds: [] },
      { id: 'runs-on', title: 'Runs On', startAt: start - DAY, endAt: start + 30 * DAY, missionIds: [] },
    ],
  });
  const page = await pageAs('support');
  // The page's clock starts at the real time (the server's rows are real); fast-forwarded below.
  await page.clock.install({ time: start });
  await page.goto(`/admin/campaigns?app=${appId}`);
  const row = (title: string) => page.getByRole('row').filter({ hasText: title });
  await expect(row('Ends Soon')).toContainText('Live');
  await page.getByRole('combobox', { name: 'Filter by status' }).click();
  await page.getByRole('option', { name: 'Live' }).click();
  await expect(row('Ends Soon')).toBeVisible();
  await expect(row('Runs On')).toBeVisible();

  // Five minutes later (the console reads the time once a minute), with the filter still on "Live".
  await page.clock.fastForward('05:00');
  await expect(row('Runs On')).toBeVisible();
  await expect(row('Ends Soon')).toHaveCount(0);
  await page.getByRole('combobox', { name: 'Filter by status' }).click();
  await page.getByRole('option', { name: 'Ended' }).click();
  await expect(row('Ends Soon')).toContainText('Ended');
  await expect(row('Runs On')).toHaveCount(0);
});

test('support sees themes and campaigns read-only: no create, edit or delete, and the API refuses writes', async ({ pageAs }) => {
  const page = await pageAs('support');
  await page.goto('/admin/campaigns?app=demo');
  await expect(page.getByRole('row').filter({ hasText: 'Launch Week' })).toBeVisible();
  await expect(page.getByText('Your role can read campaigns but not change them.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'New campaign' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Actions for campaign/ })).toHaveCount(0);

  await page.goto('/admin/themes?app=demo');
  await expect(page.getByRole('heading', { name: 'Themes', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New theme' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Actions for theme/ })).toHaveCount(0);

  const origin = new URL(page.url()).origin;
  const writes = { headers: { Origin: origin } };
  expect((await page.request.get('/api/admin/apps/demo/campaigns')).status()).toBe(200);
  expect((await page.request.post('/api/admin/apps/demo/themes', { ...writes, data: { id: 'nope', name: 'Nope', primaryColor: '#000' } })).status()).toBe(403);
  expect((await page.request.put('/api/admin/apps/demo/campaigns/launch-week', { ...writes, data: {} })).status()).toBe(403);
  expect((await page.request.delete('/api/admin/apps/demo/campaigns/launch-week', writes)).status()).toBe(403);
});

test.describe('axe', () => {
  // Once, under `npm start`: the pages are the same Next.js pages under both servers.
  test.beforeAll(({}, testInfo) => test.skip(testInfo.project.name !== 'npm start', 'checked under npm start'));
  test(`themes and campaigns pages and their dialogs`, async ({ pageAs }) => {
    const page = await pageAs('editor');
    await page.goto('/admin/campaigns?app=demo');
    await expect(page.getByRole('row').filter({ hasText: 'Launch Week' })).toBeVisible();
    await inBothSchemes(page, async (colorScheme) => {
      await expectAccessible(page, `${colorScheme} /admin/campaigns`);
    });
    await page.getByRole('button', { name: 'Actions for campaign Launch Week' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await expect(page.getByRole('dialog', { name: 'Edit campaign “Launch Week”' })).toBeVisible();
    await inBothSchemes(page, async (colorScheme) => {
      await expectAccessible(page, `${colorScheme} campaign dialog`, '[role=dialog]');
    });
    await page.keyboard.press('Escape');

    await page.goto('/admin/themes?app=demo');
    await expect(page.getByRole('heading', { name: 'Themes', level: 1 })).toBeVisible();
    await inBothSchemes(page, async (colorScheme) => {
      await expectAccessible(page, `${colorScheme} /admin/themes`);
    });
    await page.getByRole('button', { name: 'New theme' }).click();
    await expect(page.getByRole('dialog', { name: 'New theme' })).toBeVisible();
    await inBothSchemes(page, async (colorScheme) => {
      await expectAccessible(page, `${colorScheme} theme dialog`, '[role=dialog]');
    });
  });
});
