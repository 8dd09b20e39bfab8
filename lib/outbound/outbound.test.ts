// Outbound webhooks over real HTTP against a real local receiver (embedded,
// or PostgreSQL/Redis with DATABASE_URL/REDIS_URL): a claim of an item reward
// delivers reward.granted signed (verified by the SDK's verifyWebhook), a
// currency claim balance.changed too, event completions and staff grants;
// an app without endpoints writes no row; a receiver failing three times gets
// the same id four times and the delivery is kept; private addresses are
// refused; the delivery log, redeliver and delete; the admin-only rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { webhookDeliveries } from '@/db/schema';
import { verifyWebhook, WebhookVerificationError } from '@/lib/sdk/backend';
import { campaign, mission } from '@/lib/testing/fixtures';
import { startReceiver, type Receiver } from '@/lib/testing/receiver';
import { asStaff, signedInStaff, type TestStaff } from '@/lib/testing/staff';
import { createTestApp, issueToken, startTestServer, uniqueId, userClient, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { afterWholeSweeps } from '@/lib/testing/sweeps';
import { isPrivateAddress } from './address';
import { retryDelayMs } from './worker';

let server: TestServer;
let support: TestStaff;
const saved = { allow: process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE, backoff: process.env.QUESTLINE_TEST_OUTBOUND_BACKOFF_MS };

beforeAll(async () => {
  // The receiver listens on 127.0.0.1: allowed here (and refused in the test that unsets it). Retries after 40 ms, 160 ms, 640 ms (jittered).
  process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE = '1';
  process.env.QUESTLINE_TEST_OUTBOUND_BACKOFF_MS = '40';
  server = await startTestServer();
  support = await signedInStaff(server, 'support');
});
afterAll(async () => {
  await server?.close();
  for (const [name, value] of [['OUTBOUND_WEBHOOK_ALLOW_PRIVATE', saved.allow], ['QUESTLINE_TEST_OUTBOUND_BACKOFF_MS', saved.backoff]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const admin = (method: string, route: string, body?: unknown) =>
  fetch(server.url + route, {
    method,
    headers: { Authorization: `Bearer ${server.adminKey}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const catalog = () => ({
  campaigns: [],
  missions: [
    mission('sword', { criteria: { eventName: 'boss_killed', count: 1 }, reward: { kind: 'item', itemId: 'legendary-sword', quantity: 1 } }),
    mission('gold', { criteria: { eventName: 'match_won', count: 1 }, reward: { kind: 'currency', currency: 'gold', amount: 25 } }),
  ],
});

async function endpointFor(app: TestApp, url: string, events: string[]): Promise<{ id: string; secret: string }> {
  const res = await admin('POST', `/api/admin/apps/${app.appId}/endpoints`, { url, events });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string; secret: string };
}

async function completeAndClaim(app: TestApp, userId: string, eventName: string, missionId: string, key: string) {
  const token = await issueToken(server, app, userId);
  const user = userClient(server, token);
  expect((await user.post('/v1/events', { userId, name: eventName, payload: {}, timestamp: Date.now() })).status).toBe(200);
  const claim = await user.post(`/v1/missions/${missionId}/claim`, undefined, { 'Idempotency-Key': key });
  expect(claim.status, await claim.clone().text()).toBe(200);
  return claim.json();
}

async function deliveriesOf(app: TestApp, endpointId: string) {
  const res = await admin('GET', `/api/admin/apps/${app.appId}/endpoints/${endpointId}/deliveries`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { deliveries: Array<Record<string, unknown>> }).deliveries;
}

async function rowsOfApp(appId: string): Promise<number> {
  const db = await (await import('@/db/client')).getDb();
  const [{ n }] = await db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.appId, appId));
  return n;
}

describe('outbound webhooks', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => receiver?.close());

  it('a claim of an item reward delivers reward.granted, signed with the endpoint’s secret and verified by the SDK’s verifyWebhook', async () => {
    const app = await createTestApp(server, catalog());
    const endpoint = await endpointFor(app, receiver.url, ['reward.granted']);
    expect(endpoint.secret).toMatch(/^whsec_/);
    const userId = uniqueId('player');
    const before = receiver.received.length;
    await completeAndClaim(app, userId, 'boss_killed', 'sword', 'claim-key-1');
    await receiver.until((r) => r.slice(before).some((x) => x.body.includes(userId)), 15_000, 'reward.granted');
    const got = receiver.received.slice(before).filter((x) => x.body.includes(userId));
    expect(got).toHaveLength(1);
    const [one] = got;
    const notification = await verifyWebhook(endpoint.secret, one.headers as Record<string, string>, one.body);
    expect(notification).toMatchObject({
      type: 'reward.granted',
      appId: app.appId,
      userId,
      data: { userId, missionId: 'sword', reward: { kind: 'item', itemId: 'legendary-sword', quantity: 1 }, idempotencyKey: 'claim-key-1' },
    });
    expect(one.headers['questline-webhook-id']).toBe(notification.id);
    expect(one.headers['questline-webhook-signature']).toMatch(/^v1=[0-9a-f]{64}$/);
    // Another secret, a changed byte, or an old timestamp: refused.
    await expect(verifyWebhook('whsec_other', one.headers as Record<string, string>, one.body)).rejects.toBeInstanceOf(WebhookVerificationError);
    await expect(verifyWebhook(endpoint.secret, one.headers as Record<string, string>, one.body.replace('legendary', 'legendarY'))).rejects.toBeInstanceOf(WebhookVerificationError);
    await expect(verifyWebhook(endpoint.secret, one.headers as Record<string, string>, one.body, Date.now() + 6 * 60_000)).rejects.toThrow(/5 minutes/);
    // The log says delivered, once (the worker marks the row after the receiver's 200 reached it: polled, not read once).
    await expect
      .poll(() => deliveriesOf(app, endpoint.id), { timeout: 15_000 })
      .toEqual([expect.objectContaining({ id: notification.id, type: 'reward.granted', status: 'delivered', attempts: 1, lastStatusCode: 200, nextAttemptAt: null })]);
  });

  it('a currency claim also sends balance.changed; completions by an event and by staff send mission.completed; a staff grant balance.changed', async () => {
    const app = await createTestApp(server, catalog());
    const endpoint = await endpointFor(app, receiver.url, ['reward.granted', 'balance.changed', 'mission.completed']);
    const userId = uniqueId('player');
    await completeAndClaim(app, userId, 'match_won', 'gold', 'k-gold');
    const grant = await asStaff(server, support.cookie, 'POST', `/api/admin/apps/${app.appId}/users/${userId}/grants`, { currency: 'gold', amount: 5, reason: 'Ticket 7: lost win' });
    expect(grant.status).toBe(200);
    const complete = await asStaff(server, support.cookie, 'POST', `/api/admin/apps/${app.appId}/users/${userId}/missions/sword/complete`, { reason: 'Ticket 8: boss kill lost' });
    expect(complete.status).toBe(200);
    const mine = () => receiver.received.filter((x) => x.body.includes(`"userId":"${userId}"`)).map((x) => JSON.parse(x.body) as { type: string; data: Record<string, unknown> });
    await receiver.until(() => mine().length >= 5, 15_000, 'five notifications');
    const byType = mine().map((n) => [n.type, n.data.missionId ?? n.data.amount]);
    expect(byType).toEqual(
      expect.arrayContaining([
        ['mission.completed', 'gold'],
        ['reward.granted', 'gold'],
        ['balance.changed', 25],
        ['balance.changed', 30],
        ['mission.completed', 'sword'],
      ]),
    );
    expect(mine()).toHaveLength(5);
    // Each row is marked delivered once the receiver's 200 reached the worker, just after the receiver saw the body.
    await expect.poll(async () => (await deliveriesOf(app, endpoint.id)).every((d) => d.status === 'delivered'), { timeout: 15_000 }).toBe(true);
  });

  it('an app without endpoints (or without one for the type) writes no delivery row', async () => {
    const app = await createTestApp(server, catalog());
    await completeAndClaim(app, uniqueId('player'), 'boss_killed', 'sword', 'k1');
    expect(await rowsOfApp(app.appId)).toBe(0);
    await endpointFor(app, receiver.url, ['balance.changed']);
    await completeAndClaim(app, uniqueId('player'), 'boss_killed', 'sword', 'k2'); // an item: no balance change
    expect(await rowsOfApp(app.appId)).toBe(0);
  });

  it('a campaign budget crossing 80 % and 100 % under 20 concurrent claims sends exactly one budget.alert per threshold, signed; other endpoints and apps get none', async () => {
    // Budget 100 gems, 10 gems per claim: 20 players race, exactly 10 are granted, the 8th grant reaches 80 and the 10th 100.
    const app = await createTestApp(server, {
      campaigns: [campaign('cup', { budget: [{ currency: 'gems', amount: 100 }] })],
      missions: [mission('cup-win', { campaignId: 'cup', criteria: { eventName: 'cup_won', count: 1 }, reward: { kind: 'currency', currency: 'gems', amount: 10 } })],
    });
    const alerts = await endpointFor(app, receiver.url, ['budget.alert']);
    const rewards = await endpointFor(app, receiver.url, ['reward.granted']);
    const users = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const userId = uniqueId('racer');
        const user = userClient(server, await issueToken(server, app, userId));
        expect((await user.post('/v1/events', { userId, name: 'cup_won', payload: {}, timestamp: Date.now() })).status).toBe(200);
        return user;
      }),
    );
    const statuses = await Promise.all(users.map(async (user, i) => (await user.post('/v1/missions/cup-win/claim', undefined, { 'Idempotency-Key': `race-${i}` })).status));
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(10);
    const ofApp = () => receiver.received.filter((x) => x.body.includes(`"appId":"${app.appId}"`));
    await receiver.until(() => ofApp().length >= 12, 15_000, '10 reward.granted and 2 budget.alert');
    const budgetAlerts = ofApp().filter((x) => x.body.includes('"type":"budget.alert"'));
    expect(budgetAlerts).toHaveLength(2);
    const verified = await Promise.all(budgetAlerts.map((x) => verifyWebhook(alerts.secret, x.headers as Record<string, string>, x.body)));
    expect(verified.map((n) => n.data as Record<string, unknown>).sort((a, b) => Number(a.threshold) - Number(b.threshold))).toEqual([
      { campaignId: 'cup', currency: 'gems', threshold: 80, spent: 80, budget: 100, missionId: 'cup-win', at: expect.any(Number) },
      { campaignId: 'cup', currency: 'gems', threshold: 100, spent: 100, budget: 100, missionId: 'cup-win', at: expect.any(Number) },
    ]);
    // The envelope's userId is the player whose claim reached the threshold: one of the granted racers.
    for (const n of verified) expect(n.userId).toMatch(/^racer/);
    expect((await deliveriesOf(app, alerts.id)).map((d) => d.type)).toEqual(['budget.alert', 'budget.alert']);
    const rewardLog = await deliveriesOf(app, rewards.id);
    expect(rewardLog).toHaveLength(10);
    expect(rewardLog.every((d) => d.type === 'reward.granted')).toBe(true);
    // Exactly these 12 rows were written (an alert per threshold, not per racer).
    expect(await rowsOfApp(app.appId)).toBe(12);

    // An app whose budgeted campaign crosses its thresholds without a budget.alert endpoint writes no delivery row.
    const quiet = await createTestApp(server, {
      campaigns: [campaign('cup', { budget: [{ currency: 'gems', amount: 10 }] })],
      missions: [mission('cup-win', { campaignId: 'cup', criteria: { eventName: 'cup_won', count: 1 }, reward: { kind: 'currency', currency: 'gems', amount: 10 } })],
    });
    await completeAndClaim(quiet, uniqueId('player'), 'cup_won', 'cup-win', 'k-quiet');
    expect(await rowsOfApp(quiet.appId)).toBe(0);
  });

  it('a receiver answering 500 three times then 200 gets the same id 4 times, each signed; the delivery ends delivered with 4 attempts', async () => {
    const flaky = await startReceiver((_req, i) => (i < 3 ? 500 : 200));
    try {
      const app = await createTestApp(server, catalog());
      const endpoint = await endpointFor(app, flaky.url, ['reward.granted']);
      await completeAndClaim(app, uniqueId('player'), 'boss_killed', 'sword', 'k-flaky');
      await flaky.until((r) => r.length >= 4, 20_000, 'four attempts');
      await afterWholeSweeps([server]); // nothing more comes: every send a sweep was making has arrived
      expect(flaky.received).toHaveLength(4);
      const ids = new Set(flaky.received.map((r) => r.headers['questline-webhook-id']));
      expect(ids.size).toBe(1);
      expect(new Set(flaky.received.map((r) => r.body)).size).toBe(1);
      for (const r of flaky.received) await verifyWebhook(endpoint.secret, r.headers as Record<string, string>, r.body);
      // Backoff: each wait longer than the one before (40 ms·4^n with jitter in [0.5, 1)).
      const gaps = flaky.received.slice(1).map((r, i) => r.at - flaky.received[i].at);
      expect(gaps[2]).toBeGreaterThan(gaps[0]);
      const [log] = await deliveriesOf(app, endpoint.id);
      expect(log).toMatchObject({ id: [...ids][0], status: 'delivered', attempts: 4, lastStatusCode: 200, lastError: null });
    } finally {
      await flaky.close();
    }
  });

  it('a delivery retried past its retry period is marked failed with the last error; redeliver sends it again under the same id', async () => {
    let up = false;
    const down = await startReceiver(() => (up ? 200 : 503));
    const savedFor = process.env.QUESTLINE_TEST_OUTBOUND_RETRY_FOR_MS;
    process.env.QUESTLINE_TEST_OUTBOUND_RETRY_FOR_MS = '300';
    try {
      const app = await createTestApp(server, catalog());
      const endpoint = await endpointFor(app, down.url, ['reward.granted']);
      await completeAndClaim(app, uniqueId('player'), 'boss_killed', 'sword', 'k-down');
      let log: Array<Record<string, unknown>> = [];
      for (let i = 0; i < 200; i++) {
        log = await deliveriesOf(app, endpoint.id);
        if (log[0]?.status === 'failed') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(log[0]).toMatchObject({ status: 'failed', lastStatusCode: 503, lastError: 'answered 503', nextAttemptAt: null });
      const attempts = down.received.length;
      expect(attempts).toBe(log[0].attempts);
      up = true;
      const again = await admin('POST', `/api/admin/apps/${app.appId}/endpoints/${endpoint.id}/deliveries/${String(log[0].id)}/redeliver`);
      expect(again.status).toBe(202);
      await down.until((r) => r.length > attempts, 10_000, 'the redelivery');
      expect(down.received.at(-1)!.headers['questline-webhook-id']).toBe(log[0].id);
      for (let i = 0; i < 100 && (await deliveriesOf(app, endpoint.id))[0].status !== 'delivered'; i++) await new Promise((r) => setTimeout(r, 50));
      expect((await deliveriesOf(app, endpoint.id))[0]).toMatchObject({ status: 'delivered', lastStatusCode: 200 });
      const unknown = await admin('POST', `/api/admin/apps/${app.appId}/endpoints/${endpoint.id}/deliveries/wh_nope/redeliver`);
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ error: 'delivery_not_found' });
    } finally {
      if (savedFor === undefined) delete process.env.QUESTLINE_TEST_OUTBOUND_RETRY_FOR_MS;
      else process.env.QUESTLINE_TEST_OUTBOUND_RETRY_FOR_MS = savedFor;
      await down.close();
    }
  });

  it('endpoints: list without secrets, validation, private addresses refused unless OUTBOUND_WEBHOOK_ALLOW_PRIVATE=1, delete, admins only', async () => {
    const app = await createTestApp(server, catalog());
    const base = `/api/admin/apps/${app.appId}/endpoints`;
    const created = await endpointFor(app, 'https://example.com/hook', ['reward.granted']);
    const list = await (await admin('GET', base)).json();
    expect(list).toEqual({ endpoints: [{ id: created.id, url: 'https://example.com/hook', events: ['reward.granted'], createdAt: expect.any(Number) }] });
    for (const bad of [{ url: 'ftp://example.com/x', events: ['reward.granted'] }, { url: 'https://example.com', events: ['nope'] }, { url: 'https://example.com', events: [] }]) {
      const res = await admin('POST', base, bad);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'validation_error' });
    }
    delete process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE;
    try {
      for (const url of ['http://127.0.0.1:9/x', 'http://localhost/x', 'http://10.1.2.3/x', 'http://169.254.169.254/latest', 'http://[::1]/x', 'http://192.168.0.10/x', 'http://[::127.0.0.1]/', 'http://[::ffff:0:127.0.0.1]/', 'http://[2002:7f00:1::]/']) {
        const res = await admin('POST', base, { url, events: ['reward.granted'] });
        expect(res.status, url).toBe(400);
        const body = await res.json();
        expect(body.error).toBe('validation_error');
        expect(body.message).toMatch(/^url: /);
      }
    } finally {
      process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE = '1';
    }
    // Support may not manage endpoints (admins only: apps.manage).
    expect((await asStaff(server, support.cookie, 'GET', base)).status).toBe(403);
    expect((await asStaff(server, support.cookie, 'POST', base, { url: 'https://example.com/h', events: ['reward.granted'] })).status).toBe(403);
    const gone = await admin('DELETE', `${base}/${created.id}`);
    expect(gone.status).toBe(204);
    expect(await (await admin('GET', base)).json()).toEqual({ endpoints: [] });
    const again = await admin('DELETE', `${base}/${created.id}`);
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ error: 'endpoint_not_found' });
    // Deleted: the app's next claim writes nothing for it (the catalog learnt of the deletion).
    await completeAndClaim(app, uniqueId('player'), 'boss_killed', 'sword', 'k-after-delete');
    expect(await rowsOfApp(app.appId)).toBe(0);
  });
});

describe('address guard and backoff (units)', () => {
  it('refuses loopback, private, link-local, CGNAT, multicast and mapped forms; allows public addresses', () => {
    for (const ip of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fe80::1', 'fc00::1', 'fd12::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1']) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
    for (const ip of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8']) expect(isPrivateAddress(ip), ip).toBe(false);
  });

  it('retry delays: first within 30 s, second within 2 min, growing, capped at 6 h, with jitter', () => {
    const saved = process.env.QUESTLINE_TEST_OUTBOUND_BACKOFF_MS;
    delete process.env.QUESTLINE_TEST_OUTBOUND_BACKOFF_MS;
    try {
      expect(retryDelayMs(1, 0.999)).toBeLessThanOrEqual(30_000);
      expect(retryDelayMs(1, 0)).toBe(15_000);
      expect(retryDelayMs(2, 0.999)).toBeLessThanOrEqual(120_000);
      expect(retryDelayMs(3, 0)).toBeGreaterThan(retryDelayMs(2, 0.999));
      expect(retryDelayMs(20, 0.999)).toBeLessThanOrEqual(6 * 3_600_000);
    } finally {
      if (saved !== undefined) process.env.QUESTLINE_TEST_OUTBOUND_BACKOFF_MS = saved;
    }
  });
});
