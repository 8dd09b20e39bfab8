// The Missions list at 1440 px (a common laptop): every column fits beside
// the sidebar, the Updated column and the row actions included, with the
// longest cells of each column (a scheduled campaign's start, a criteria cell
// with filters, an audience and prerequisites). Photographed, light and dark,
// into docs/screenshots (the embedded pass; test-results/screenshots on a shared database).
import path from 'node:path';
import { createApp, expect, inBothSchemes, test, uniqueSuffix } from './fixtures';

const DIR = process.env.DATABASE_URL ? path.join('test-results', 'screenshots') : path.join('docs', 'screenshots');
const DAY = 86_400_000;

test.beforeAll(({}, testInfo) => test.skip(testInfo.project.name !== 'npm start', 'the same Next.js page under both servers: checked under npm start'));

test('at 1440 px the Missions table fits: Updated is whole, beside Criteria, and nothing scrolls sideways', async ({ pageAs, request }) => {
  const appId = `width-${uniqueSuffix()}`;
  const now = Date.now();
  await createApp(request, appId, `Width ${appId}`, {
    campaigns: [
      { id: 'solar-cup', title: 'Solar Cup', startAt: now + 6 * DAY, endAt: now + 9 * DAY },
      { id: 'founders', title: 'Founders’ Month of the Northern Winter', startAt: now - 10 * DAY, endAt: now + 20 * DAY },
    ],
    missions: [
      { id: 'first-flight', title: 'First flight', criteria: { eventName: 'launch', count: 1 }, reward: { kind: 'currency', currency: 'credits', amount: 100 } },
      {
        id: 'ranked-wins-on-dust-in-the-evening',
        title: 'Win 3 ranked matches on Dust in the evening queue',
        campaignId: 'founders',
        prerequisites: ['first-flight'],
        criteria: { eventName: 'tournament_match_won', count: 3, window: 'weekly', filter: { mode: 'ranked', map: { in: ['dust', 'mirage'] } } },
        reward: { kind: 'currency', currency: 'gems', amount: 1250 },
      },
      { id: 'cup-entry', title: 'Enter the Solar Cup', campaignId: 'solar-cup', criteria: { eventName: 'tournament_joined', count: 1 }, reward: { kind: 'badge', badgeId: 'solar-cup-participant' } },
      { id: 'gold-rush', title: 'Collect 1,000 gold a day', criteria: { eventName: 'gold_earned', count: 1000, window: 'daily', aggregate: { op: 'sum', field: 'amount' } }, reward: { kind: 'item', itemId: 'golden-pickaxe', quantity: 1 } },
    ],
  });
  const page = await pageAs('editor');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/admin/missions?app=${appId}`);
  const table = page.getByRole('table');
  await expect(table.getByRole('row').filter({ hasText: 'Enter the Solar Cup' })).toContainText('Starts');
  await page.evaluate(() => document.fonts.ready);

  // Nothing scrolls sideways: the table is as wide as its container.
  const container = page.locator('[data-slot="table-container"]');
  const { scrollWidth, clientWidth } = await container.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  const box = (await container.boundingBox())!;
  // Updated: whole, inside the table, right of Criteria in every row; the row actions too.
  const header = (await page.getByRole('columnheader', { name: /Updated/ }).boundingBox())!;
  expect(header.x + header.width).toBeLessThanOrEqual(box.x + box.width);
  for (const row of await table.getByRole('row').filter({ has: page.locator('time') }).all()) {
    const criteria = (await row.getByTestId('mission-criteria').boundingBox())!;
    const updated = (await row.locator('time').boundingBox())!;
    expect(updated.x).toBeGreaterThanOrEqual(criteria.x + criteria.width);
    expect(updated.x + updated.width).toBeLessThanOrEqual(box.x + box.width);
    const actions = (await row.getByRole('button', { name: /^Actions for / }).boundingBox())!;
    expect(actions.x + actions.width).toBeLessThanOrEqual(box.x + box.width);
  }
  await inBothSchemes(page, async (colorScheme) => {
    await page.screenshot({ path: path.join(DIR, `missions-1440-${colorScheme}.png`), caret: 'hide', animations: 'disabled' });
  });
});
