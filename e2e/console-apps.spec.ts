// The Apps screen: an admin creates an app and rotates its secret from the UI;
// each secret is shown once with a copy button, and the /v1 API agrees. An
// admin sets an app's webhook limit, and the webhook answers by it.
import { createHmac, randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { ADMIN_HEADERS, expect, expectAccessible, test, uniqueSuffix } from './fixtures';

async function tokenStatus(request: APIRequestContext, appId: string, appSecret: string): Promise<number> {
  return (await request.post('/v1/auth/token', { data: { appId, appSecret, userId: 'player-1' } })).status();
}

/** A signed delivery of `count` events to POST /v1/webhook/incoming (docs/webhooks.md): the answer's status. */
async function webhookStatus(request: APIRequestContext, appId: string, secret: string, count = 1): Promise<number> {
  return (await sendWebhook(request, appId, secret, count)).status();
}

async function sendWebhook(request: APIRequestContext, appId: string, secret: string, count: number) {
  const events = Array.from({ length: count }, (_, i) => ({ userId: `player-${i % 10}`, name: 'match_played', payload: {}, timestamp: Date.now() }));
  const body = JSON.stringify({ events });
  const timestamp = String(Date.now());
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  const res = await request.post('/v1/webhook/incoming', {
    headers: { 'Content-Type': 'application/json', 'X-App-Id': appId, 'X-Webhook-Id': randomUUID(), 'X-Webhook-Timestamp': timestamp, 'X-Webhook-Signature': `v1=${signature}` },
    data: body,
  });
  return res;
}

/** The secret shown in the dialog under `label`, after checking its copy button puts it on the clipboard. */
async function copiedSecret(page: Page, label: string): Promise<string> {
  const dialog = page.getByRole('dialog');
  const row = dialog.locator('div.grid.gap-1\\.5').filter({ has: page.getByText(label, { exact: true }) });
  const value = (await row.getByTestId('secret-value').textContent())!.trim();
  expect(value.length).toBeGreaterThanOrEqual(32);
  await row.getByRole('button', { name: `Copy ${label}` }).click();
  await expect(row.getByRole('button', { name: `Copy ${label}` })).toContainText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);
  return value;
}

