// GET /api/metrics over real HTTP: the admin key only, and each figure moves
// with what the service did (requests, events, claims, streams, 429s, pool).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mission, newUser } from '@/lib/testing/fixtures';
import { openSse } from '@/lib/testing/sse-client';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { sendDelivery } from '@/lib/testing/webhook';
import { freshWindowInProcess } from '@/lib/testing/rate-window';

let server: TestServer;
let app: TestApp;
beforeAll(async () => {
  server = await startTestServer();
  app = await createTestApp(server, { missions: [mission('one'), mission('never', { criteria: { eventName: 'never', count: 1 } })], campaigns: [] });
}, 120_000);
afterAll(async () => {
  await server?.close();
});

async function scrape(): Promise<string> {
  const res = await fetch(`${server.url}/api/metrics`, { headers: { Authorization: `Bearer ${server.adminKey}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/** The value of one sample (`name{labels}`, labels in the order prom-client writes them); 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(',');
  const head = wanted ? `${name}{${wanted}} ` : `${name} `;
  const line = text.split('\n').find((l) => l.startsWith(head));
  return line ? Number(line.slice(head.length)) : 0;
}

async function until(check: (text: string) => boolean, what: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const text = await scrape();
    if (check(text)) return text;
    if (Date.now() > deadline) throw new Error(`metrics never showed ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('GET /api/metrics', () => {
  it('answers 401 unauthorized without the admin key, with a wrong one, and with a user token', async () => {
    const user = await newUser(server, app);
    for (const headers of [{}, { Authorization: 'Bearer wrong-key' }, { Authorization: `Bearer ${user.token}` }] as Record<string, string>[]) {
      const res = await fetch(`${server.url}/api/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: string }).error).toBe('unauthorized');
    }
  });

  it('counts requests by route pattern, method and status, with latency histograms', async () => {
    const before = await scrape();
    const user = await newUser(server, app);
    expect((await user.getJson('/v1/missions/one')).status).toBe(200);
    expect((await user.getJson('/v1/missions/nope')).status).toBe(404);
    const after = await scrape();
    const delta = (labels: Record<string, string>) => sample(after, 'questline_http_requests_total', labels) - sample(before, 'questline_http_requests_total', labels);
    expect(delta({ route: '/v1/missions/:id', method: 'GET', status: '200' })).toBe(1);
    expect(delta({ route: '/v1/missions/:id', method: 'GET', status: '404' })).toBe(1);
    const count = (t: string) => sample(t, 'questline_http_request_duration_seconds_count', { route: '/v1/missions/:id', method: 'GET' });
    expect(count(after) - count(before)).toBe(2);
    expect(after).toMatch(/^questline_http_request_duration_seconds_bucket\{le="0\.1",route="\/v1\/missions\/:id",method="GET"\} \d+/m);
    expect(after).toMatch(/^questline_process_cpu_seconds_total /m);
  });

  it('counts events ingested (not replays), from the API and the webhook', async () => {
    const before = await scrape();
    const user = await newUser(server, app);
    const event = { userId: user.userId, name: 'play', payload: {}, timestamp: Date.now() };
    expect((await user.client.post('/v1/events', event, { 'Idempotency-Key': 'k-metrics-1' })).status).toBe(200);
    expect((await user.client.post('/v1/events', event, { 'Idempotency-Key': 'k-metrics-1' })).headers.get('x-idempotent-replay')).toBeTruthy();
    const sent = await sendDelivery(server, app, { events: [1, 2, 3].map((i) => ({ userId: `hook-${i}`, name: 'play', payload: {}, timestamp: Date.now() })) });
    expect(sent.status).toBe(200);
    const after = await scrape();
    const delta = (source: string) => sample(after, 'questline_events_ingested_total', { source }) - sample(before, 'questline_events_ingested_total', { source });
    expect(delta('api')).toBe(1);
    expect(delta('webhook')).toBe(3);
  });

  it('counts claims by outcome: granted, replayed, refused', async () => {
    const before = await scrape();
    const user = await newUser(server, app);
    expect((await user.event('play')).status).toBe(200);
    expect((await user.claim('one', 'claim-key-1')).status).toBe(200);
    expect((await user.claim('one', 'claim-key-1')).headers.get('x-idempotent-replay')).toBeTruthy();
    expect((await user.claim('never')).status).toBe(409);
    const after = await scrape();
    const delta = (outcome: string) => sample(after, 'questline_claims_total', { outcome }) - sample(before, 'questline_claims_total', { outcome });
    expect([delta('granted'), delta('replayed'), delta('claim_not_ready')]).toEqual([1, 1, 1]);
    // PostgreSQL: the two claim statements (the grant, the refusal; the replay is the cache's) ran on pipelined connections.
    if (process.env.DATABASE_URL?.trim()) {
      const piped = (t: string) => sample(t, 'questline_db_pipelined_statements_total', { connection: 'pipelined' });
      expect(piped(after) - piped(before)).toBeGreaterThanOrEqual(2);
      // The connections they ran on, which the pool's gauge does not count: at least one, at most DATABASE_PIPELINE_CONNECTIONS (4).
      expect(sample(after, 'questline_db_pipeline_connections')).toBeGreaterThanOrEqual(1);
      expect(sample(after, 'questline_db_pipeline_connections')).toBeLessThanOrEqual(4);
    } else {
      expect(after).not.toMatch(/^questline_db_pipelined_statements_total\{/m);
      expect(sample(after, 'questline_db_pipeline_connections')).toBe(0);
    }
  });

  it('shows the streams open in this process', async () => {
    const user = await newUser(server, app);
    const base = sample(await scrape(), 'questline_sse_open_streams');
    const stream = await openSse(`${server.url}/v1/sse/updates`, { Authorization: `Bearer ${user.token}` });
    await stream.waitFor((s) => s.raw.startsWith(': connected'), 'connected', 30_000);
    await until((t) => sample(t, 'questline_sse_open_streams') === base + 1, 'the open stream');
    await stream.close();
    await until((t) => sample(t, 'questline_sse_open_streams') === base, 'the stream closed');
  });

  it('counts 429 rejections by code', async () => {
    const before = await scrape();
    const statuses: number[] = [];
    freshWindowInProcess(20_000);
    for (let i = 0; i < 11; i++) {
      const res = await fetch(`${server.url}/v1/auth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ appId: app.appId, appSecret: 'wrong', userId: 'u' }),
      });
      statuses.push(res.status);
    }
    expect(statuses.at(-1)).toBe(429);
    const after = await scrape();
    const rejected = (t: string) => sample(t, 'questline_rate_limit_rejections_total', { code: 'rate_limited' });
    expect(rejected(after) - rejected(before)).toBe(statuses.filter((s) => s === 429).length);
  });

  it('reports the database pool on PostgreSQL (none on the embedded database)', async () => {
    const text = await scrape();
    if (process.env.DATABASE_URL?.trim()) {
      expect(sample(text, 'questline_db_pool_connections', { state: 'max' })).toBe(Number(process.env.DATABASE_POOL_MAX ?? 10));
      expect(sample(text, 'questline_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
    } else {
      expect(text).not.toMatch(/^questline_db_pool_connections\{/m);
    }
  });
});
