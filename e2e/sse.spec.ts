// The update stream in a real browser: Debian Chromium's native EventSource,
// which cannot send headers, authenticates with ?access_token= and receives
// an update through onmessage (no `event:` line), served by `npm start` and by `next start`.
import { expect, test } from '@playwright/test';

const ADMIN = { Authorization: 'Bearer e2e-admin-key-0123456789abcdef' };

test('native EventSource with ?access_token= receives an update via onmessage, and resumes with Last-Event-ID', async ({ page, request, baseURL }) => {
  const appId = `e2e-sse-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const created = await request.post('/api/admin/apps', { headers: ADMIN, data: { id: appId, name: 'E2E stream' } });
  expect(created.status()).toBe(201);
  const { appSecret } = await created.json();
  const put = await request.put(`/api/admin/apps/${appId}/catalog`, {
    headers: ADMIN,
    data: { missions: [{ id: 'play', title: 'Play', criteria: { eventName: 'match_played', count: 100 }, reward: { kind: 'currency', currency: 'gems', amount: 1 } }] },
  });
  expect(put.status()).toBe(200);
  const issued = await request.post('/v1/auth/token', { data: { appId, appSecret, userId: 'player-1' } });
  const { accessToken } = await issued.json();
  const postEvent = async () => {
    const res = await request.post('/v1/events', {
      headers: { Authorization: `Bearer ${accessToken}` },
      data: { userId: 'player-1', name: 'match_played', payload: {}, timestamp: Date.now() },
    });
    expect(res.status()).toBe(200);
  };

  // A page on another origin (localhost vs 127.0.0.1): the stream is cross-origin.
  await page.goto(baseURL!.replace('127.0.0.1', 'localhost') + '/');
  const streamUrl = `${baseURL}/v1/sse/updates?access_token=${encodeURIComponent(accessToken)}`;
  await page.evaluate((url) => {
    const w = window as unknown as { received: Array<{ data: string; lastEventId: string; type: string }>; opened: boolean; es: EventSource };
    w.received = [];
    w.opened = false;
    w.es = new EventSource(url);
    w.es.onopen = () => {
      w.opened = true;
    };
    w.es.onmessage = (e) => w.received.push({ data: e.data, lastEventId: e.lastEventId, type: e.type });
  }, streamUrl);
  await page.waitForFunction(() => (window as unknown as { opened: boolean }).opened, undefined, { timeout: 30_000 });

  await postEvent();
  await page.waitForFunction(() => (window as unknown as { received: unknown[] }).received.length >= 1, undefined, { timeout: 30_000 });
  const [first] = await page.evaluate(() => (window as unknown as { received: Array<{ data: string; lastEventId: string; type: string }> }).received);
  expect(first.type).toBe('message');
  expect(first.lastEventId).toMatch(/^\d+-\d+$/);
  expect(JSON.parse(first.data)).toMatchObject({ type: 'mission.progress', data: { userId: 'player-1', missionId: 'play', currentCount: 1 } });

  // Missed while closed, then replayed from the lastEventId query parameter.
  await page.evaluate(() => (window as unknown as { es: EventSource }).es.close());
  await postEvent();
  await postEvent();
  await page.evaluate(
    ({ url, last }) => {
      const w = window as unknown as { resumed: string[]; es: EventSource };
      w.resumed = [];
      w.es = new EventSource(`${url}&lastEventId=${encodeURIComponent(last)}`);
      w.es.onmessage = (e) => w.resumed.push(e.data);
    },
    { url: streamUrl, last: first.lastEventId },
  );
  await page.waitForFunction(() => (window as unknown as { resumed: unknown[] }).resumed.length >= 2, undefined, { timeout: 30_000 });
  const resumed = await page.evaluate(() => (window as unknown as { resumed: string[] }).resumed);
  expect(resumed.map((d) => JSON.parse(d).data.currentCount)).toEqual([2, 3]);
  await page.evaluate(() => (window as unknown as { es: EventSource }).es.close());
});
