// The two-person rule in Chromium, against both servers (issue 39 §5): an app
// that requires approval turns the editor's "Ask for approval" into a request
// the draft screen shows as "Waiting for approval by another editor" with the
// same review (field diffs, the payout warning); the requester may only
// withdraw it; an admin approves it, acknowledging the warning, and only then
// players see the change. Axe on the page and the dialog, light and dark; a
// screenshot for the docs.
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { ADMIN_HEADERS, createApp, expect, expectAccessible, inBothSchemes, playerToken, test, type CreatedApp, uniqueSuffix } from './fixtures';

const coins = (amount: number) => ({ kind: 'currency', currency: 'coins', amount });
const playFive = (amount: number) => ({ id: 'play-5-matches', title: 'Play 5 matches', criteria: { eventName: 'match_played', count: 5 }, reward: coins(amount) });

async function shoot(page: Page, name: string, scheme: string, projectName: string): Promise<void> {
  if (projectName !== 'npm start') return;
  const dir = process.env.DATABASE_URL ? path.join('test-results', 'screenshots') : path.join('docs', 'screenshots');
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(250);
  await page.screenshot({ path: path.join(dir, `${name}-${scheme}.png`), caret: 'hide', animations: 'disabled', fullPage: true });
}

async function liveReward(request: APIRequestContext, app: CreatedApp): Promise<unknown> {
  const token = await playerToken(request, app, 'player-1');
  const res = await request.get('/v1/missions', { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { missions: Array<{ id: string; reward: unknown }> }).missions.find((m) => m.id === 'play-5-matches')?.reward;
}

test('a publish waits for another editor: the requester may only withdraw; an admin approves with the warning acknowledged, then players see it', async ({ request, pageAs }, testInfo) => {
  const app = await createApp(request, `approval-${uniqueSuffix()}`, 'Approval e2e', { missions: [playFive(100)], campaigns: [] });
  const on = await request.patch(`/api/admin/apps/${app.appId}`, { headers: ADMIN_HEADERS, data: { requireApproval: true } });
  expect(on.status(), await on.text()).toBe(200);
  const put = await request.put(`/api/admin/apps/${app.appId}/draft`, { headers: ADMIN_HEADERS, data: { missions: [playFive(10_000)], campaigns: [] } });
  expect(put.status(), await put.text()).toBe(200);

  // The editor asks: the confirmation says it waits, the warning is acknowledged in asking.
  const editor = await pageAs('editor');
  await editor.goto(`/admin/draft?app=${app.appId}`);
  await editor.getByRole('button', { name: 'Ask for approval' }).click();
  const ask = editor.getByRole('alertdialog');
  await expect(ask).toContainText('players see nothing until it is approved');
  await ask.getByRole('button', { name: 'Ask anyway' }).click();
  const waiting = editor.getByRole('heading', { name: 'Waiting for approval by another editor' });
  await expect(waiting).toBeVisible();
  await expect(editor.getByText('You asked for it: another editor or admin approves it.')).toBeVisible();
  await expect(editor.getByRole('button', { name: 'Approve and publish' })).toHaveCount(0);
  expect(await liveReward(request, app)).toEqual(coins(100));

  // Another staff member (an admin) sees the same review and may approve or reject.
  const admin = await pageAs('admin');
  await admin.goto(`/admin/draft?app=${app.appId}`);
  await expect(admin.getByRole('heading', { name: 'Waiting for approval by another editor' })).toBeVisible();
  await expect(admin.getByRole('list', { name: 'In release 2, waiting for approval' })).toContainText('Reward: 100 coins → 10,000 coins');
  await expect(admin.getByRole('status', { name: 'Payout warnings of the request' })).toContainText('(×100)');
  await expect(admin.getByRole('button', { name: 'Reject' })).toBeVisible();
  await inBothSchemes(admin, async (colorScheme) => {
    await expectAccessible(admin, `${colorScheme} /admin/draft waiting for approval`);
    await shoot(admin, 'draft-approval', colorScheme, testInfo.project.name);
  });
  await admin.getByRole('button', { name: 'Approve and publish' }).click();
  const confirm = admin.getByRole('alertdialog');
  await expect(confirm).toContainText('(×100)');
  await inBothSchemes(admin, async (colorScheme) => {
    await expectAccessible(admin, `${colorScheme} approve dialog with a warning`, '[role=alertdialog]');
  });
  expect(await liveReward(request, app)).toEqual(coins(100));
  await confirm.getByRole('button', { name: 'Approve anyway' }).click();
  await expect(admin.getByText('No draft')).toBeVisible();
  await expect.poll(() => liveReward(request, app)).toEqual(coins(10_000));
});

test('a rejected request keeps its changes in the draft and shows the reason to the requester', async ({ request, pageAs }) => {
  const app = await createApp(request, `reject-${uniqueSuffix()}`, 'Reject e2e', { missions: [playFive(100)], campaigns: [] });
  expect((await request.patch(`/api/admin/apps/${app.appId}`, { headers: ADMIN_HEADERS, data: { requireApproval: true } })).status()).toBe(200);
  expect((await request.put(`/api/admin/apps/${app.appId}/draft`, { headers: ADMIN_HEADERS, data: { missions: [playFive(150)], campaigns: [] } })).status()).toBe(200);
  // Asked through the admin API key (one requester); the editor rejects it.
  expect((await request.post(`/api/admin/apps/${app.appId}/draft/publish`, { headers: ADMIN_HEADERS, data: {} })).status()).toBe(202);
  const editor = await pageAs('editor');
  await editor.goto(`/admin/draft?app=${app.appId}`);
  await editor.getByRole('button', { name: 'Reject' }).click();
  const dialog = editor.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Reject' }).click();
  await expect(dialog).toContainText('Say why');
  await expectAccessible(editor, 'reject dialog', '[role=dialog]');
  await dialog.getByLabel('Reason').fill('Wait for the spring sale');
  await dialog.getByRole('button', { name: 'Reject' }).click();
  await expect(editor.getByRole('status', { name: 'Last request rejected' })).toContainText('Wait for the spring sale');
  await expect(editor.getByRole('list', { name: 'Changes against live' })).toContainText('Reward: 100 coins → 150 coins');
  await expect(editor.getByRole('button', { name: 'Ask for approval' })).toBeVisible();
  expect(await liveReward(request, app)).toEqual(coins(100));
});
