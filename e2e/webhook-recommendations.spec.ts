// The signed webhook and the recommendations through the Next.js route files
// (`next start`): the raw body reaches the signature check byte for byte, a
// replay is answered, and recommendations fall back (no model configured).
import { createHmac, randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';

const ADMIN = { Authorization: 'Bearer e2e-admin-key-0123456789abcdef' };

test('a signed webhook delivery is applied and replayed; recommendations answer the fallback', async ({ request }) => {
  const appId = `e2e-wh-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const created = await request.post('/api/admin/apps', { headers: ADMIN, data: { id: appId, name: 'E2E webhook game' } });
  expect(created.status()).toBe(201);
  const { appSecret, webhookSecret } = await created.json();
  const put = await request.put(`/api/admin/apps/${appId}/catalog`, {
    headers: ADMIN,
    data: {
      missions: [
        { id: 'win-one', title: 'Win one', criteria: { eventName: 'match_won', count: 1 }, reward: { kind: 'currency', currency: 'gems', amount: 25 } },
        { id: 'play-five', title: 'Play five', criteria: { eventName: 'match_played', count: 5 }, reward: { kind: 'currency', currency: 'gems', amount: 5 } },
      ],
    },
  });
  expect(put.status()).toBe(200);

  // Unusual spacing on purpose: the signature is over these exact bytes.
  const body = `{ "events": [ { "userId": "p1", "name": "match_won", "payload": {}, "timestamp": ${Date.now()} },
    { "userId": "p1", "name": "match_played", "payload": {}, "timestamp": ${Date.now()} } ] }`;
  const timestamp = String(Date.now());
  const headers = {
    'Content-Type': 'application/json',
    'X-App-Id': appId,
    'X-Webhook-Id': randomUUID(),
    'X-Webhook-Timestamp': timestamp,
    'X-Webhook-Signature': `v1=${createHmac('sha256', webhookSecret).update(`${timestamp}.${body}`).digest('hex')}`,
  };
  const first = await request.post('/v1/webhook/incoming', { headers, data: body });
  expect(first.status()).toBe(200);
  const applied = await first.json();
  expect(applied).toMatchObject({ accepted: true, results: [{ missionsUpdated: ['win-one'] }, { missionsUpdated: ['play-five'] }] });
  expect(first.headers()['x-request-id']).toBeTruthy();

  const replay = await request.post('/v1/webhook/incoming', { headers, data: body });
  expect(replay.headers()['x-idempotent-replay']).toBe('hit');
  expect(await replay.json()).toEqual(applied);

  const tampered = await request.post('/v1/webhook/incoming', { headers: { ...headers, 'X-Webhook-Id': randomUUID() }, data: body.replace('p1', 'p2') });
  expect(tampered.status()).toBe(401);
  expect((await tampered.json()).error).toBe('invalid_signature');

  const token = await request.post('/v1/auth/token', { data: { appId, appSecret, userId: 'p1' } });
  const auth = { Authorization: `Bearer ${(await token.json()).accessToken}` };
  const recs = await request.get('/v1/recommendations', { headers: auth });
  expect(recs.status()).toBe(200);
  expect(recs.headers()['ratelimit-limit']).toBe('20');
  expect(await recs.json()).toMatchObject({ userId: 'p1', missionIds: ['win-one', 'play-five'], fallback: true });
});
