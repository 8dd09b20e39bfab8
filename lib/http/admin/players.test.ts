// The inspector's admin API over real HTTP: the user's view with the engine's
// verdicts, a test event through the real recordEvent path, revocation, and
// the staff-authenticated update stream (on the embedded default, or on the
// PostgreSQL/Redis of DATABASE_URL/REDIS_URL: the stream then runs on the
// Redis bus and update log).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { eventRecordedUpdateSchema, type Inspection } from '@/lib/contract/inspector';
import { openSse } from '@/lib/testing/sse-client';
import { sendDelivery } from '@/lib/testing/webhook';
import { asStaff, signedInStaff, type TestStaff } from '@/lib/testing/staff';
import { createTestApp, issueToken, startTestServer, uniqueId, userClient, type TestApp, type TestServer } from '@/lib/testing/test-server';

let server: TestServer;
let support: TestStaff;
let editor: TestStaff;
const HOUR = 3_600_000;

beforeAll(async () => {
  server = await startTestServer();
  support = await signedInStaff(server, 'support');
  editor = await signedInStaff(server, 'editor');
});
afterAll(async () => server?.close());

function catalog() {
  const now = Date.now();
  return {
    campaigns: [
      { id: 'later', title: 'Later', startAt: now + 10 * 24 * HOUR, endAt: now + 20 * 24 * HOUR },
    ],
    missions: [
      {
        id: 'ranked-wins',
        title: 'Win 2 ranked matches',
        criteria: { eventName: 'match.won', count: 2, window: 'lifetime' as const, filter: { mode: 'ranked' } },
        reward: { kind: 'currency' as const, currency: 'gold', amount: 25 },
      },
      {
        id: 'after-ranked',
        title: 'Then win one more',
        criteria: { eventName: 'match.won', count: 1, window: 'lifetime' as const },
        reward: { kind: 'currency' as const, currency: 'gold', amount: 5 },
        prerequisites: ['ranked-wins'],
      },
      {
        id: 'levels',
        title: 'Reach a level',
        criteria: { eventName: 'level.up', count: 1, window: 'lifetime' as const },
        reward: { kind: 'badge' as const, badgeId: 'climber' },
      },
      {
        id: 'upcoming',
        title: 'Upcoming',
        campaignId: 'later',
        criteria: { eventName: 'match.won', count: 1, window: 'lifetime' as const },
        reward: { kind: 'currency' as const, currency: 'gold', amount: 1 },
      },
    ],
  };
}

