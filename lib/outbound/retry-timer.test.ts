// A failed delivery's retry is sent at its due time by the worker's own timer,
// not by the periodic sweep (every 5 s, which made a "within 30 s" first
// retry come at 31.9 s): with the sweep turned off
// (QUESTLINE_TEST_OUTBOUND_SWEEP=0), retries still arrive, for two
// deliveries due at different times (the timer is armed again for the later
// one). Real HTTP, a real local receiver; embedded, or PostgreSQL/Redis with
// DATABASE_URL/REDIS_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mission } from '@/lib/testing/fixtures';
import { startReceiver, type Receiver } from '@/lib/testing/receiver';
import { createTestApp, issueToken, startTestServer, uniqueId, userClient, type TestServer } from '@/lib/testing/test-server';

const KNOBS = ['OUTBOUND_WEBHOOK_ALLOW_PRIVATE', 'QUESTLINE_TEST_OUTBOUND_BACKOFF_MS', 'QUESTLINE_TEST_OUTBOUND_SWEEP'] as const;
const saved = Object.fromEntries(KNOBS.map((name) => [name, process.env[name]]));
let server: TestServer;
const receivers: Receiver[] = [];

beforeAll(async () => {
  process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE = '1'; // the receivers listen on 127.0.0.1
  process.env.QUESTLINE_TEST_OUTBOUND_BACKOFF_MS = '300'; // first retry after 150 to 300 ms, the second 600 to 1,200 ms later
  process.env.QUESTLINE_TEST_OUTBOUND_SWEEP = '0'; // no periodic sweep: only the writer's kick and the retry timer send
  server = await startTestServer();
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await server?.close();
  for (const name of KNOBS) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

async function admin(method: string, route: string, body?: unknown): Promise<Response> {
  return fetch(server.url + route, {
    method,
    headers: { Authorization: `Bearer ${server.adminKey}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

describe('outbound retries on their own timer', () => {
  it('with no periodic sweep, two deliveries each failing twice are retried at their due times and end delivered with 3 attempts', async () => {
    const app = await createTestApp(server, {
      campaigns: [],
      missions: [mission('gold', { criteria: { eventName: 'match_won', count: 1 }, reward: { kind: 'currency', currency: 'gold', amount: 5 } })],
    });
    const endpoints: Array<{ id: string; receiver: Receiver }> = [];
    for (let i = 0; i < 2; i++) {
      const receiver = await startReceiver((_req, n) => (n < 2 ? 503 : 200));
      receivers.push(receiver);
      const res = await admin('POST', `/api/admin/apps/${app.appId}/endpoints`, { url: receiver.url, events: ['mission.completed'] });
      expect(res.status, await res.clone().text()).toBe(201);
      endpoints.push({ id: ((await res.json()) as { id: string }).id, receiver });
    }
    const userId = uniqueId('player');
    const user = userClient(server, await issueToken(server, app, userId));
    expect((await user.post('/v1/events', { userId, name: 'match_won', payload: {}, timestamp: Date.now() })).status).toBe(200);

    // The kick sends each once (503); then only the retry timer can send them again.
    for (const { receiver } of endpoints) await receiver.until((r) => r.length >= 3, 60_000, 'the first attempt and two retries');
    for (const { id, receiver } of endpoints) {
      expect(new Set(receiver.received.map((r) => r.headers['questline-webhook-id'])).size).toBe(1);
      let log: Array<Record<string, unknown>> = [];
      for (let i = 0; i < 200; i++) {
        const res = await admin('GET', `/api/admin/apps/${app.appId}/endpoints/${id}/deliveries`);
        log = ((await res.json()) as { deliveries: Array<Record<string, unknown>> }).deliveries;
        if (log[0]?.status === 'delivered') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(log).toHaveLength(1);
      expect(log[0]).toMatchObject({ status: 'delivered', attempts: 3, lastStatusCode: 200 });
    }
  }, 120_000);
});
