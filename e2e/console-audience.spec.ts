// The audience builder (mission and campaign forms) and the inspector's
// attributes card, in Chromium: built with the keyboard and mouse, saved
// into the draft and published through the admin API, enforced by /v1 for players whose attributes the
// game backend set; axe clean light and dark, with screenshots.
import path from 'node:path';
import type { Page } from '@playwright/test';
import { ADMIN_HEADERS, createApp, expect, expectAccessible, inBothSchemes, publishDraft, test, uniqueSuffix } from './fixtures';

const DIR = process.env.DATABASE_URL ? path.join('test-results', 'screenshots') : path.join('docs', 'screenshots');

test.beforeAll(({}, testInfo) => test.skip(testInfo.project.name !== 'npm start', 'the same pages under both servers'));

async function shoot(page: Page, name: string, scheme: string, clip?: string): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(250);
  const options = { path: path.join(DIR, `${name}-${scheme}.png`), caret: 'hide' as const, animations: 'disabled' as const };
  if (clip) await page.locator(clip).first().screenshot(options);
  else await page.screenshot(options);
}

test.use({ viewport: { width: 1440, height: 1000 } });

test(`a mission for iOS players from level 10, a campaign for Germany, and the inspector's attributes`, async ({ pageAs, request }) => {
  const appId = `aud-${uniqueSuffix()}`;
  const app = await createApp(request, appId, `Audience ${appId}`, { missions: [], campaigns: [], currencies: [{ id: 'gems', name: 'Gems' }] });
  const page = await pageAs('editor');

  await page.goto(`/admin/missions/new?app=${appId}`);
  await page.getByLabel('Title', { exact: true }).fill('iOS veterans');
  await page.getByLabel('Event name', { exact: true }).fill('match_won');
  await page.getByRole('button', { name: 'Add audience rule' }).click();
  await page.getByLabel('Audience rule 1 attribute').fill('platform');
  await page.getByLabel('Audience rule 1 value').fill('ios');
  await page.getByRole('button', { name: 'Add audience rule' }).click();
  await page.getByLabel('Audience rule 2 attribute').fill('level');
  await page.getByRole('combobox', { name: 'Audience rule 2 operator' }).click();
  await page.getByRole('option', { name: /≥/ }).click();
  await page.getByLabel('Audience rule 2 value').fill('10');
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `${colorScheme} mission editor with an audience`);
    await page.getByRole('group', { name: 'Audience rule 2' }).scrollIntoViewIfNeeded();
    await shoot(page, 'audience-builder', colorScheme, 'fieldset:has(legend:text-is("Audience"))');
  });
  await page.getByRole('button', { name: 'Save to draft' }).click();
  await expect(page).toHaveURL(/\/admin\/missions\?app=/);
  // Saved into the draft: live only once published.
  expect((await request.get(`/api/admin/apps/${appId}/missions/ios-veterans`, { headers: ADMIN_HEADERS })).status()).toBe(404);
  await publishDraft(page, appId);
  const stored = await (await request.get(`/api/admin/apps/${appId}/missions/ios-veterans`, { headers: ADMIN_HEADERS })).json();
  expect(stored.audience).toEqual({ platform: 'ios', level: { gte: 10 } });

  // The game backend sets attributes with the token request; /v1 enforces the audience.
  const tokenFor = async (userId: string, attributes: Record<string, unknown>) => {
    const res = await request.post('/v1/auth/token', { data: { appId: app.appId, appSecret: app.appSecret, userId, attributes } });
    expect(res.status(), await res.text()).toBe(200);
    return { Authorization: `Bearer ${(await res.json()).accessToken}` };
  };
  const ids = async (auth: Record<string, string>) => ((await (await request.get('/v1/missions', { headers: auth })).json()).missions as Array<{ id: string }>).map((m) => m.id);
  expect(await ids(await tokenFor('vet', { platform: 'ios', level: 12, timezone: 'Asia/Tokyo' }))).toEqual(['ios-veterans']);
  expect(await ids(await tokenFor('newbie', { platform: 'ios', level: 2 }))).toEqual([]);

  // Editing shows the stored audience as rows again (in the stored key order: jsonb puts shorter keys first).
  await page.goto(`/admin/missions/edit?app=${appId}&id=ios-veterans`);
  await expect(page.getByLabel('Audience rule 1 attribute')).toHaveValue('level');
  await expect(page.getByRole('combobox', { name: 'Audience rule 1 operator' })).toHaveText(/≥/);
  await expect(page.getByLabel('Audience rule 1 value')).toHaveValue('10');
  await expect(page.getByLabel('Audience rule 2 attribute')).toHaveValue('platform');
  await expect(page.getByLabel('Audience rule 2 value')).toHaveValue('ios');

  // A campaign only for players in Germany.
  await page.goto(`/admin/campaigns?app=${appId}`);
  await page.getByRole('button', { name: 'New campaign' }).click();
  const dialog = page.getByRole('dialog', { name: 'New campaign' });
  await dialog.getByLabel('Title').fill('Oktoberfest');
  await dialog.getByRole('button', { name: 'Add audience rule' }).click();
  await dialog.getByLabel('Audience rule 1 attribute').fill('country');
  await dialog.getByLabel('Audience rule 1 value').fill('DE');
  await inBothSchemes(page, async (colorScheme) => {
    await expectAccessible(page, `${colorScheme} campaign dialog with an audience`, '[role=dialog]');
    await shoot(page, 'campaign-audience', colorScheme, '[role=dialog]');
  });
  await dialog.getByRole('button', { name: /Save to draft/ }).click();
  await expect(dialog).toBeHidden();
  await publishDraft(page, appId);
  const campaigns = await (await request.get(`/api/admin/apps/${appId}/campaigns`, { headers: ADMIN_HEADERS })).json();
  expect(campaigns.campaigns.find((c: { id: string }) => c.id === 'oktoberfest')?.audience).toEqual({ country: 'DE' });

  // The inspector: the player's attributes and the zone of their windows.
  const support = await pageAs('support');
  await support.goto(`/admin/inspector?app=${appId}&user=newbie`);
  await expect(support.getByTestId('player-zone')).toContainText('UTC');
  await expect(support.getByTestId('attribute-level')).toHaveText('2');
  await expect(support.getByText('Outside the audience of:')).toBeVisible();
  await support.goto(`/admin/inspector?app=${appId}&user=vet`);
  await expect(support.getByTestId('player-zone')).toContainText('Asia/Tokyo');
  await expect(support.getByTestId('attribute-platform')).toHaveText('"ios"');
  await inBothSchemes(support, async (colorScheme) => {
    await expectAccessible(support, `${colorScheme} inspector with attributes`);
    await shoot(support, 'inspector-attributes', colorScheme, '[data-slot=card]:has([data-testid=player-zone])');
  });
});
