// The Missions list's status words mean one thing each (issue 37, item 5):
// Live is what players see now, Scheduled a mission whose campaign has not
// started, and what the draft changes is said apart: "Changed in draft" or
// "Added in draft", and a reward the draft changes marked Draft with the live
// one beside it. A mission of a campaign that has not started was badged
// "Live", and the Reward column showed the draft's 120 coins next to it.
import { createApp, expect, expectAccessible, inBothSchemes, test, uniqueSuffix } from './fixtures';

const DAY = 86_400_000;

test.use({ viewport: { width: 1440, height: 900 } });

test('Missions: Live, Scheduled and the draft’s changes each said once; a changed reward shows the live one beside it', async ({ pageAs, request }) => {
  const appId = `status-${uniqueSuffix()}`;
  const now = Date.now();
  await createApp(request, appId, `Status ${appId}`, {
    campaigns: [
      { id: 'harvest', title: 'Harvest week', startAt: now - DAY, endAt: now + 7 * DAY },
      { id: 'frost-cup', title: 'Frost cup', startAt: now + 5 * DAY, endAt: now + 9 * DAY },
    ],
    missions: [
      { id: 'win-today', title: 'Win a match', campaignId: 'harvest', criteria: { eventName: 'match_won', count: 1 }, reward: { kind: 'currency', currency: 'coins', amount: 100 } },
      { id: 'frost-entry', title: 'Enter the Frost cup', campaignId: 'frost-cup', criteria: { eventName: 'cup_joined', count: 1 }, reward: { kind: 'currency', currency: 'coins', amount: 100 } },
      { id: 'log-in', title: 'Log in', criteria: { eventName: 'login', count: 1 }, reward: { kind: 'currency', currency: 'coins', amount: 10 } },
    ],
  });

  const page = await pageAs('editor');
  await page.goto(`/admin/missions?app=${appId}`);
  const row = (title: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name: title, exact: true }) });
  const status = (title: string) => row(title).getByRole('cell').nth(4);
  const reward = (title: string) => row(title).getByRole('cell').nth(2);

  // Without a draft: the Frost cup's mission will start, the others are live.
  await expect(status('Enter the Frost cup')).toContainText('Scheduled');
  await expect(status('Enter the Frost cup')).toContainText('Starts');
  await expect(status('Enter the Frost cup')).not.toContainText('Live');
  await expect(status('Win a match')).toHaveText('Live');
  await expect(status('Log in')).toHaveText('Live');

  // The draft raises a reward (120 coins), changes the scheduled mission's reward too, and adds a mission.
  const origin = new URL(page.url()).origin;
  const put = async (id: string, mission: Record<string, unknown>) => {
    const res = await page.request.put(`/api/admin/apps/${appId}/draft/missions/${id}`, { headers: { Origin: origin }, data: mission });
    expect(res.status(), await res.text()).toBe(200);
  };
  await put('win-today', { id: 'win-today', title: 'Win a match', campaignId: 'harvest', criteria: { eventName: 'match_won', count: 1 }, reward: { kind: 'currency', currency: 'coins', amount: 120 } });
  await put('frost-entry', { id: 'frost-entry', title: 'Enter the Frost cup', campaignId: 'frost-cup', criteria: { eventName: 'cup_joined', count: 1 }, reward: { kind: 'currency', currency: 'coins', amount: 150 } });
  await put('first-chest', { id: 'first-chest', title: 'Open a chest', criteria: { eventName: 'chest_opened', count: 1 }, reward: { kind: 'currency', currency: 'gems', amount: 5 } });
  await page.reload();

  // Live now, and the draft's change said apart: its reward marked Draft, the live one beside it.
  await expect(status('Win a match')).toContainText('Live');
  await expect(status('Win a match')).toContainText('Changed in draft');
  await expect(reward('Win a match')).toHaveText(/^120 coins\s*Draft\s*Live: 100 coins$/);
  // Scheduled stays scheduled whatever the draft changes; its reward too is the draft's beside the live one.
  await expect(status('Enter the Frost cup')).toContainText('Scheduled');
  await expect(status('Enter the Frost cup')).toContainText('Changed in draft');
  await expect(status('Enter the Frost cup')).not.toContainText('Live');
  await expect(reward('Enter the Frost cup')).toHaveText(/^150 coins\s*Draft\s*Live: 100 coins$/);
  // Only in the draft: no live status at all.
  await expect(status('Open a chest')).toHaveText('Added in draft');
  await expect(reward('Open a chest')).toHaveText(/^5 gems\s*Draft\s*Live: none$/);
  // Unchanged: the live reward, no mark.
  await expect(status('Log in')).toHaveText('Live');
  await expect(reward('Log in')).toHaveText('10 coins');

  // The list's filter says "Not archived", not "Live" (which is what players see now).
  await page.getByRole('combobox', { name: 'Status' }).click();
  await expect(page.getByRole('option')).toHaveText(['Not archived', 'Archived', 'Archived or not']);
  await page.keyboard.press('Escape');
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `missions with a scheduled mission and draft changes (${colorScheme})`);
  });

  // The dashboard's list of the live catalog says the same words.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Dashboard', exact: true }).click();
  const listed = (title: string) => page.getByRole('listitem').filter({ hasText: title });
  await expect(listed('Enter the Frost cup')).toContainText('Scheduled');
  await expect(listed('Enter the Frost cup')).not.toContainText('Live');
  await expect(listed('Win a match')).toContainText('Live');
  await expect(page.getByText('Missions: 2 live, 1 scheduled; 1 live campaigns, 1 scheduled.', { exact: false })).toBeVisible();
});