test('an admin creates an app and rotates its app and webhook secrets; secrets are shown once, with a copy button', async ({ pageAs, request }) => {
  const page = await pageAs('admin');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const appId = `nebula-${uniqueSuffix()}`;
  await page.goto('/admin/apps');
  await expect(page.getByRole('heading', { name: 'Apps', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'New app' }).click();
  const form = page.getByRole('dialog', { name: 'New app' });
  await form.getByLabel('Name').fill('Nebula Drift');
  await form.getByLabel('App ID').fill('not valid!');
  await form.getByRole('button', { name: 'Create app' }).click();
  // Validated with the API's own schema before anything is sent.
  await expect(form.getByText('letters, digits and _ . : - only', { exact: true })).toBeVisible();
  await form.getByLabel('App ID').fill(appId);
  await form.getByRole('button', { name: 'Create app' }).click();

  const shown = page.getByRole('dialog', { name: 'Nebula Drift is ready' });
  await expect(shown).toBeVisible();
  await expect(shown.getByText('Shown only once')).toBeVisible();
  await expectAccessible(page, 'secrets dialog', '[role=dialog]');
  const appSecret = await copiedSecret(page, 'App secret');
  const webhookSecret = await copiedSecret(page, 'Webhook secret');
  expect(webhookSecret).not.toBe(appSecret);
  expect(await tokenStatus(request, appId, appSecret)).toBe(200);

  await shown.getByRole('button', { name: /Done/ }).click();
  await expect(shown).toBeHidden();
  // Gone for good: not on the page, not in the API's list.
  await expect(page.getByText(appSecret)).toHaveCount(0);
  const row = page.getByRole('row').filter({ hasText: appId });
  await expect(row).toContainText('Nebula Drift');
  expect(JSON.stringify(await (await page.request.get('/api/admin/apps')).json())).not.toContain(appSecret);

  await row.getByRole('button', { name: `Actions for Nebula Drift (${appId})` }).click();
  await page.getByRole('menuitem', { name: 'Rotate app secret' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Rotate the app secret of Nebula Drift?' });
  await confirm.getByRole('button', { name: 'Rotate secret' }).click();
  const rotated = page.getByRole('dialog', { name: 'New app secret of Nebula Drift' });
  await expect(rotated).toBeVisible();
  const newSecret = await copiedSecret(page, 'App secret');
  expect(newSecret).not.toBe(appSecret);
  expect(await tokenStatus(request, appId, appSecret)).toBe(401);
  expect(await tokenStatus(request, appId, newSecret)).toBe(200);
  await page.keyboard.press('Escape');
  await expect(rotated).toBeHidden();
  await expect(page.getByText(newSecret)).toHaveCount(0);

  // The webhook secret, with the default grace period: both secrets sign for now.
  expect(await webhookStatus(request, appId, webhookSecret)).toBe(200);
  const actions = row.getByRole('button', { name: `Actions for Nebula Drift (${appId})` });
  await actions.click();
  await page.getByRole('menuitem', { name: 'Rotate webhook secret' }).click();
  let confirmWebhook = page.getByRole('alertdialog', { name: 'Rotate the webhook secret of Nebula Drift?' });
  await expect(confirmWebhook.getByLabel('Previous secret stays valid for')).toContainText('24 hours');
  await confirmWebhook.getByRole('button', { name: 'Rotate webhook secret' }).click();
  const rotatedWebhook = page.getByRole('dialog', { name: 'New webhook secret of Nebula Drift' });
  await expect(rotatedWebhook).toContainText('The previous secret is accepted until');
  const webhookSecret2 = await copiedSecret(page, 'Webhook secret');
  await rotatedWebhook.getByRole('button', { name: /Done/ }).click();
  expect(await webhookStatus(request, appId, webhookSecret2)).toBe(200);
  expect(await webhookStatus(request, appId, webhookSecret)).toBe(200);
  await expect(row.getByText('Previous still valid')).toBeVisible();

  // A leaked secret: no grace, the previous one stops at once.
  await actions.click();
  await page.getByRole('menuitem', { name: 'Rotate webhook secret' }).click();
  confirmWebhook = page.getByRole('alertdialog', { name: 'Rotate the webhook secret of Nebula Drift?' });
  await confirmWebhook.getByLabel('Previous secret stays valid for').click();
  await page.getByRole('option', { name: /None: it stops now/ }).click();
  await confirmWebhook.getByRole('button', { name: 'Rotate webhook secret' }).click();
  await expect(page.getByRole('dialog', { name: 'New webhook secret of Nebula Drift' })).toContainText('The previous secret no longer works');
  const webhookSecret3 = await copiedSecret(page, 'Webhook secret');
  expect(await webhookStatus(request, appId, webhookSecret2)).toBe(401);
  expect(await webhookStatus(request, appId, webhookSecret3)).toBe(200);
});

test('the app switcher keeps the chosen app in the URL and across pages', async ({ pageAs, request }) => {
  const appId = `switch-${uniqueSuffix()}`;
  const created = await request.post('/api/admin/apps', { headers: { Authorization: 'Bearer e2e-admin-key-0123456789abcdef' }, data: { id: appId, name: `Switch ${appId}` } });
  expect(created.status()).toBe(201);
  const page = await pageAs('support');
  await page.goto('/admin?app=demo');
  await page.getByRole('combobox', { name: 'Selected app' }).click();
  await page.getByRole('option', { name: new RegExp(`Switch ${appId}`) }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]app=${appId}`));
  await expect(page.getByText(`What players of Switch ${appId} are doing`, { exact: false })).toBeVisible();
  // A bare link remembers the choice.
  await page.goto('/admin');
  await expect(page.getByRole('combobox', { name: 'Selected app' })).toContainText(`Switch ${appId}`);
});

test('an admin sets an app’s webhook limit on the Apps screen; the webhook refuses past it and the default comes back', async ({ pageAs, request }) => {
  const appId = `limit-${uniqueSuffix()}`;
  const created = await request.post('/api/admin/apps', { headers: ADMIN_HEADERS, data: { id: appId, name: 'Comet League' } });
  expect(created.status()).toBe(201);
  const { webhookSecret } = (await created.json()) as { webhookSecret: string };
  const page = await pageAs('admin');
  await page.goto('/admin/apps');
  const row = page.getByRole('row').filter({ hasText: appId });
  await expect(row).toContainText('60,000 / min (default)');

  const open = async () => {
    await row.getByRole('button', { name: `Actions for Comet League (${appId})` }).click();
    await page.getByRole('menuitem', { name: 'Set webhook limit' }).click();
    return page.getByRole('dialog', { name: 'Webhook limit of Comet League' });
  };
  let dialog = await open();
  // Checked with the API's own schema before anything is sent.
  await dialog.getByLabel('Events per minute').fill('0');
  await dialog.getByRole('button', { name: 'Save limit' }).click();
  await expect(dialog.getByRole('alert')).toContainText('at least 1 event per minute');
  await dialog.getByLabel('Events per minute').fill('150');
  await expectAccessible(page, 'webhook limit dialog', '[role=dialog]');
  await page.screenshot({ path: test.info().outputPath('apps-webhook-limit-dialog.png') });
  await dialog.getByRole('button', { name: 'Save limit' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('150 / min');
  await page.screenshot({ path: test.info().outputPath('apps-webhook-limit.png') });

  // The webhook counts events against it: 100 pass, 100 more do not fit (429 with Retry-After in seconds).
  expect(await webhookStatus(request, appId, webhookSecret, 100)).toBe(200);
  const refused = await sendWebhook(request, appId, webhookSecret, 100);
  expect(refused.status()).toBe(429);
  const answer = (await refused.json()) as { error: string; retryAfterMs: number };
  expect(answer.error).toBe('rate_limited');
  expect(refused.headers()['retry-after']).toBe(String(Math.ceil(answer.retryAfterMs / 1000)));
  expect(refused.headers()['ratelimit-limit']).toBe('150');

  // Empty is the default again.
  dialog = await open();
  await expect(dialog.getByLabel('Events per minute')).toHaveValue('150');
  await dialog.getByLabel('Events per minute').fill('');
  await dialog.getByRole('button', { name: 'Save limit' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('60,000 / min (default)');
  expect(await webhookStatus(request, appId, webhookSecret, 100)).toBe(200);
});