async function inspect(app: TestApp, userId: string, cookie = support.cookie): Promise<Inspection> {
  const res = await asStaff(server, cookie, 'GET', `/api/admin/apps/${app.appId}/users/${encodeURIComponent(userId)}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Inspection;
}

async function sendEvent(token: string, userId: string, name: string, payload: Record<string, unknown>) {
  const res = await userClient(server, token).post('/v1/events', { userId, name, payload, timestamp: Date.now() });
  expect(res.status).toBe(200);
  return (await res.json()) as { eventId: string; missionsUpdated: string[] };
}

describe('GET /api/admin/apps/:appId/users/:userId (inspector)', () => {
  it('explains every event mission by mission, with the engine’s reasons, and shows locks, balances and ledger', async () => {
    const app = await createTestApp(server, catalog());
    const userId = uniqueId('player');
    const token = await issueToken(server, app, userId);

    const casual = await sendEvent(token, userId, 'match.won', { mode: 'casual' });
    expect(casual.missionsUpdated).toEqual([]);
    const ranked = await sendEvent(token, userId, 'match.won', { mode: 'ranked' });
    expect(ranked.missionsUpdated).toEqual(['ranked-wins']);

    let view = await inspect(app, userId);
    expect(view.missions.map((m) => [m.mission.id, m.status])).toEqual([
      ['after-ranked', 'locked'],
      ['levels', 'active'],
      ['ranked-wins', 'active'],
      ['upcoming', 'locked'],
    ]);
    const byId = Object.fromEntries(view.missions.map((m) => [m.mission.id, m]));
    expect(byId['after-ranked'].lock).toEqual({ reason: 'prerequisites', missing: ['ranked-wins'] });
    expect(byId['upcoming'].lock).toMatchObject({ reason: 'campaign_not_started', campaignId: 'later' });
    expect(byId['ranked-wins'].progress).toMatchObject({ currentCount: 1, targetCount: 2, status: 'active' });

    // Newest first; the casual win failed the filter on `mode`, with the value seen.
    expect(view.events.map((e) => e.id)).toEqual([ranked.eventId, casual.eventId]);
    const verdicts = (eventId: string) => Object.fromEntries(view.events.find((e) => e.id === eventId)!.verdicts!.map((v) => [v.missionId, v]));
    expect(verdicts(casual.eventId)['ranked-wins']).toEqual({
      missionId: 'ranked-wins',
      counted: false,
      code: 'filter_mismatch',
      key: 'mode',
      condition: 'ranked',
      missing: false,
      seen: 'casual',
    });
    expect(verdicts(ranked.eventId)['ranked-wins']).toEqual({ missionId: 'ranked-wins', counted: true, change: 'progress', currentCount: 1, targetCount: 2 });
    expect(verdicts(ranked.eventId)['after-ranked']).toEqual({ missionId: 'after-ranked', counted: false, code: 'locked_by_prerequisite', missing: ['ranked-wins'] });
    expect(verdicts(ranked.eventId)['upcoming']).toMatchObject({ counted: false, code: 'campaign_not_live', state: 'not_started' });
    expect(verdicts(ranked.eventId)['levels']).toEqual({ missionId: 'levels', counted: false, code: 'event_name_mismatch', expected: 'level.up', seen: 'match.won' });
    expect(view.events[0].source).toBe('api');

    // Complete and claim through /v1: the balance and the ledger show the grant, the verdict says already completed.
    await sendEvent(token, userId, 'match.won', { mode: 'ranked' });
    const again = await sendEvent(token, userId, 'match.won', { mode: 'ranked' });
    const claim = await userClient(server, token).post('/v1/missions/ranked-wins/claim');
    expect(claim.status).toBe(200);
    view = await inspect(app, userId);
    expect(view.balances).toMatchObject([{ currency: 'gold', amount: 25 }]);
    expect(view.ledger).toMatchObject([{ kind: 'currency', currency: 'gold', amount: 25, missionId: 'ranked-wins', balanceAfter: 25 }]);
    expect(view.missions.find((m) => m.mission.id === 'ranked-wins')!.status).toBe('claimed');
    expect(view.missions.find((m) => m.mission.id === 'after-ranked')!).toMatchObject({ status: 'active', lock: null });
    const last = view.events.find((e) => e.id === again.eventId)!;
    expect(last.verdicts!.find((v) => v.missionId === 'ranked-wins')).toEqual({ missionId: 'ranked-wins', counted: false, code: 'already_completed' });
  });

  it('a mission given the event’s name after the event was not evaluated for it; events from before verdicts answer null', async () => {
    const app = await createTestApp(server, catalog());
    const userId = uniqueId('player');
    const token = await issueToken(server, app, userId);
    const { eventId } = await sendEvent(token, userId, 'quest.done', {});
    const put = await fetch(`${server.url}/api/admin/apps/${app.appId}/catalog`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${server.adminKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        missions: [{ id: 'quests', title: 'Quests', criteria: { eventName: 'quest.done', count: 1, window: 'lifetime' }, reward: { kind: 'badge', badgeId: 'q' } }],
      }),
    });
    expect(put.status).toBe(200);
    const [{ getDb }, { events }] = await Promise.all([import('@/db/client'), import('@/db/schema')]);
    const old = await sendEvent(token, userId, 'other', {});
    await (await getDb()).update(events).set({ outcome: null }).where(and(eq(events.appId, app.appId), eq(events.id, old.eventId)));
    const view = await inspect(app, userId);
    expect(view.events.find((e) => e.id === eventId)!.verdicts!.find((v) => v.missionId === 'quests')).toEqual({ missionId: 'quests', counted: false, code: 'not_evaluated' });
    expect(view.events.find((e) => e.id === old.eventId)!.verdicts).toBeNull();
  });

  it('needs players.read: an editor is refused, a signed-out request is 401; an unknown app is 404', async () => {
    const app = await createTestApp(server, catalog());
    expect((await asStaff(server, editor.cookie, 'GET', `/api/admin/apps/${app.appId}/users/u1`)).status).toBe(403);
    expect((await fetch(`${server.url}/api/admin/apps/${app.appId}/users/u1`)).status).toBe(401);
    const missing = await asStaff(server, support.cookie, 'GET', `/api/admin/apps/no-such-app/users/u1`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).error).toBe('app_not_found');
  });
});

describe('POST /api/admin/apps/:appId/users/:userId/events (test event)', () => {
  it('records the event as the user through the real path, marked source "test", and audits it', async () => {
    const app = await createTestApp(server, catalog());
    const userId = uniqueId('player');
    const res = await asStaff(server, support.cookie, 'POST', `/api/admin/apps/${app.appId}/users/${userId}/events`, { name: 'match.won', payload: { mode: 'ranked' } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { accepted: true; eventId: string; missionsUpdated: string[] };
    expect(body).toMatchObject({ accepted: true, missionsUpdated: ['ranked-wins'] });
    const view = await inspect(app, userId);
    expect(view.events[0]).toMatchObject({ id: body.eventId, source: 'test', name: 'match.won' });
    expect(view.missions.find((m) => m.mission.id === 'ranked-wins')!.progress).toMatchObject({ currentCount: 1 });
    // The player's own /v1 view agrees.
    const token = await issueToken(server, app, userId);
    const mission = await (await userClient(server, token).get('/v1/missions/ranked-wins')).json();
    expect(mission.progress).toMatchObject({ currentCount: 1 });

    const [{ getDb }, { auditLog }] = await Promise.all([import('@/db/client'), import('@/db/schema')]);
    const rows = await (await getDb()).select().from(auditLog).where(and(eq(auditLog.appId, app.appId), eq(auditLog.action, 'user.test_event')));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor: `staff:${support.email}`, target: `user:${userId}`, after: { eventId: body.eventId, name: 'match.won' } });
  });

  it('validates the body, and an editor may not send one', async () => {
    const app = await createTestApp(server, catalog());
    const bad = await asStaff(server, support.cookie, 'POST', `/api/admin/apps/${app.appId}/users/u1/events`, { name: '' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe('validation_error');
    expect((await asStaff(server, editor.cookie, 'POST', `/api/admin/apps/${app.appId}/users/u1/events`, { name: 'x' })).status).toBe(403);
  });

  it('bounds the test event’s time like a webhook’s (5 min ahead, 7 days back): a test event dated 2100 is refused and nothing is stored', async () => {
    const app = await createTestApp(server, catalog());
    const userId = uniqueId('player');
    const future = await asStaff(server, support.cookie, 'POST', `/api/admin/apps/${app.appId}/users/${userId}/events`, { name: 'match.won', timestamp: Date.UTC(2100, 0, 1) });
    expect(future.status).toBe(400);
    expect(await future.json()).toEqual({ error: 'validation_error', message: expect.stringMatching(/^timestamp: .*ahead of the server clock/) });
    const old = await asStaff(server, support.cookie, 'POST', `/api/admin/apps/${app.appId}/users/${userId}/events`, { name: 'match.won', timestamp: Date.now() - 8 * 86_400_000 });
    expect(old.status).toBe(400);
    expect((await inspect(app, userId)).events).toEqual([]);
  });
});

describe('revoking from the inspector (POST /api/admin/apps/:appId/revocations with a support session)', () => {
  it('the user’s tokens answer 401 afterwards', async () => {
    const app = await createTestApp(server, catalog());
    const userId = uniqueId('player');
    const token = await issueToken(server, app, userId);
    expect((await userClient(server, token).get('/v1/balance')).status).toBe(200);
    const res = await asStaff(server, support.cookie, 'POST', `/api/admin/apps/${app.appId}/revocations`, { userId });
    expect(res.status).toBe(200);
    expect((await userClient(server, token).get('/v1/balance')).status).toBe(401);
  });
});

describe('GET /api/admin/apps/:appId/users/:userId/updates (staff stream)', () => {
  it('streams the user’s updates, as /v1/sse/updates does, to a support session (cookie, no token in the URL)', async () => {
    const app = await createTestApp(server, catalog());
    const userId = uniqueId('player');
    const token = await issueToken(server, app, userId);
    const staffStream = await openSse(`${server.url}/api/admin/apps/${app.appId}/users/${userId}/updates`, { Cookie: support.cookie });
    const playerStream = await openSse(`${server.url}/v1/sse/updates`, { Authorization: `Bearer ${token}` });
    try {
      expect(staffStream.response.status).toBe(200);
      expect(staffStream.response.headers.get('content-type')).toContain('text/event-stream');
      await staffStream.waitFor((s) => s.raw.startsWith(': connected'), 'the connected comment');
      await playerStream.waitFor((s) => s.raw.startsWith(': connected'), 'the connected comment');
      await sendEvent(token, userId, 'match.won', { mode: 'ranked' });
      // The staff stream also hears event.recorded (no id: not in the log); the logged frames are the player's.
      const logged = (s: typeof staffStream) => s.messages.filter((m) => m.id !== '');
      await staffStream.waitFor((s) => logged(s).length >= 1, 'a logged message');
      await playerStream.waitForMessages(1);
      expect(staffStream.updates.filter((u) => u.id !== '')[0]).toMatchObject({ type: 'mission.progress', data: { missionId: 'ranked-wins', currentCount: 1, userId } });
      // The same log entry: same id, same bytes.
      expect(logged(staffStream)[0].raw).toBe(playerStream.messages[0].raw);
      await staffStream.waitFor((s) => s.updates.some((u) => u.type === 'event.recorded'), 'the event itself');
      expect(staffStream.updates.find((u) => u.type === 'event.recorded')).toMatchObject({ id: '', data: { userId, name: 'match.won', source: 'api' } });
    } finally {
      await staffStream.close();
      await playerStream.close();
    }
  });

  it('refuses an editor (403) and a request without a session (401), and another user’s updates never arrive', async () => {
    const app = await createTestApp(server, catalog());
    const url = `${server.url}/api/admin/apps/${app.appId}/users/someone/updates`;
    const asEditor = await openSse(url, { Cookie: editor.cookie });
    expect(asEditor.response.status).toBe(403);
    const signedOut = await openSse(url);
    expect(signedOut.response.status).toBe(401);
    // A JWT is no way in either.
    const token = await issueToken(server, app, 'someone');
    const withToken = await openSse(`${url}?access_token=${token}`);
    expect(withToken.response.status).toBe(401);

    const watched = await openSse(url, { Cookie: support.cookie });
    try {
      await watched.waitFor((s) => s.raw.startsWith(': connected'), 'the connected comment');
      const other = await issueToken(server, app, 'another');
      await sendEvent(other, 'another', 'match.won', { mode: 'ranked' });
      await sendEvent(token, 'someone', 'level.up', {});
      // The watched user's progress and the event itself, nothing of the other user's.
      await watched.waitFor((s) => s.updates.some((u) => u.type === 'mission.completed') && s.updates.some((u) => u.type === 'event.recorded'), 'the completion and the event');
      expect(watched.updates.filter((u) => u.id !== '').map((u) => u.data.userId)).toEqual(['someone']);
      expect(watched.updates.filter((u) => u.type === 'event.recorded').map((u) => [u.data.userId, u.data.name])).toEqual([['someone', 'level.up']]);
    } finally {
      await watched.close();
    }
  });
});

describe('event.recorded on the staff stream: every stored event, with its verdicts', () => {
  it('an event that counted for nothing reaches the staff stream within a second, with its reasons, and never the player’s stream', async () => {
    const app = await createTestApp(server, catalog());
    const userId = uniqueId('player');
    const token = await issueToken(server, app, userId);
    const staffStream = await openSse(`${server.url}/api/admin/apps/${app.appId}/users/${userId}/updates`, { Cookie: support.cookie });
    const playerStream = await openSse(`${server.url}/v1/sse/updates`, { Authorization: `Bearer ${token}` });
    try {
      await staffStream.waitFor((s) => s.raw.startsWith(': connected'), 'the connected comment');
      await playerStream.waitFor((s) => s.raw.startsWith(': connected'), 'the connected comment');

      // A wrong name: no mission reads it, so it changes nothing and takes no sequence number.
      const sentAt = Date.now();
      const wrong = await sendEvent(token, userId, 'match_won', { mode: 'ranked' });
      expect(wrong.missionsUpdated).toEqual([]);
      await staffStream.waitFor((s) => s.updates.some((u) => u.data.id === wrong.eventId), 'the wrong-name event', 1_000);
      const heardAfterMs = Date.now() - sentAt;
      const named = staffStream.updates.find((u) => u.data.id === wrong.eventId)!;
      expect(named).toMatchObject({ id: '', type: 'event.recorded', data: { userId, name: 'match_won', payload: { mode: 'ranked' }, source: 'api' } });
      // The frame is the contract's EventRecordedUpdate, whole.
      expect(eventRecordedUpdateSchema.safeParse({ type: named.type, data: named.data }).success).toBe(true);
      const namedVerdicts = named.data.verdicts as Array<Record<string, unknown>>;
      // One per mission, every one the engine's name mismatch with the expected name.
      expect(namedVerdicts.map((v) => [v.missionId, v.counted, v.code, v.expected, v.seen])).toEqual([
        ['after-ranked', false, 'event_name_mismatch', 'match.won', 'match_won'],
        ['levels', false, 'event_name_mismatch', 'level.up', 'match_won'],
        ['ranked-wins', false, 'event_name_mismatch', 'match.won', 'match_won'],
        ['upcoming', false, 'event_name_mismatch', 'match.won', 'match_won'],
      ]);

      // The right name with a payload the filter refuses: judged, counted for nothing.
      const casual = await sendEvent(token, userId, 'match.won', { mode: 'casual' });
      expect(casual.missionsUpdated).toEqual([]);
      await staffStream.waitFor((s) => s.updates.some((u) => u.data.id === casual.eventId), 'the filtered-out event', 1_000);
      const filtered = staffStream.updates.find((u) => u.data.id === casual.eventId)!;
      const byMission = new Map((filtered.data.verdicts as Array<Record<string, unknown>>).map((v) => [v.missionId, v]));
      expect(byMission.get('ranked-wins')).toMatchObject({ counted: false, code: 'filter_mismatch', key: 'mode', condition: 'ranked', seen: 'casual' });
      expect(byMission.get('after-ranked')).toMatchObject({ counted: false, code: 'locked_by_prerequisite', missing: ['ranked-wins'] });
      expect(byMission.get('upcoming')).toMatchObject({ counted: false, code: 'campaign_not_live', campaignId: 'later', state: 'not_started' });
      expect(byMission.get('levels')).toMatchObject({ counted: false, code: 'event_name_mismatch' });

      // What the stream said is what a reload shows.
      const inspection = await inspect(app, userId);
      for (const heard of [named, filtered]) {
        const { userId: _u, ...event } = heard.data;
        expect(inspection.events.find((e) => e.id === heard.data.id)).toEqual(event);
      }

      // Neither changed anything, so the player's stream heard nothing (and event.recorded never goes there).
      await sendEvent(token, userId, 'level.up', {});
      await playerStream.waitForMessages(1);
      await staffStream.waitFor((s) => s.updates.filter((u) => u.type === 'event.recorded').length === 3, 'the third event');
      expect(playerStream.updates.map((u) => u.type)).toEqual(['mission.completed']);
      expect(playerStream.raw).not.toContain('event.recorded');
      console.info(`[staff stream] POST /v1/events (counted for nothing) to event.recorded on the staff stream: ${heardAfterMs} ms (incl. the POST's own round trip)`);
    } finally {
      await staffStream.close();
      await playerStream.close();
    }
  });

  it('a test event from the inspector is announced too (source "test"), and a replayed idempotent event is not announced twice', async () => {
    const app = await createTestApp(server, catalog());
    const userId = uniqueId('player');
    const token = await issueToken(server, app, userId);
    const staffStream = await openSse(`${server.url}/api/admin/apps/${app.appId}/users/${userId}/updates`, { Cookie: support.cookie });
    try {
      await staffStream.waitFor((s) => s.raw.startsWith(': connected'), 'the connected comment');
      const res = await asStaff(server, support.cookie, 'POST', `/api/admin/apps/${app.appId}/users/${userId}/events`, { name: 'lvl.up', payload: {} });
      expect(res.status).toBe(200);
      const { eventId } = (await res.json()) as { eventId: string };
      await staffStream.waitFor((s) => s.updates.some((u) => u.data.id === eventId), 'the test event');
      expect(staffStream.updates.find((u) => u.data.id === eventId)).toMatchObject({ type: 'event.recorded', data: { name: 'lvl.up', source: 'test' } });

      const client = userClient(server, token);
      const body = { userId, name: 'nothing.here', payload: {}, timestamp: Date.now(), idempotencyKey: uniqueId('key') };
      const first = (await (await client.post('/v1/events', body)).json()) as { eventId: string };
      const again = (await (await client.post('/v1/events', body)).json()) as { eventId: string };
      expect(again.eventId).toBe(first.eventId);
      // A later event proves the stream has moved past any second announcement of the first.
      const later = await sendEvent(token, userId, 'level.up', {});
      await staffStream.waitFor((s) => s.updates.some((u) => u.data.id === later.eventId), 'the later event');
      expect(staffStream.updates.filter((u) => u.data.id === first.eventId)).toHaveLength(1);
    } finally {
      await staffStream.close();
    }
  });
});