test('Campaigns: the status is the live campaign’s; a campaign only in the draft has no phase, and dates the draft moves show the live ones beside them', async ({ pageAs, request }) => {
  const appId = `cstatus-${uniqueSuffix()}`;
  const now = Date.now();
  const frost = { id: 'frost-cup', title: 'Frost cup', startAt: now + 5 * DAY, endAt: now + 9 * DAY };
  await createApp(request, appId, `Campaign status ${appId}`, {
    missions: [],
    campaigns: [{ id: 'harvest', title: 'Harvest week', startAt: now - DAY, endAt: now + 7 * DAY }, frost],
  });

  const page = await pageAs('editor');
  await page.goto(`/admin/campaigns?app=${appId}`);
  // The console's date and time, as the reader's browser writes it (components/console/format.ts).
  const shown = (ms: number) =>
    page.evaluate((t) => new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' }).format(t), ms);
  const row = (title: string) => page.getByRole('row').filter({ hasText: title });
  const status = (title: string) => row(title).getByRole('cell').nth(1);
  const schedule = (title: string) => row(title).getByRole('cell').nth(2);
  await expect(status('Frost cup')).toHaveText(`ScheduledStarts ${await shown(frost.startAt)}`);
  await expect(status('Harvest week')).toHaveText('Live');

  // The draft moves the Frost cup's start to yesterday and adds a campaign that would be live once published.
  const origin = new URL(page.url()).origin;
  const put = async (campaign: Record<string, unknown>) => {
    const res = await page.request.put(`/api/admin/apps/${appId}/draft/campaigns/${campaign.id as string}`, { headers: { Origin: origin }, data: campaign });
    expect(res.status(), await res.text()).toBe(200);
  };
  const movedStart = now - DAY;
  await put({ ...frost, startAt: movedStart });
  await put({ id: 'spring-fair', title: 'Spring fair', startAt: now - DAY, endAt: now + 3 * DAY });
  await page.reload();

  // Players still see the Frost cup scheduled: the live phase, then the draft's change said apart.
  await expect(status('Frost cup')).toHaveText(`ScheduledStarts ${await shown(frost.startAt)}Changed in draft`);
  await expect(schedule('Frost cup')).toHaveText(`${await shown(movedStart)}to ${await shown(frost.endAt)}DraftLive: ${await shown(frost.startAt)} to ${await shown(frost.endAt)}`);
  // Only in the draft: no phase word, only the draft badge; its dates marked Draft, "Live: none".
  await expect(status('Spring fair')).toHaveText('Added in draft');
  await expect(schedule('Spring fair')).toContainText('Draft');
  await expect(schedule('Spring fair')).toContainText('Live: none');
  // Unchanged: the live phase and dates, no mark.
  await expect(status('Harvest week')).toHaveText('Live');
  await expect(schedule('Harvest week')).not.toContainText('Draft');

  // The timeline counts and badges what players see now too.
  const timeline = page.getByRole('list', { name: 'Campaign timeline' });
  const bar = (title: string) => timeline.getByRole('listitem').filter({ hasText: title });
  await expect(bar('Frost cup')).toContainText('Scheduled');
  await expect(bar('Spring fair')).toContainText('Added in draft');
  await expect(bar('Spring fair')).not.toContainText('Live');
  await expect(page.getByText(/^1\s*live$/)).toBeVisible();
  await expect(page.getByText(/^1\s*scheduled$/)).toBeVisible();

  // The status filter is about the live phase: "Live" lists the Harvest week only.
  await page.getByRole('combobox', { name: 'Filter by status' }).click();
  await page.getByRole('option', { name: 'Live' }).click();
  await expect(row('Harvest week')).toBeVisible();
  await expect(row('Spring fair')).toHaveCount(0);
  await expect(row('Frost cup')).toHaveCount(0);
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `campaigns with draft date changes (${colorScheme})`);
  });
});
