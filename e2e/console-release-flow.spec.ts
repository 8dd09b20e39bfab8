// Issue 18's release flow in the console, against both servers: an editor
// changes a live mission in the mission editor, which saves into the draft
// (the editor first says how many players have progress on it; /v1 stays as
// it was, checked over real HTTP with a player's token); the Draft page's
// Impact panel replays the events this test sent (its numbers counted here);
// the draft is scheduled 20 s ahead and /v1 changes only after that time;
// then the previous release is restored and published, and /v1 is back.
// Axe on each new view light and dark; screenshots for the docs.
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { createApp, expect, expectAccessible, playerToken, test, uniqueSuffix, type CreatedApp } from './fixtures';

const DIR = process.env.DATABASE_URL ? path.join('test-results', 'screenshots') : path.join('docs', 'screenshots');

type V1Mission = { id: string; title: string; criteria: { count: number } };

async function liveMissions(request: APIRequestContext, auth: Record<string, string>): Promise<Array<[string, string, number]>> {
  const res = await request.get('/v1/missions', { headers: auth });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { missions: V1Mission[] }).missions.map((m) => [m.id, m.title, m.criteria.count]);
}

/**
 * Axe on the page (or `within`) in light then dark, each screenshot taken
 * after the colour transition ended (under `npm start`: the same pages under
 * both servers); back to light after.
 */