describe('event.recorded from a webhook delivery', () => {
  it('each event of a delivery is announced after the delivery commits, with source "webhook"', async () => {
    const app = await createTestApp(server, catalog());
    const userId = uniqueId('player');
    const staffStream = await openSse(`${server.url}/api/admin/apps/${app.appId}/users/${userId}/updates`, { Cookie: support.cookie });
    try {
      await staffStream.waitFor((s) => s.raw.startsWith(': connected'), 'the connected comment');
      const now = Date.now();
      const sent = await sendDelivery(server, app, {
        events: [
          { userId, name: 'match.won', payload: { mode: 'casual' }, timestamp: now },
          { userId, name: 'level_up', payload: {}, timestamp: now + 1 },
        ],
      });
      expect(sent.status).toBe(200);
      await staffStream.waitFor((s) => s.updates.filter((u) => u.type === 'event.recorded').length === 2, 'both events', 5_000);
      const heard = staffStream.updates.filter((u) => u.type === 'event.recorded');
      expect(heard.map((u) => [u.data.name, u.data.source])).toEqual([
        ['match.won', 'webhook'],
        ['level_up', 'webhook'],
      ]);
      expect((heard[1].data.verdicts as Array<Record<string, unknown>>).every((v) => v.code === 'event_name_mismatch')).toBe(true);
    } finally {
      await staffStream.close();
    }
  });
});

describe('admin OpenAPI', () => {
  it('documents the inspector’s operations with their capabilities and shapes', async () => {
    const doc = await (await fetch(`${server.url}/api/admin/openapi.json`)).json();
    expect(doc.paths['/api/admin/apps/{appId}/users/{userId}'].get.description).toContain('players.read');
    expect(doc.paths['/api/admin/apps/{appId}/users/{userId}/events'].post.description).toContain('players.test_event');
    expect(Object.keys(doc.paths['/api/admin/apps/{appId}/users/{userId}/updates'].get.responses['200'].content)).toEqual(['text/event-stream']);
    for (const name of ['Inspection', 'Verdict', 'MissionLock', 'TestEvent', 'RecordedEvent']) expect(doc.components.schemas, name).toHaveProperty(name);
  });
});
