// The Inspector and the support desk for a player whose id is `..`, which no
// URL path can carry (the console names such a user as …/users/by-id?userId=,
// docs/api.md "Addressing a user"): an admin inspects the player (not the app,
// not a player named `export`), watches them live, grants, exports and
// erases them, and the player `export` keeps everything. Under both servers
// (the by-id form goes through the route table and the route files).
import { readFile } from 'node:fs/promises';
import { ADMIN_HEADERS, createApp, expect, pickEconomy, test, uniqueSuffix } from './fixtures';

const CATALOG = {
  missions: [
    {
      id: 'ranked-wins',
      title: 'Win 3 ranked matches',
      criteria: { eventName: 'match.won', count: 3, window: 'lifetime' },
      reward: { kind: 'currency', currency: 'gold', amount: 25 },
    },
  ],
};

test('an admin inspects, watches, grants, exports and erases the player `..`', async ({ pageAs, request }) => {
  const appId = `e2e-dots-${uniqueSuffix()}`;
  await createApp(request, appId, `Dots ${appId}`, CATALOG);
  // The players come into being through staff test events: `..` once, `export` twice.
  for (const [userId, times] of [['..', 1], ['export', 2]] as const) {
    for (let i = 0; i < times; i++) {
      const res = await request.post(`/api/admin/apps/${appId}/users/by-id/events?userId=${encodeURIComponent(userId)}`, { headers: ADMIN_HEADERS, data: { name: 'match.won', payload: {} } });
      expect(res.status(), await res.text()).toBe(200);
    }
  }

  const page = await pageAs('admin');
  await page.goto(`/admin/inspector?app=${appId}&user=..`);
  await expect(page.getByText(`Player .. in ${appId}`)).toBeVisible();
  await expect(page.locator('[data-mission="ranked-wins"]').getByTestId('mission-count')).toHaveText('1 / 3');
  await expect(page.getByTestId('live-state')).toHaveText('Live', { timeout: 30_000 });

  // A test event from the form reaches `..` (live, no reload): 2/3.
  await page.getByLabel('Event name').fill('match.won');
  await page.getByRole('button', { name: 'Send test event' }).click();
  await expect(page.locator('[data-mission="ranked-wins"]').getByTestId('mission-count')).toHaveText('2 / 3', { timeout: 30_000 });

  const grant = page.getByRole('form', { name: 'Grant or correct currency' });
  await pickEconomy(page, grant.getByLabel('Currency'), 'gold');
  await grant.getByLabel('Amount').fill('7');
  await grant.getByLabel('Reason').fill('Ticket 9001: dots in the id');
  await grant.getByRole('button', { name: 'Grant' }).click();
  // The confirmation names the player `..` and the effect (issue 39 §4).
  await expect(page.getByTestId('grant-effect')).toHaveText('gold: 0 → 7 for ..');
  await page.getByRole('dialog').getByRole('button', { name: 'Grant', exact: true }).click();
  await expect(page.getByTestId('balance-gold')).toHaveText('7', { timeout: 30_000 });

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export data' }).click();
  const exported = JSON.parse(await readFile((await (await download).path())!, 'utf8')) as { userId: string; events: unknown[]; ledger: Array<{ amount: number }> };
  expect([exported.userId, exported.events.length, exported.ledger.map((l) => l.amount)]).toEqual(['..', 2, [7]]);

  await page.getByRole('button', { name: 'Erase player…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Erase ..?' });
  await dialog.getByLabel('Reason').fill('Data-erasure request 2026-119');
  await dialog.getByRole('button', { name: 'Erase player' }).click();
  await expect(page.getByText('.. erased: 2 events, 1 ledger row, 0 notes removed')).toBeVisible();

  // The player `export` keeps its two events.
  const other = await request.get(`/api/admin/apps/${appId}/users/export`, { headers: ADMIN_HEADERS });
  expect(((await other.json()) as { events: unknown[] }).events).toHaveLength(2);
});
