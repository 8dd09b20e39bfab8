// Two server PROCESSES (scripts/serve.ts) on one PostgreSQL and one Redis:
// updates cross instances, and the rate limit and idempotency are shared.
// The embedded store is single-instance by design, so without DATABASE_URL
// and REDIS_URL this suite is skipped (CI's PostgreSQL + Redis pass runs it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, issueToken, uniqueId, userClient, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { openSse, type SseStream } from '@/lib/testing/sse-client';
import { sharedStores as shared, startInstance, type Instance } from '@/lib/testing/instance';
import { awayFromWindowEdge } from '@/lib/testing/rate-window';

function suite(): void {
  let a: Instance;
  let b: Instance;
  let app: TestApp;
  const streams: SseStream[] = [];

  beforeAll(async () => {
    // Both boot at once: migrations are serialised by the advisory lock.
    [a, b] = await Promise.all([startInstance('A'), startInstance('B')]);
    app = await createTestApp(a, {
      missions: [{ id: 'play', title: 'Play', criteria: { eventName: 'match_played', count: 1000 }, reward: { kind: 'currency', currency: 'gems', amount: 1 } }],
    });
  }, 240_000);

  afterAll(async () => {
    await Promise.all(streams.map((s) => s.close()));
    await Promise.all([a?.close(), b?.close()]);
  });

  const post = (server: TestServer, token: string, userId: string, headers: Record<string, string> = {}, timestamp = Date.now()) =>
    userClient(server, token).post('/v1/events', { userId, name: 'match_played', payload: {}, timestamp }, headers);

  it('an event posted to instance A reaches a stream opened on instance B (and resume works across instances)', async () => {
    const userId = uniqueId('u');
    const token = await issueToken(a, app, userId);
    const onB = await openSse(`${b.url}/v1/sse/updates?access_token=${encodeURIComponent(token)}`);
    streams.push(onB);
    expect(onB.response.status).toBe(200);
    await onB.waitFor((s) => s.raw.startsWith(': connected'), 'connected');
    expect((await post(a, token, userId)).status).toBe(200);
    await onB.waitForMessages(1);
    expect(onB.updates[0]).toMatchObject({ type: 'mission.progress', data: { userId, missionId: 'play', currentCount: 1 } });
    await onB.close();

    expect((await post(b, token, userId)).status).toBe(200);
    expect((await post(a, token, userId)).status).toBe(200);
    const resumedOnA = await openSse(`${a.url}/v1/sse/updates`, { Authorization: `Bearer ${token}`, 'Last-Event-ID': onB.messages[0].id });
    streams.push(resumedOnA);
    await resumedOnA.waitForMessages(2);
    expect(resumedOnA.updates.map((u) => u.data.currentCount)).toEqual([2, 3]);
  });

  it('an event that changed nothing, posted to A, reaches a staff stream on B as event.recorded (the staff channel crosses instances)', async () => {
    const userId = uniqueId('u');
    const token = await issueToken(a, app, userId);
    const staffOnB = await openSse(`${b.url}/api/admin/apps/${app.appId}/users/${userId}/updates`, { Authorization: `Bearer ${b.adminKey}` });
    streams.push(staffOnB);
    expect(staffOnB.response.status).toBe(200);
    await staffOnB.waitFor((s) => s.raw.startsWith(': connected'), 'connected');
    const res = await userClient(a, token).post('/v1/events', { userId, name: 'match_plyed', payload: {}, timestamp: Date.now() });
    expect(res.status).toBe(200);
    const { eventId, missionsUpdated } = (await res.json()) as { eventId: string; missionsUpdated: string[] };
    expect(missionsUpdated).toEqual([]);
    await staffOnB.waitFor((s) => s.updates.some((u) => u.data.id === eventId), 'the event on B', 5_000);
    expect(staffOnB.updates.find((u) => u.data.id === eventId)).toMatchObject({
      id: '',
      type: 'event.recorded',
      data: { userId, name: 'match_plyed', verdicts: [{ missionId: 'play', counted: false, code: 'event_name_mismatch', expected: 'match_played', seen: 'match_plyed' }] },
    });
  });

  it('the event rate limit is shared: 100 events on A, the 101st on B gets 429', async () => {
    const userId = uniqueId('u');
    const token = await issueToken(a, app, userId);
    await awayFromWindowEdge(40_000);
    for (let i = 0; i < 100; i++) {
      const res = await post(a, token, userId);
      expect(res.status, `event ${i + 1}`).toBe(200);
    }
    const limited = await post(b, token, userId);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
    expect(await limited.json()).toMatchObject({ error: 'rate_limited' });
  });

  it('idempotency is shared: the same key on A then B is a replay and publishes nothing', async () => {
    const userId = uniqueId('u');
    const token = await issueToken(a, app, userId);
    const stream = await openSse(`${b.url}/v1/sse/updates`, { Authorization: `Bearer ${token}` });
    streams.push(stream);
    await stream.waitFor((s) => s.raw.startsWith(': connected'), 'connected');
    const key = uniqueId('key');
    const at = Date.now();
    const first = await post(a, token, userId, { 'Idempotency-Key': key }, at);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-idempotent-replay')).toBeNull();
    const second = await post(b, token, userId, { 'Idempotency-Key': key }, at);
    expect(second.status).toBe(200);
    expect(second.headers.get('x-idempotent-replay')).toMatch(/^(hit|db-hit)$/);
    expect(await second.json()).toEqual(await first.json());
    await stream.waitForMessages(1);
    // A marker (a later event without a key, through B): the user's stream is ordered, so a message the
    // replay had published would have come before the marker's.
    expect((await post(b, token, userId)).status).toBe(200);
    await stream.waitFor((s) => s.updates.some((u) => u.data.currentCount === 2), 'the marker');
    expect(stream.updates.map((u) => u.data.currentCount)).toEqual([1, 2]);
  });

  it('GET /v1/missions on B shows a change written through A as soon as A has answered (B’s record cache is checked against the sequence number)', async () => {
    const userId = uniqueId('u');
    const token = await issueToken(a, app, userId);
    const onB = userClient(b, token);
    const countOnB = async () => {
      const res = await onB.get('/v1/missions');
      expect(res.status).toBe(200);
      const body = (await res.json()) as { progress: Record<string, { currentCount: number } | undefined> };
      return body.progress.play?.currentCount ?? 0;
    };
    // Read twice first, so B holds the user's records in its cache.
    expect(await countOnB()).toBe(0);
    expect(await countOnB()).toBe(0);
    for (let n = 1; n <= 3; n++) {
      expect((await post(a, token, userId)).status).toBe(200);
      expect(await countOnB()).toBe(n);
      expect(await countOnB()).toBe(n);
    }
  });

  it('a theme preset edited through A reaches B’s /v1/campaigns (the catalog cache is dropped over the bus)', async () => {
    const admin = (server: TestServer, method: string, route: string, body: unknown) =>
      fetch(server.url + route, { method, headers: { Authorization: `Bearer ${server.adminKey}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const themes = `/api/admin/apps/${app.appId}/themes`;
    expect((await admin(a, 'POST', themes, { id: 'sky', name: 'Sky', primaryColor: '#0284c7' })).status).toBe(201);
    const now = Date.now();
    expect((await admin(a, 'POST', `/api/admin/apps/${app.appId}/campaigns`, { id: 'sky-week', title: 'Sky week', startAt: now - 1000, endAt: now + 86_400_000, themeId: 'sky' })).status).toBe(201);
    const client = userClient(b, await issueToken(b, app, uniqueId('u')));
    const themeOnB = async () => ((await (await client.get('/v1/campaigns/sky-week')).json()) as { campaign?: { theme?: unknown } }).campaign?.theme;
    // B has the campaign in its cache now; the edit on A must drop it there.
    expect(await themeOnB()).toEqual({ primaryColor: '#0284c7' });
    expect((await admin(a, 'PUT', `${themes}/sky`, { name: 'Sky', primaryColor: '#be123c', version: 1 })).status).toBe(200);
    await expect.poll(themeOnB, { timeout: 30_000 }).toEqual({ primaryColor: '#be123c' });
  });
}

if (shared) {
  describe('two server processes on shared PostgreSQL + Redis', suite);
} else {
  // CI's first pass runs the embedded default on purpose; its second pass
  // (.ci/run) sets DATABASE_URL and REDIS_URL, where this suite runs.
  describe.skip('two server processes — skipped: set DATABASE_URL and REDIS_URL (the embedded store is single-instance by design)', suite);
}
