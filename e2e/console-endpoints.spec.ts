// The Apps screen's Endpoints section (outbound webhooks, docs/webhooks.md):
// an admin adds an endpoint pointing at a real local receiver (the signing
// secret shown once), a claim of an item reward reaches it as a signed
// reward.granted, the delivery log shows a failed attempt while the receiver
// answers 500, and Redeliver sends it again under the same id once it answers
// 200; the endpoint is deleted. Axe clean and screenshotted, light and dark
// (the page switched to dark at the check).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { verifyWebhook } from '../lib/sdk/backend';
import { createApp, expect, expectAccessible, inBothSchemes, playerToken, test, uniqueSuffix } from './fixtures';

const SHOTS = process.env.DATABASE_URL ? path.join('test-results', 'screenshots') : path.join('docs', 'screenshots');

interface Got {
  headers: http.IncomingHttpHeaders;
  body: string;
}

test.use({ viewport: { width: 1440, height: 1000 } });

test(`an admin adds an endpoint, sees a failed delivery and redelivers it`, async ({ pageAs, request }, testInfo) => {
  let status = 500;
  const got: Got[] = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/questline`;
    const appId = `forge-${uniqueSuffix()}`;
    const app = await createApp(request, appId, 'Iron Forge', {
      missions: [{ id: 'slay-boss', title: 'Slay the boss', criteria: { eventName: 'boss_killed', count: 1 }, reward: { kind: 'item', itemId: 'legendary-sword', quantity: 1 } }],
    });
    const page = await pageAs('admin');
    await page.goto('/admin/apps');
    const section = page.getByRole('region', { name: 'Endpoints' });
    await expect(section.getByRole('heading', { name: 'Endpoints' })).toBeVisible();
    await section.getByLabel('App').selectOption(appId);
    await section.getByLabel('Endpoint URL').fill('not a url');
    await section.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(section.getByRole('alert')).toContainText('url');
    await section.getByLabel('Endpoint URL').fill(url);
    await section.getByRole('button', { name: 'Add endpoint' }).click();
    const shown = page.getByRole('dialog', { name: 'Endpoint added' });
    await expect(shown.getByText('Shown only once')).toBeVisible();
    const secret = (await shown.getByTestId('secret-value').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await shown.getByRole('button', { name: /Done/ }).click();
    await expect(section.getByText(url)).toBeVisible();

    // A claim of the item reward: the receiver answers 500, the log says so.
    const userId = `p-${uniqueSuffix()}`;
    const token = await playerToken(request, app, userId);
    const auth = { Authorization: `Bearer ${token}` };
    expect((await request.post('/v1/events', { headers: auth, data: { userId, name: 'boss_killed', payload: {}, timestamp: Date.now() } })).status()).toBe(200);
    expect((await request.post('/v1/missions/slay-boss/claim', { headers: { ...auth, 'Idempotency-Key': 'e2e-claim' } })).status()).toBe(200);
    await expect.poll(() => got.length).toBeGreaterThanOrEqual(1);
    const first = await verifyWebhook(secret, got[0].headers as Record<string, string>, got[0].body);
    expect(first).toMatchObject({ type: 'reward.granted', userId, data: { reward: { itemId: 'legendary-sword' }, idempotencyKey: 'e2e-claim' } });

    await section.getByRole('button', { name: 'Deliveries' }).click();
    const row = section.getByRole('row').filter({ hasText: first.id });
    await expect(row).toContainText('pending');
    await expect(row).toContainText('answered 500');
    await inBothSchemes(page, async (colorScheme) => {
      await expectAccessible(page, `apps screen with endpoints (${colorScheme})`);
      if (testInfo.project.name === 'npm start') {
        await section.scrollIntoViewIfNeeded();
        await page.evaluate(() => document.fonts.ready);
        await section.screenshot({ path: path.join(SHOTS, `endpoints-${colorScheme}.png`), animations: 'disabled', caret: 'hide' });
      }
    });

    // The receiver is fixed: Redeliver sends it again under the same id.
    status = 200;
    const before = got.length;
    await row.getByRole('button', { name: `Redeliver ${first.id}` }).click();
    await expect.poll(() => got.length).toBeGreaterThan(before);
    expect(got.at(-1)!.headers['questline-webhook-id']).toBe(first.id);
    await expect(row).toContainText('delivered', { timeout: 20_000 });

    await section.getByRole('button', { name: `Delete endpoint ${url}` }).click();
    await page.getByRole('alertdialog', { name: 'Delete this endpoint?' }).getByRole('button', { name: 'Delete endpoint' }).click();
    await expect(section.getByText('No endpoint yet')).toBeVisible();
  } finally {
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});
