// The Inspector reaches every stored event of a player, in a real browser
// (support role, both servers): past the newest 50 with "Show older events",
// then only the events of one name, then only those of a time range, and back
// to the live list when the filter is cleared.
import { createApp, expect, expectAccessible, playerToken, test, uniqueSuffix } from './fixtures';

const CATALOG = {
  missions: [{ id: 'wins', title: 'Win 100 matches', criteria: { eventName: 'match.won', count: 100, window: 'lifetime' }, reward: { kind: 'currency', currency: 'gold', amount: 5 } }],
};
const COUNT = 56;
const MINUTE = 60_000;
const pad = (n: number) => String(n).padStart(2, '0');
/** Unix ms as an <input type="datetime-local"> value in the browser's zone (the page's, set to UTC here). */
const localInput = (ms: number) => {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
};

test.use({ timezoneId: 'UTC' });

test('support pages back past the newest 50 events and filters them by name and by time', async ({ pageAs, request }, testInfo) => {
  const appId = `e2e-insp-ev-${uniqueSuffix()}`;
  const app = await createApp(request, appId, `Events ${appId}`, CATALOG);
  const userId = `player-${uniqueSuffix()}`;
  const auth = { Authorization: `Bearer ${await playerToken(request, app, userId)}` };
  // COUNT events a minute apart, starting on a whole minute two hours ago; every fourth a level.up.
  const base = Math.floor((Date.now() - 2 * 60 * MINUTE) / MINUTE) * MINUTE;
  const nameOf = (i: number) => (i % 4 === 0 ? 'level.up' : 'match.won');
  for (let i = 0; i < COUNT; i++) {
    const res = await request.post('/v1/events', { headers: auth, data: { userId, name: nameOf(i), payload: { i }, timestamp: base + i * MINUTE } });
    expect(res.status()).toBe(200);
  }
  const page = await pageAs('support');
  await page.goto(`/admin/inspector?app=${appId}&user=${userId}`);
  const recent = page.getByRole('list', { name: 'Recent events' });
  await expect(recent.getByRole('listitem')).toHaveCount(50);
  await expect(recent.getByRole('listitem').first()).toContainText(`{"i":${COUNT - 1}}`);

  // Older: the 6 before the newest 50, after them, then nothing more to show.
  await page.getByRole('button', { name: 'Show older events' }).click();
  await expect(recent.getByRole('listitem')).toHaveCount(COUNT);
  await expect(recent.getByRole('listitem').last()).toContainText('{"i":0}');
  await expect(page.getByRole('button', { name: 'Show older events' })).toHaveCount(0);

  // One name: only its events, newest first (not live).
  const filter = page.getByRole('form', { name: 'Filter events' });
  await filter.getByLabel('Name').fill('level.up');
  await filter.getByRole('button', { name: 'Filter' }).click();
  const matching = page.getByRole('list', { name: 'Matching events' });
  const levelUps = Array.from({ length: COUNT }, (_, i) => i).filter((i) => nameOf(i) === 'level.up');
  await expect(matching.getByRole('listitem')).toHaveCount(levelUps.length);
  await expect(matching.locator('summary code')).toHaveText(levelUps.map(() => 'level.up'));
  if (testInfo.project.name === 'npm start') await expectAccessible(page, 'inspector events filtered');

  // And a time range: from minute 10 (included) to minute 30 (excluded).
  await filter.getByLabel('From').fill(localInput(base + 10 * MINUTE));
  await filter.getByLabel('To').fill(localInput(base + 30 * MINUTE));
  await filter.getByRole('button', { name: 'Filter' }).click();
  const inRange = levelUps.filter((i) => i >= 10 && i < 30).reverse();
  await expect(matching.getByRole('listitem')).toHaveCount(inRange.length);
  for (const [k, i] of inRange.entries()) await expect(matching.getByRole('listitem').nth(k)).toContainText(`{"i":${i}}`);

  // Nothing matches: said plainly. Clear: the live list again, older events included.
  await filter.getByLabel('Name').fill('never.sent');
  await filter.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByText('No stored event of this player matches.')).toBeVisible();
  await filter.getByRole('button', { name: 'Clear' }).click();
  await expect(recent.getByRole('listitem')).toHaveCount(COUNT);
});
