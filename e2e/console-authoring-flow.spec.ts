// Issue 7's authoring story end to end, in one test: an editor, through the
// console only (no JSON), creates a theme preset, a live campaign using it and
// a mission in that campaign with an event-name criterion, a filter and a
// currency reward, all saved into the draft (nothing in /v1 yet), and
// publishes the draft from the Draft page; then a fresh player, over real HTTP /v1, sees the campaign
// with the preset's colours resolved and the mission in it, an event that
// fails the filter changes nothing, matching events advance and complete the
// mission, and the claim credits the balance.
//
// Only the app itself is made with the admin key (apps are an admin screen,
// not an editor's); its id is unique per run, so every id inside it is too.
import { createApp, expect, localInput, pickEconomy, playerToken, test, uniqueSuffix } from './fixtures';

const DAY = 86_400_000;

test('an editor authors a themed campaign and a filtered mission through the UI; a player sees, progresses and claims it through /v1', async ({ pageAs, request }) => {
  test.setTimeout(180_000); // a whole authoring session plus the player's round trips, on a loaded machine
  const suffix = uniqueSuffix();
  // The app defines its currency (the reward's currency is a picker of the defined ones, issue 39 §1).
  const app = await createApp(request, `authoring-${suffix}`, `Authoring ${suffix}`, { currencies: [{ id: 'crystals', name: 'Crystals' }] });
  const page = await pageAs('editor');
  const nav = page.getByRole('navigation', { name: 'Console' });

  // 1. A theme preset.
  const themeName = `Glacier ${suffix}`;
  const themeId = themeName.toLowerCase().replace(/ /g, '-');
  await page.goto(`/admin/themes?app=${app.appId}`);
  await expect(page.getByRole('heading', { name: 'Themes', level: 1 })).toBeVisible();
  await expect(page.getByText('No theme yet')).toBeVisible();
  await page.getByRole('button', { name: 'New theme' }).click();
  const themeDialog = page.getByRole('dialog', { name: 'New theme' });
  await themeDialog.getByLabel('Name').fill(themeName);
  await expect(themeDialog.getByLabel('Theme ID')).toHaveValue(themeId);
  await themeDialog.getByRole('textbox', { name: 'Primary colour', exact: true }).fill('#1d4ed8');
  await themeDialog.getByRole('textbox', { name: 'Accent colour', exact: true }).fill('#f472b6');
  await themeDialog.getByRole('textbox', { name: 'Background colour', exact: true }).fill('#0f172a');
  await expect(themeDialog.getByTestId('campaign-card-preview').getByText('Claim 50 gems')).toHaveCSS('background-color', 'rgb(29, 78, 216)');
  await themeDialog.getByRole('button', { name: 'Save to draft' }).click();
  await expect(themeDialog).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: themeName })).toBeVisible();

  // 2. A campaign using it, live now (started yesterday, ends in a week).
  const campaignTitle = 'Glacier Week';
  const campaignId = 'glacier-week';
  await nav.getByRole('link', { name: 'Campaigns' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/campaigns\\?app=${app.appId}`));
  await page.getByRole('button', { name: 'New campaign' }).click();
  const campaignDialog = page.getByRole('dialog', { name: 'New campaign' });
  await campaignDialog.getByLabel('Title').fill(campaignTitle);
  await expect(campaignDialog.getByLabel('Campaign ID')).toHaveValue(campaignId);
  await campaignDialog.getByLabel('Description').fill('Cold runs, warm rewards.');
  const now = Date.now();
  await campaignDialog.getByLabel('Starts').fill(localInput(now - DAY));
  await campaignDialog.getByLabel('Ends').fill(localInput(now + 7 * DAY));
  await expect(campaignDialog.getByText('This app has no mission yet.')).toBeVisible();
  await campaignDialog.getByLabel('A theme preset').check();
  await campaignDialog.getByLabel('Theme preset', { exact: true }).selectOption(themeId);
  await expect(campaignDialog.getByTestId('campaign-card-preview').getByText(campaignTitle)).toBeVisible();
  await campaignDialog.getByRole('button', { name: 'Save to draft' }).click();
  await expect(campaignDialog).toBeHidden();
  const campaignRow = page.getByRole('row').filter({ hasText: campaignTitle });
  // Only in the draft: players see nothing of it yet, so no phase word (issue 37), only the draft's badge and dates.
  await expect(campaignRow.getByRole('cell').nth(1)).toHaveText('Added in draft');
  await expect(campaignRow.getByRole('cell').nth(2)).toContainText('Live: none');
  await expect(campaignRow.getByText(themeName)).toBeVisible();

  // 3. A mission in that campaign: event name, count, a filter row, a currency reward.
  const missionTitle = 'Two ranked wins';
  const missionId = 'two-ranked-wins';
  await nav.getByRole('link', { name: 'Missions' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/missions\\?app=${app.appId}`));
  await expect(page.getByText('No mission yet')).toBeVisible();
  await page.getByRole('link', { name: 'New mission' }).click();
  await expect(page.getByRole('heading', { name: 'New mission', level: 1 })).toBeVisible();
  await page.getByLabel('Title', { exact: true }).fill(missionTitle);
  await expect(page.getByLabel('Mission ID', { exact: true })).toHaveValue(missionId);
  await page.getByLabel('Event name', { exact: true }).fill('match_won');
  await page.getByLabel('Count', { exact: true }).fill('2');
  await page.getByRole('button', { name: 'Add filter' }).click();
  await page.getByLabel('Filter 1 payload path').fill('mode');
  await expect(page.getByRole('combobox', { name: 'Filter 1 operator' })).toHaveText(/equals/);
  await page.getByLabel('Filter 1 value').fill('ranked');
  await expect(page.getByRole('combobox', { name: 'Reward kind' })).toHaveText(/Currency/);
  await pickEconomy(page, page.getByRole('combobox', { name: 'Currency', exact: true }), 'crystals');
  await page.getByLabel('Amount', { exact: true }).fill('75');
  const campaignSelect = page.getByRole('combobox', { name: 'Campaign', exact: true });
  await campaignSelect.click();
  await page.getByRole('option', { name: campaignTitle }).click();
  await expect(campaignSelect).toHaveText(new RegExp(campaignTitle));
  const preview = page.getByRole('region', { name: 'Player preview' });
  await expect(preview).toContainText(missionTitle);
  await expect(preview).toContainText('0 / 2');
  await expect(preview).toContainText('75 crystals');
  await page.getByRole('button', { name: 'Save to draft' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/missions\\?app=${app.appId}`));
  const missionRow = page.getByRole('row').filter({ hasText: missionTitle });
  await expect(missionRow).toContainText(campaignTitle);
  await expect(missionRow).toContainText('75 crystals');
  await expect(missionRow).toContainText('Added in draft');

  // 4. All of it is in the draft: a player sees nothing until it is published, from the Draft page.
  const userId = `player-${suffix}`;
  const auth = { Authorization: `Bearer ${await playerToken(request, app, userId)}` };
  expect(((await (await request.get('/v1/campaigns', { headers: auth })).json()) as { campaigns: unknown[] }).campaigns).toEqual([]);
  expect(((await (await request.get('/v1/missions', { headers: auth })).json()) as { missions: unknown[] }).missions).toEqual([]);
  await page.getByRole('status').filter({ hasText: '3 unpublished changes' }).getByRole('link', { name: 'Review & publish' }).click();
  await expect(page.getByRole('heading', { name: 'Draft', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Publish now' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Publish now' }).click();
  await expect(page.getByText('No draft')).toBeVisible();

  // 5. A fresh player of the app, over real HTTP.
  const campaignsRes = await request.get('/v1/campaigns', { headers: auth });
  expect(campaignsRes.status(), await campaignsRes.text()).toBe(200);
  const { campaigns } = (await campaignsRes.json()) as { campaigns: Record<string, unknown>[] };
  expect(campaigns).toEqual([
    expect.objectContaining({
      id: campaignId,
      title: campaignTitle,
      description: 'Cold runs, warm rewards.',
      missionIds: [missionId],
      theme: { primaryColor: '#1d4ed8', accentColor: '#f472b6', backgroundColor: '#0f172a' },
    }),
  ]);
  expect(campaigns[0]).not.toHaveProperty('themeId');

  const missionsRes = await request.get(`/v1/missions?campaignId=${campaignId}`, { headers: auth });
  expect(missionsRes.status(), await missionsRes.text()).toBe(200);
  const listed = (await missionsRes.json()) as { missions: Record<string, unknown>[]; progress: Record<string, unknown> };
  expect(listed.missions).toEqual([
    expect.objectContaining({
      id: missionId,
      title: missionTitle,
      campaignId,
      criteria: expect.objectContaining({ eventName: 'match_won', count: 2, filter: { mode: 'ranked' } }),
      reward: { kind: 'currency', currency: 'crystals', amount: 75, name: 'Crystals' }, // the defined currency's display name (issue 39 §1)
      locked: false,
    }),
  ]);
  expect(listed.progress).toEqual({});

  const send = async (mode: string): Promise<string[]> => {
    const res = await request.post('/v1/events', { headers: auth, data: { userId, name: 'match_won', payload: { mode }, timestamp: Date.now() } });
    expect(res.status(), await res.text()).toBe(200);
    return ((await res.json()) as { missionsUpdated: string[] }).missionsUpdated;
  };
  const progressOf = async (): Promise<Record<string, unknown> | null> => {
    const res = await request.get(`/v1/missions/${missionId}`, { headers: auth });
    expect(res.status(), await res.text()).toBe(200);
    return ((await res.json()) as { progress: Record<string, unknown> | null }).progress;
  };

  // An event the filter refuses: nothing changes.
  expect(await send('casual')).not.toContain(missionId);
  expect(await progressOf()).toBeNull();
  // Not claimable yet.
  const early = await request.post(`/v1/missions/${missionId}/claim`, { headers: auth });
  expect(early.status(), await early.text()).toBe(409);

  // Matching events advance it, then complete it.
  expect(await send('ranked')).toContain(missionId);
  expect(await progressOf()).toMatchObject({ status: 'active', currentCount: 1, targetCount: 2, progress: 0.5 });
  expect(await send('ranked')).toContain(missionId);
  expect(await progressOf()).toMatchObject({ status: 'completed', currentCount: 2, targetCount: 2, progress: 1 });

  // The claim credits the reward, once.
  const claim = await request.post(`/v1/missions/${missionId}/claim`, { headers: auth });
  expect(claim.status(), await claim.text()).toBe(200);
  expect(await claim.json()).toMatchObject({
    progress: { status: 'claimed', currentCount: 2 },
    balance: { currency: 'crystals', amount: 75 },
    reward: { kind: 'currency', currency: 'crystals', amount: 75 },
  });
  const balanceRes = await request.get('/v1/balance?currency=crystals', { headers: auth });
  expect(balanceRes.status(), await balanceRes.text()).toBe(200);
  expect(((await balanceRes.json()) as { balance: { amount: number } }).balance).toMatchObject({ userId, currency: 'crystals', amount: 75 });
  const again = await request.post(`/v1/missions/${missionId}/claim`, { headers: auth });
  expect(again.status()).toBe(409);
  expect(((await (await request.get('/v1/balance?currency=crystals', { headers: auth })).json()) as { balance: { amount: number } }).balance.amount).toBe(75);
});
