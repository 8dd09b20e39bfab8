// The Inspector in a real browser (support role): events sent through /v1
// move the progress bars and reach the live panel without a reload; an event
// that fails a filter shows which key and what value; a claim through /v1
// changes balance and ledger; a test event is sent from the form; revoking
// from the inspector makes /v1 answer 401. Under both servers (the staff
// stream goes through the route table and through Next.js' route files).
import type { APIRequestContext, Page } from '@playwright/test';
import { createApp, expect, expectAccessible, playerToken, test, uniqueSuffix } from './fixtures';

const CATALOG = {
  missions: [
    {
      id: 'ranked-wins',
      title: 'Win 2 ranked matches',
      criteria: { eventName: 'match.won', count: 2, window: 'lifetime', filter: { mode: 'ranked' } },
      reward: { kind: 'currency', currency: 'gold', amount: 25 },
    },
    {
      id: 'encore',
      title: 'Encore',
      criteria: { eventName: 'match.won', count: 1, window: 'lifetime' },
      reward: { kind: 'currency', currency: 'gold', amount: 5 },
      prerequisites: ['ranked-wins'],
    },
  ],
};

async function setUp(request: APIRequestContext) {
  const appId = `e2e-insp-${uniqueSuffix()}`;
  const app = await createApp(request, appId, `Inspector ${appId}`, CATALOG);
  const userId = `player-${uniqueSuffix()}`;
  const auth = { Authorization: `Bearer ${await playerToken(request, app, userId)}` };
  const send = async (payload: Record<string, unknown>) => {
    const res = await request.post('/v1/events', { headers: auth, data: { userId, name: 'match.won', payload, timestamp: Date.now() } });
    expect(res.status()).toBe(200);
    return (await res.json()) as { eventId: string };
  };
  return { appId, userId, auth, send };
}

const mission = (page: Page, id: string) => page.locator(`[data-mission="${id}"]`);

