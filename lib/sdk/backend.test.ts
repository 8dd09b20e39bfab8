// The SDK's webhook signing (server-side entry point) and its recommendations
// method and message type, against the real service.
import { createHmac } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, issueToken, startTestServer, uniqueId, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { signWebhook, webhookHeaders } from './backend';
import { createQuestlineClient } from './client';
import { sdkCatalog } from '@/lib/testing/sdk-fixtures';
import type { RecommendationUpdate, SdkUpdate } from './types';

let server: TestServer;
let app: TestApp;

beforeAll(async () => {
  vi.stubEnv('OPENAI_API_KEY', '');
  server = await startTestServer();
  app = await createTestApp(server, sdkCatalog());
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await server?.close();
});

describe('signWebhook (lib/sdk/backend)', () => {
  it('is `v1=` + hex HMAC-SHA256 of `${timestamp}.${body}`, for a string or the bytes sent', async () => {
    expect(await signWebhook('whs_test', '{"events":[]}', 1700000000000)).toBe('v1=1a687c16a78a96c66a7f8cd0c02cea1a284991018caf7dd84e222386cd484dd4');
    const body = '{"events":[{"userId":"é"}]}';
    const expected = `v1=${createHmac('sha256', 'k').update(`42.${body}`).digest('hex')}`;
    expect(await signWebhook('k', body, '42')).toBe(expected);
    expect(await signWebhook('k', new TextEncoder().encode(body), 42)).toBe(expected);
  });

  it('webhookHeaders make a delivery the service accepts', async () => {
    const userId = uniqueId('u');
    const body = JSON.stringify({ events: [{ userId, name: 'match', payload: {}, timestamp: Date.now() }] });
    const headers = await webhookHeaders({ appId: app.appId, secret: app.webhookSecret, body, webhookId: uniqueId('whk') });
    const res = await fetch(`${server.url}/v1/webhook/incoming`, { method: 'POST', headers, body });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ accepted: true, results: [{ missionsUpdated: ['three-matches'] }] });
  });

  it('is not part of the client bundle (index.ts)', async () => {
    const { build } = await import('esbuild');
    const result = await build({ entryPoints: [path.join(__dirname, 'index.ts')], bundle: true, platform: 'browser', format: 'esm', write: false, logLevel: 'silent' });
    expect(result.outputFiles[0].text).not.toMatch(/signWebhook|X-Webhook-Signature/);
  });
});

describe('recommendations() and the `recommendation` message', () => {
  it('answers the typed recommendations and the subscription receives the `recommendation` message', async () => {
    const userId = uniqueId('u');
    const token = await issueToken(server, app, userId);
    const client = createQuestlineClient({ baseUrl: server.url, token });
    const received: RecommendationUpdate[] = [];
    const sub = client.subscribe((update: SdkUpdate) => {
      if (update.type === 'recommendation') received.push(update);
    });
    try {
      await vi.waitFor(() => expect(sub.state).toBe('open'), { timeout: 30_000, interval: 20 });
      await client.sendEvent({ name: 'match' });
      const recs = await client.recommendations({ limit: 2 });
      expect(recs).toEqual({ userId, missionIds: ['three-matches', 'badge-win'], reason: expect.any(String), fallback: true, generatedAt: expect.any(Number) });
      await vi.waitFor(() => expect(received).toHaveLength(1), { timeout: 30_000, interval: 20 });
      expect(received[0].data).toEqual({ userId, missionIds: recs.missionIds, reason: recs.reason });
    } finally {
      sub.close();
    }
  });

  it('a bad limit is a ValidationError', async () => {
    const client = createQuestlineClient({ baseUrl: server.url, token: await issueToken(server, app, uniqueId('u')) });
    await expect(client.recommendations({ limit: 11 })).rejects.toMatchObject({ name: 'ValidationError', status: 400 });
  });
});
