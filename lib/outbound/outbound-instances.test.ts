// Outbound webhooks across server processes (scripts/serve.ts children) and a
// real local receiver: an instance killed (SIGKILL) between commit and send
// leaves its delivery in the outbox, and the restarted service delivers it
// (embedded: the same data directory; PostgreSQL: the same database); two
// instances on one PostgreSQL + Redis deliver each notification exactly once
// (the row claim with a lease: FOR UPDATE SKIP LOCKED). The embedded database
// belongs to one process, so the two-instance test runs in the PostgreSQL +
// Redis pass only.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyWebhook } from '@/lib/sdk/backend';
import { seedDataDir } from '@/lib/testing/pglite-template';
import { startReceiver, type Receiver } from '@/lib/testing/receiver';
import { sharedStores, startInstance, type Instance } from '@/lib/testing/instance';
import { SERVE_ADMIN_KEY, startServeProcess, type ServeProcess } from '@/lib/testing/serve-process';
import { afterWholeSweeps } from '@/lib/testing/sweeps';

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
});

const call = (url: string, key: string, method: string, route: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(url + route, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function appWithEndpoint(url: string, key: string, receiver: Receiver, events: string[]) {
  const appId = `ob-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const created = await call(url, key, 'POST', '/api/admin/apps', { id: appId, name: 'Outbound' });
  expect(created.status).toBe(201);
  const { appSecret } = (await created.json()) as { appSecret: string };
  const catalog = {
    campaigns: [],
    missions: [{ id: 'sword', title: 'Slay the boss', criteria: { eventName: 'boss_killed', count: 1 }, reward: { kind: 'item', itemId: 'legendary-sword', quantity: 1 } }],
  };
  expect((await call(url, key, 'PUT', `/api/admin/apps/${appId}/catalog`, catalog)).status).toBe(200);
  const endpoint = await call(url, key, 'POST', `/api/admin/apps/${appId}/endpoints`, { url: receiver.url, events });
  expect(endpoint.status).toBe(201);
  return { appId, appSecret, endpoint: (await endpoint.json()) as { id: string; secret: string } };
}

const env = { OUTBOUND_WEBHOOK_ALLOW_PRIVATE: '1', QUESTLINE_TEST_OUTBOUND_BACKOFF_MS: '50' };

describe('outbound webhooks across processes', () => {
  it('an instance killed (SIGKILL) between commit and send: the restarted service delivers the notification', async () => {
    const receiver = await startReceiver();
    cleanup.push(() => receiver.close());
    const dataDir = mkdtempSync(path.join(tmpdir(), 'questline-outbound-'));
    seedDataDir(dataDir);
    // QUESTLINE_TEST_OUTBOUND_HOLD=1: this process commits deliveries but never sends them (killed "between commit and send").
    const first: ServeProcess = await startServeProcess({ ...env, QUESTLINE_DATA_DIR: dataDir, QUESTLINE_TEST_OUTBOUND_HOLD: '1' });
    cleanup.push(() => first.stop('SIGKILL'));
    const { appId, appSecret, endpoint } = await appWithEndpoint(first.url, SERVE_ADMIN_KEY, receiver, ['reward.granted']);
    const tokenRes = await fetch(`${first.url}/v1/auth/token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ appId, appSecret, userId: 'p1' }) });
    const { accessToken } = (await tokenRes.json()) as { accessToken: string };
    expect((await call(first.url, accessToken, 'POST', '/v1/events', { userId: 'p1', name: 'boss_killed', payload: {}, timestamp: Date.now() })).status).toBe(200);
    const claim = await call(first.url, accessToken, 'POST', '/v1/missions/sword/claim', undefined, { 'Idempotency-Key': 'kill-claim' });
    expect(claim.status).toBe(200);
    const pending = (await (await call(first.url, SERVE_ADMIN_KEY, 'GET', `/api/admin/apps/${appId}/endpoints/${endpoint.id}/deliveries`)).json()) as { deliveries: Array<{ id: string; status: string }> };
    expect(pending.deliveries).toEqual([expect.objectContaining({ status: 'pending' })]);
    expect(await first.stop('SIGKILL')).toBe(null);
    expect(receiver.received).toHaveLength(0);

    const second = await startServeProcess({ ...env, QUESTLINE_DATA_DIR: dataDir });
    cleanup.push(() => second.stop('SIGKILL'));
    await receiver.until((r) => r.length >= 1, 30_000, 'the delivery after the restart');
    await afterWholeSweeps([{ url: second.url, adminKey: SERVE_ADMIN_KEY }]);
    expect(receiver.received).toHaveLength(1);
    const notification = await verifyWebhook(endpoint.secret, receiver.received[0].headers as Record<string, string>, receiver.received[0].body);
    expect(notification).toMatchObject({ id: pending.deliveries[0].id, type: 'reward.granted', appId, userId: 'p1', data: { idempotencyKey: 'kill-claim', reward: { itemId: 'legendary-sword' } } });
  }, 240_000);

  const shared = sharedStores ? it : it.skip;
  shared('two instances on one PostgreSQL + Redis deliver each of 40 notifications exactly once', async () => {
    // Both instances sweep every 50 ms and are kicked by their own commits: they race for the same rows.
    const receiver = await startReceiver();
    cleanup.push(() => receiver.close());
    const instances: Instance[] = await Promise.all([startInstance('outbound-a', env), startInstance('outbound-b', env)]);
    for (const i of instances) cleanup.push(() => i.close());
    const [a, b] = instances;
    const { appId, endpoint } = await appWithEndpoint(a.url, a.adminKey, receiver, ['balance.changed']);
    // 40 staff grants, alternating instances, 4 players at a time.
    const grants = Array.from({ length: 40 }, (_, i) => i);
    for (let i = 0; i < grants.length; i += 4) {
      await Promise.all(
        grants.slice(i, i + 4).map(async (n) => {
          const via = n % 2 === 0 ? a : b;
          const res = await call(via.url, via.adminKey, 'POST', `/api/admin/apps/${appId}/users/p${n % 4}/grants`, { currency: 'gold', amount: n + 1, reason: `grant number ${n}`, createUser: true });
          expect(res.status).toBe(200);
        }),
      );
    }
    await receiver.until((r) => r.length >= 40, 60_000, '40 notifications');
    await afterWholeSweeps(instances); // nothing more comes: every send either instance was making has arrived
    const ids = receiver.received.map((r) => r.headers['questline-webhook-id']);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    for (const r of receiver.received) await verifyWebhook(endpoint.secret, r.headers as Record<string, string>, r.body);
    const log = (await (await call(a.url, a.adminKey, 'GET', `/api/admin/apps/${appId}/endpoints/${endpoint.id}/deliveries`)).json()) as { deliveries: Array<{ status: string; attempts: number }> };
    expect(log.deliveries).toHaveLength(40);
    expect(log.deliveries.every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true);
  }, 300_000);
});