test('support answers “why didn’t my mission progress?” live, then claims show up and a revoke ends the player’s tokens', async ({ pageAs, request }, testInfo) => {
  const { appId, userId, auth, send } = await setUp(request);
  const page = await pageAs('support');

  // Look the player up with the form; the URL keeps app and user so it can be shared.
  await page.goto('/admin/inspector');
  await page.getByLabel('App', { exact: true }).selectOption(appId);
  await page.getByLabel('User ID').fill(userId);
  await page.getByRole('button', { name: 'Inspect' }).click();
  await expect(page).toHaveURL(new RegExp(`\\?app=${appId}&user=${userId}$`));
  await expect(mission(page, 'ranked-wins').getByTestId('mission-count')).toHaveText('0 / 2');
  await expect(mission(page, 'encore')).toContainText('locked');
  await expect(mission(page, 'encore')).toContainText('Locked: claim “Win 2 ranked matches” first');
  await expect(page.getByTestId('live-state')).toHaveText('Live', { timeout: 30_000 });

  // A qualifying event through /v1: the live panel and the progress bar move, no reload.
  const navigations: string[] = [];
  page.on('framenavigated', (f) => f === page.mainFrame() && navigations.push(f.url()));
  await send({ mode: 'ranked' });
  const live = page.getByRole('log', { name: 'Live updates' });
  await expect(live).toContainText('mission.progress', { timeout: 30_000 });
  await expect(live).toContainText('“Win 2 ranked matches” 1 / 2');
  await expect(mission(page, 'ranked-wins').getByTestId('mission-count')).toHaveText('1 / 2');
  await expect(page.getByRole('progressbar', { name: 'Win 2 ranked matches progress' })).toHaveAttribute('aria-valuenow', '50');

  // An event that fails the filter changes nothing, yet the staff stream brings it (event.recorded): it shows up without a refresh, with the reason.
  const casual = await send({ mode: 'casual' });
  const row = page.locator(`[data-event="${casual.eventId}"]`);
  await expect(row).toContainText('counted for no mission');
  await row.locator('summary').click();
  const why = row.getByRole('list', { name: 'Why, mission by mission' });
  const verdictOf = (title: string) => why.getByRole('listitem').filter({ has: page.getByText(title, { exact: true }) });
  await expect(verdictOf('Win 2 ranked matches')).toContainText('Filter “mode” did not match: needs = "ranked", saw "casual"');
  await expect(verdictOf('Encore')).toContainText('Locked: “Win 2 ranked matches” not claimed yet');
  await expect(mission(page, 'ranked-wins').getByTestId('mission-count')).toHaveText('1 / 2');
  if (testInfo.project.name === 'npm start') await expectAccessible(page, 'inspector with an event explained');

  // Complete, then claim through /v1: balance and ledger change without a reload.
  await send({ mode: 'ranked' });
  await expect(live).toContainText('mission.completed', { timeout: 30_000 });
  await expect(mission(page, 'ranked-wins')).toContainText('completed');
  const claim = await request.post('/v1/missions/ranked-wins/claim', { headers: auth });
  expect(claim.status()).toBe(200);
  await expect(page.getByTestId('balance-gold')).toHaveText('25', { timeout: 30_000 });
  await expect(page.getByRole('table', { name: 'Ledger' })).toContainText('+25 gold');
  await expect(mission(page, 'ranked-wins')).toContainText('claimed');
  await expect(mission(page, 'encore')).not.toContainText('Locked');

  // A test event from the form goes through the real path: it counts for Encore and is marked "test".
  await page.getByLabel('Event name').fill('match.won');
  await page.getByLabel('Payload (JSON)').fill('{"mode":"casual"}');
  await page.getByRole('button', { name: 'Send test event' }).click();
  await expect(page.getByText('Test event recorded: advanced encore')).toBeVisible();
  await expect(mission(page, 'encore').getByTestId('mission-count')).toHaveText('1 / 1', { timeout: 30_000 });
  await expect(page.getByRole('list', { name: 'Recent events' }).getByRole('listitem').first()).toContainText('test');
  expect(navigations).toEqual([]);

  // Revoke with confirmation: the player's token answers 401 on /v1.
  expect((await request.get('/v1/balance', { headers: auth })).status()).toBe(200);
  await page.getByRole('button', { name: 'Revoke tokens' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(`Revoke every token of ${userId}?`);
  if (testInfo.project.name === 'npm start') await expectAccessible(page, 'inspector revoke dialog', '[role=alertdialog]');
  await dialog.getByRole('button', { name: 'Revoke tokens' }).click();
  await expect(page.getByText(`Every token of ${userId} issued so far is revoked`)).toBeVisible();
  const refused = await request.get('/v1/balance', { headers: auth });
  expect(refused.status()).toBe(401);
});

test('a shared link opens the same player; an editor is refused the inspector', async ({ pageAs, request }) => {
  const { appId, userId, send } = await setUp(request);
  await send({ mode: 'ranked' });
  const page = await pageAs('support');
  await page.goto(`/admin/inspector?app=${appId}&user=${userId}`);
  await expect(page.getByLabel('User ID')).toHaveValue(userId);
  await expect(mission(page, 'ranked-wins').getByTestId('mission-count')).toHaveText('1 / 2');
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Inspector' })).toHaveAttribute('aria-current', 'page');

  const editor = await pageAs('editor');
  await editor.goto(`/admin/inspector?app=${appId}&user=${userId}`);
  await expect(editor.getByRole('link', { name: 'Inspector' })).toHaveCount(0);
  await expect(editor.locator('[data-mission]')).toHaveCount(0);
  const api = await editor.request.get(`/api/admin/apps/${appId}/users/${userId}`);
  expect(api.status()).toBe(403);
});

test('a late event of yesterday is stored and explained: outside the current window of a daily mission', async ({ pageAs, request }, testInfo) => {
  const appId = `e2e-late-${uniqueSuffix()}`;
  const daily = { id: 'daily-win', title: 'Win a match today', criteria: { eventName: 'match.won', count: 1, window: 'daily' }, reward: { kind: 'currency', currency: 'gold', amount: 5 } };
  const app = await createApp(request, appId, `Late ${appId}`, { missions: [daily] });
  const userId = `player-${uniqueSuffix()}`;
  const auth = { Authorization: `Bearer ${await playerToken(request, app, userId)}` };
  // Yesterday 23:59:59.999 UTC: within the 24 h the server accepts, but yesterday's window is over.
  const lateAt = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 1;
  const res = await request.post('/v1/events', { headers: auth, data: { userId, name: 'match.won', payload: {}, timestamp: lateAt } });
  expect(res.status()).toBe(200);
  const { eventId, missionsUpdated } = (await res.json()) as { eventId: string; missionsUpdated: string[] };
  expect(missionsUpdated).toEqual([]);

  const page = await pageAs('support');
  await page.goto(`/admin/inspector?app=${appId}&user=${userId}`);
  const row = page.locator(`[data-event="${eventId}"]`);
  await expect(row).toContainText('counted for no mission');
  await row.locator('summary').click();
  await expect(row.getByRole('list', { name: 'Why, mission by mission' })).toContainText('Outside the current window: the event’s window (');
  await page.screenshot({ path: testInfo.outputPath('inspector-late-event.png'), fullPage: true });
});