async function checkBothSchemes(page: Page, name: string, projectName: string, target?: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    // The resting state: the pointer off the button the test last clicked (a hovered button's colours are not what the page shows).
    await page.mouse.move(0, 0);
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await expectAccessible(page, `${name} (${colorScheme})`, target);
    if (projectName !== 'npm start') continue;
    await page.evaluate(() => document.fonts.ready);
    const file = path.join(DIR, `${name}-${colorScheme}.png`);
    if (target) await page.locator(target).first().screenshot({ path: file, caret: 'hide', animations: 'disabled' });
    else await page.screenshot({ path: file, caret: 'hide', animations: 'disabled', fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('an editor changes a live mission in the draft, checks its impact, schedules it 20 s ahead; /v1 follows only then; restoring the previous release brings it back', async ({ request, pageAs }, testInfo) => {
  test.setTimeout(300_000);
  const app: CreatedApp = await createApp(request, `release-flow-${uniqueSuffix()}`, 'Release flow', {
    missions: [
      { id: 'ranked-ace', title: 'Ranked ace', criteria: { eventName: 'match_won', count: 2 }, reward: { kind: 'currency', currency: 'gems', amount: 100 } },
      { id: 'daily-login', title: 'Daily login', criteria: { eventName: 'login', count: 1, window: 'daily' }, reward: { kind: 'currency', currency: 'coins', amount: 5 } },
    ],
    campaigns: [],
  });

  // Real events: three players win 3, 2 and 1 ranked matches. With the live count (2), two complete
  // Ranked ace (200 gems); with the draft's count (3), only the first (100 gems); the third is counting either way.
  const auths: Record<string, string>[] = [];
  for (const [userId, wins] of [['ace-1', 3], ['ace-2', 2], ['ace-3', 1]] as const) {
    const auth = { Authorization: `Bearer ${await playerToken(request, app, userId)}` };
    auths.push(auth);
    for (let i = 0; i < wins; i++) {
      const sent = await request.post('/v1/events', { headers: auth, data: { userId, name: 'match_won', payload: { i }, timestamp: Date.now() } });
      expect(sent.status(), await sent.text()).toBe(200);
    }
  }
  const player = auths[0];
  const before = await liveMissions(request, player);
  expect(before).toEqual([
    ['daily-login', 'Daily login', 1],
    ['ranked-ace', 'Ranked ace', 2],
  ]);

  // 1. The mission editor: players with progress on this live mission, then the change saved into the draft.
  const page = await pageAs('editor');
  await page.goto(`/admin/missions?app=${app.appId}`);
  await page.getByRole('link', { name: 'Ranked ace', exact: true }).click();
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue('Ranked ace');
  const notice = page.getByRole('status', { name: 'Players with progress on this mission' });
  await expect(notice).toContainText('3 players have progress on this mission now, 2 completed');
  await expect(notice).toContainText('1 counting, 2 completed and not claimed, 0 claimed');
  await expect(notice).toContainText('a higher target leaves completed ones completed');
  await page.getByLabel('Title', { exact: true }).fill('Ranked ace (3 wins)');
  await page.getByLabel('Count', { exact: true }).fill('3');
  await checkBothSchemes(page, 'mission-progress', testInfo.project.name, '[aria-label="Players with progress on this mission"]');
  await page.getByRole('button', { name: 'Save to draft' }).click();

  // 2. The list shows the draft's view: the row badged, the banner counting the change.
  await expect(page).toHaveURL(/\/admin\/missions\?app=/);
  const row = page.getByRole('row').filter({ hasText: 'Ranked ace (3 wins)' });
  await expect(row).toContainText('Changed in draft');
  await expect(row).toContainText('3 match_won events');
  await expect(page.getByRole('row').filter({ hasText: 'Daily login' })).not.toContainText('in draft');
  const banner = page.getByRole('status').filter({ hasText: '1 unpublished change' });
  await expect(banner).toBeVisible();
  await checkBothSchemes(page, 'draft-missions', testInfo.project.name);

  // Players see the live catalog only.
  expect(await liveMissions(request, player)).toEqual(before);

  // 3. The Draft page and its Impact panel over the events sent above.
  await banner.getByRole('link', { name: 'Review & publish' }).click();
  await expect(page.getByRole('heading', { name: 'Draft', level: 1 })).toBeVisible();
  const changes = page.getByRole('list', { name: 'Changes against live' });
  await expect(changes.getByRole('listitem')).toHaveCount(1);
  await expect(changes).toContainText('ranked-ace');
  await page.getByRole('button', { name: 'Replay events' }).click();
  await expect(page.getByRole('list', { name: 'Impact summary' }).getByRole('listitem')).toHaveText(['Ranked ace (3 wins): 2 → 1 player would have completed, 200 gems → 100 gems']);
  const impactRows = page.getByRole('table', { name: 'Impact' }).getByRole('row');
  await expect(impactRows).toHaveCount(2);
  await expect(impactRows.nth(1)).toContainText('Ranked ace (3 wins)');
  await checkBothSchemes(page, 'release-flow-draft', testInfo.project.name);
  await checkBothSchemes(page, 'draft-impact', testInfo.project.name, '[data-slot=card]:has(table[aria-label="Impact"])');

  // 4. Scheduled 20 s ahead (to the second): /v1 unchanged until then, changed after.
  const at = Math.ceil((Date.now() + 20_000) / 1000) * 1000;
  const d = new Date(at);
  const pad = (n: number) => String(n).padStart(2, '0');
  await page.getByLabel('Publish at').fill(`${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  // The draft card's line (a toast says "Scheduled for …" too).
  await expect(page.locator('[data-slot=card-description]').filter({ hasText: 'Scheduled for' })).toBeVisible();
  expect(Date.now()).toBeLessThan(at);
  expect(await liveMissions(request, player)).toEqual(before);
  // Polled: the first answer that differs must come at or after the scheduled time, and within 5 s of it (plus a poll).
  let changedAt = 0;
  await expect
    .poll(
      async () => {
        const now = await liveMissions(request, player);
        if (JSON.stringify(now) === JSON.stringify(before)) return 'live';
        changedAt ||= Date.now();
        return JSON.stringify(now);
      },
      { timeout: at - Date.now() + 15_000, intervals: [500] },
    )
    .toBe(
      JSON.stringify([
        ['daily-login', 'Daily login', 1],
        ['ranked-ace', 'Ranked ace (3 wins)', 3],
      ]),
    );
  expect(changedAt).toBeGreaterThanOrEqual(at);
  expect(changedAt).toBeLessThan(at + 5_000 + 2_000);

  // 5. Revert: release 1 restored into the draft, published; /v1 is back.
  await page.goto(`/admin/releases?app=${app.appId}`);
  const releases = page.getByRole('table', { name: 'Releases' });
  await expect(releases.getByRole('row')).toHaveCount(3);
  await expect(releases.getByRole('row').nth(1)).toContainText('(live)');
  await expect(releases.getByRole('row').nth(1)).toContainText('ranked-ace');
  await checkBothSchemes(page, 'release-flow-releases', testInfo.project.name);
  await page.getByRole('button', { name: 'Restore release 1 into the draft' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Restore into the draft' }).click();
  await expect(page).toHaveURL(/\/admin\/draft/);
  await expect(page.getByRole('list', { name: 'Changes against live' }).getByRole('listitem')).toHaveCount(1);
  expect((await liveMissions(request, player))[1]).toEqual(['ranked-ace', 'Ranked ace (3 wins)', 3]);
  await page.getByRole('button', { name: 'Publish now' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Publish now' }).click();
  await expect(page.getByText('No draft')).toBeVisible();
  await expect.poll(() => liveMissions(request, player)).toEqual(before);

  // Nothing a player earned changed along the way: the first ace completed under both rules claims once.
  const claim = await request.post('/v1/missions/ranked-ace/claim', { headers: player });
  expect(claim.status(), await claim.text()).toBe(200);
});
