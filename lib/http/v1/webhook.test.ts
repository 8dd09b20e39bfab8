// HTTP contract of POST /v1/webhook/incoming over real HTTP: the signature
// (HMAC over the raw bytes, ±5 minutes, one 401 for every failure), the body
// validated whole, the same effects as POST /v1/events, delivery idempotency
// (cache, database, re-sent signatures, event keys) and the per-app limit
// counted in events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sum } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { analyticsRollups, events } from '@/db/schema';
import { getKv } from '@/lib/kv';
import { idempotencyCacheKey } from '@/lib/idempotency/run-idempotent';
import { openSse, type SseStream } from '@/lib/testing/sse-client';
import { mission, newUser } from '@/lib/testing/fixtures';
import { createTestApp, startTestServer, uniqueId, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { sendDelivery, sign, whEvent } from '@/lib/testing/webhook';
import { getUpdateLog, userLogKey } from '@/lib/updates/log';

let server: TestServer;
let app: TestApp;
let other: TestApp;
const streams: SseStream[] = [];
const MINUTE = 60_000;

beforeAll(async () => {
  server = await startTestServer();
  const catalog = {
    missions: [
      mission('play-3', { criteria: { eventName: 'play', count: 3 } }),
      mission('win-1', { criteria: { eventName: 'win', count: 1, filter: { mode: 'ranked' } } }),
    ],
  };
  app = await createTestApp(server, catalog);
  other = await createTestApp(server, catalog);
});
afterAll(async () => {
  await Promise.all(streams.map((s) => s.close()));
  await server?.close();
});

async function storedEvents(appId: string, userId: string): Promise<Array<{ name: string; source: string; id: string }>> {
  const db = await getDb();
  return db
    .select({ name: events.name, source: events.source, id: events.id })
    .from(events)
    .where(and(eq(events.appId, appId), eq(events.userId, userId)));
}

/** The app's dashboard counters, `kind:key` → count. */
async function rollupCounts(appId: string): Promise<Record<string, number>> {
  const db = await getDb();
  const rows = await db
    .select({ kind: analyticsRollups.kind, key: analyticsRollups.key, n: sum(analyticsRollups.count) })
    .from(analyticsRollups)
    .where(eq(analyticsRollups.appId, appId))
    .groupBy(analyticsRollups.kind, analyticsRollups.key);
  return Object.fromEntries(rows.map((r) => [`${r.kind}:${r.key}`, Number(r.n)]));
}

async function stream(a: TestApp, userId: string): Promise<SseStream> {
  const user = await newUser(server, a, userId);
  const s = await openSse(`${server.url}/v1/sse/updates`, { Authorization: `Bearer ${user.token}` });
  streams.push(s);
  await s.waitFor((x) => x.raw.startsWith(': connected'), 'connected');
  return s;
}

describe('POST /v1/webhook/incoming: a signed delivery', () => {
  it('answers 200 {accepted, results[{eventId, missionsUpdated}]} in the order of the events, for several users', async () => {
    const [u1, u2] = [uniqueId('u'), uniqueId('u')];
    const sent = await sendDelivery(server, app, {
      events: [whEvent(u1), whEvent(u2, 'win', { payload: { mode: 'ranked' } }), whEvent(u1, 'unrelated'), whEvent(u1)],
    });
    expect(sent.status).toBe(200);
    expect(sent.res.headers.get('x-idempotent-replay')).toBeNull();
    expect(Object.keys(sent.body).sort()).toEqual(['accepted', 'results']);
    expect(sent.body.accepted).toBe(true);
    const results = sent.body.results as Array<{ eventId: string; missionsUpdated: string[] }>;
    expect(results.map((r) => r.missionsUpdated)).toEqual([['play-3'], ['win-1'], [], ['play-3']]);
    for (const r of results) expect(Object.keys(r).sort()).toEqual(['eventId', 'missionsUpdated']);
    expect(new Set(results.map((r) => r.eventId)).size).toBe(4);
    const stored = await storedEvents(app.appId, u1);
    expect(stored.map((e) => e.id).sort()).toEqual([results[0].eventId, results[2].eventId, results[3].eventId].sort());
    expect(stored.every((e) => e.source === 'webhook')).toBe(true);
  });

  it('has the effects of POST /v1/events: the same progress, stream messages and analytics', async () => {
    const viaApi = await newUser(server, app);
    const viaHook = uniqueId('u');
    const apiStream = await openSse(`${server.url}/v1/sse/updates`, { Authorization: `Bearer ${viaApi.token}` });
    streams.push(apiStream);
    const hookStream = await stream(app, viaHook);
    await apiStream.waitFor((x) => x.raw.startsWith(': connected'), 'connected');

    const before = await rollupCounts(app.appId);
    const at = Date.now();
    for (const name of ['play', 'play', 'play', 'win']) expect((await viaApi.event(name, { mode: 'ranked' }, at)).status).toBe(200);
    const sent = await sendDelivery(server, app, { events: ['play', 'play', 'play', 'win'].map((name) => whEvent(viaHook, name, { payload: { mode: 'ranked' }, timestamp: at })) });
    expect(sent.status).toBe(200);

    await apiStream.waitForMessages(4);
    await hookStream.waitForMessages(4);
    const strip = (s: SseStream) => s.updates.map((u) => ({ type: u.type, data: { ...u.data, userId: 'x', updatedAt: 0 } }));
    expect(strip(hookStream)).toEqual(strip(apiStream));
    expect(hookStream.updates.map((u) => u.type)).toEqual(['mission.progress', 'mission.progress', 'mission.completed', 'mission.completed']);

    const hookUser = await newUser(server, app, viaHook);
    const progress = async (u: typeof viaApi) => (await u.getJson<{ progress: Record<string, unknown> }>('/v1/missions')).body.progress;
    const strippedProgress = async (u: typeof viaApi) =>
      Object.fromEntries(Object.entries(await progress(u)).map(([k, v]) => [k, { ...(v as object), userId: 'x', updatedAt: 0 }]));
    expect(await strippedProgress(hookUser)).toEqual(await strippedProgress(viaApi));
    // The dashboard counted both users alike, in the events' transactions (nothing to wait for).
    const after = await rollupCounts(app.appId);
    const added = (k: string) => (after[k] ?? 0) - (before[k] ?? 0);
    expect([added('event:play'), added('event:win'), added('completion:play-3'), added('completion:win-1')]).toEqual([6, 2, 2, 2]);
  });

  it('verifies the raw bytes as sent: a body with unusual spacing and key order is accepted as signed', async () => {
    const userId = uniqueId('u');
    const raw = `{ "events" : [ {"timestamp": ${Date.now()},  "payload":{}, "name":"play",\n "userId": "${userId}"} ] }`;
    const sent = await sendDelivery(server, app, raw);
    expect(sent.status).toBe(200);
    expect((sent.body.results as unknown[]).length).toBe(1);
    expect(await storedEvents(app.appId, userId)).toHaveLength(1);
  });

  it('accepts a timestamp up to 5 minutes away on either side', async () => {
    for (const offset of [-4.5 * MINUTE, 4.5 * MINUTE]) {
      const sent = await sendDelivery(server, app, { events: [whEvent(uniqueId('u'))] }, { timestamp: Date.now() + offset });
      expect(sent.status, `offset ${offset}`).toBe(200);
    }
  });
});

describe('POST /v1/webhook/incoming: event times, bounded by the server clock (buffered events up to 7 days late)', () => {
  const DAY = 24 * 60 * MINUTE;
  it('accepts an event 6 days late (a backend’s buffer): stored, and a lifetime mission counts it', async () => {
    const userId = uniqueId('u');
    const sent = await sendDelivery(server, app, { events: [whEvent(userId, 'play', { timestamp: Date.now() - 6 * DAY })] });
    expect(sent.status).toBe(200);
    expect(sent.body.results).toEqual([{ eventId: expect.any(String), missionsUpdated: ['play-3'] }]);
    expect(await storedEvents(app.appId, userId)).toHaveLength(1);
  });

  it.each([
    ['more than 7 days old', () => Date.now() - 8 * DAY, /^events\[1\]\.timestamp: .*more than 7 days before the server clock/],
    ['more than 5 minutes ahead', () => Date.now() + 6 * MINUTE, /^events\[1\]\.timestamp: .*more than 5 minutes ahead of the server clock/],
    ['dated 2100', () => Date.UTC(2100, 0, 1), /^events\[1\]\.timestamp: .*ahead of the server clock/],
    ['in seconds', () => Math.floor(Date.now() / 1000), /^events\[1\]\.timestamp: .*milliseconds/],
  ])('refuses the whole delivery with 400 validation_error when an event is %s, applying nothing', async (_name, at, message) => {
    const u1 = uniqueId('u');
    const u2 = uniqueId('u');
    const sent = await sendDelivery(server, app, { events: [whEvent(u1), whEvent(u2, 'play', { timestamp: at() })] });
    expect(sent.status).toBe(400);
    expect(sent.body).toEqual({ error: 'validation_error', message: expect.stringMatching(message) });
    expect(await storedEvents(app.appId, u1)).toHaveLength(0);
    expect(await storedEvents(app.appId, u2)).toHaveLength(0);
  });
});

describe('POST /v1/webhook/incoming: 401 invalid_signature, nothing applied', () => {
  const cases: Array<[string, (userId: string) => Parameters<typeof sendDelivery>[3]]> = [
    ['the signature is missing', () => ({ headers: { 'X-Webhook-Signature': null } })],
    ['the signature has no v1= prefix', () => ({ signature: 'a'.repeat(64) })],
    ['the signature is not 64 hex digits', () => ({ signature: `v1=${'a'.repeat(63)}` })],
    ['the signature uses another scheme', () => ({ signature: `v0=${'a'.repeat(64)}` })],
    ['the signature is made with a wrong secret', () => ({ secret: 'whs_wrong' })],
    ['the signature is made with another app’s secret', () => ({ secret: other.webhookSecret })],
    ['the timestamp is missing', () => ({ headers: { 'X-Webhook-Timestamp': null } })],
    ['the timestamp is not a number', () => ({ timestamp: 'yesterday' })],
    ['the timestamp is in seconds (so decades old)', () => ({ timestamp: Math.floor(Date.now() / 1000) })],
    ['the timestamp is 5.5 minutes old', () => ({ timestamp: Date.now() - 5.5 * MINUTE })],
    ['the timestamp is 5.5 minutes ahead', () => ({ timestamp: Date.now() + 5.5 * MINUTE })],
    ['X-App-Id is missing', () => ({ headers: { 'X-App-Id': null } })],
    ['X-App-Id names no app', () => ({ headers: { 'X-App-Id': uniqueId('nope') } })],
    ['X-App-Id names another app', () => ({ headers: { 'X-App-Id': other.appId } })],
    ['the body was changed after signing', (u) => ({ sentBody: JSON.stringify({ events: [whEvent(u, 'win', { payload: { mode: 'ranked' } })] }) })],
    ['the signed body was re-serialised before sending', (u) => ({ sentBody: JSON.stringify({ events: [whEvent(u)] }, null, 1) })],
    ['a signed timestamp is replaced by a fresher one', () => ({ timestamp: Date.now() - 60_000, headers: { 'X-Webhook-Timestamp': String(Date.now()) } })],
  ];
  it.each(cases)('when %s', async (_name, options) => {
    const userId = uniqueId('u');
    const sent = await sendDelivery(server, app, { events: [whEvent(userId)] }, options(userId));
    expect(sent.status).toBe(401);
    expect(sent.body.error).toBe('invalid_signature');
    expect(typeof sent.body.message).toBe('string');
    expect(Object.keys(sent.body).sort()).toEqual(['error', 'message']);
    expect(await storedEvents(app.appId, userId)).toHaveLength(0);
    expect(await storedEvents(other.appId, userId)).toHaveLength(0);
  });

  it('gives an unknown app and a wrong signature the same answer', async () => {
    const unknown = await sendDelivery(server, app, { events: [whEvent('u')] }, { headers: { 'X-App-Id': uniqueId('nope') } });
    const wrong = await sendDelivery(server, app, { events: [whEvent('u')] }, { secret: 'whs_wrong' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('does not take a bearer token instead of a signature', async () => {
    const user = await newUser(server, app);
    const res = await fetch(`${server.url}/v1/webhook/incoming`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${user.token}`, 'Content-Type': 'application/json', 'X-Webhook-Id': 'x' },
      body: JSON.stringify({ events: [whEvent(user.userId)] }),
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toBe('invalid_signature');
  });
});

describe('POST /v1/webhook/incoming: the body is decided whole', () => {
  it('rejects a delivery with one invalid event with 400 naming its index, and applies none of the others', async () => {
    const [u1, u2] = [uniqueId('u'), uniqueId('u')];
    const sent = await sendDelivery(server, app, {
      events: [whEvent(u1), whEvent(u2), whEvent(u1), { userId: u2, name: 'play', payload: {}, timestamp: 'now' }, whEvent(u1)],
    });
    expect(sent.status).toBe(400);
    expect(sent.body.error).toBe('validation_error');
    expect(String(sent.body.message)).toMatch(/^events\[3\]\.timestamp: /);
    expect(await storedEvents(app.appId, u1)).toHaveLength(0);
    expect(await storedEvents(app.appId, u2)).toHaveLength(0);
  });

  it.each([
    ['the body is not JSON', 'events please', /not valid JSON/],
    ['the body is empty', '', /JSON object/],
    ['events is missing', { data: [] }, /^events: /],
    ['events is empty', { events: [] }, /^events: /],
    ['events has 101 entries', { events: Array.from({ length: 101 }, () => whEvent('u')) }, /^events: /],
    ['events is not an array', { events: whEvent('u') }, /^events: /],
    ['an event is not an object', { events: [whEvent('u'), 'play'] }, /^events\[1\]: /],
    ['an event has no userId', { events: [{ name: 'play', payload: {}, timestamp: 1 }] }, /^events\[0\]\.userId: /],
    ['an event has an empty idempotencyKey', { events: [whEvent('u', 'play', { idempotencyKey: '' })] }, /^events\[0\]\.idempotencyKey: /],
    ['an event carries a NUL character', { events: [whEvent('u', 'pl\u0000ay')] }, /^events\[0\]\.name: /],
  ])('answers 400 validation_error when %s', async (_name, body, message) => {
    const sent = await sendDelivery(server, app, body);
    expect(sent.status).toBe(400);
    expect(sent.body.error).toBe('validation_error');
    expect(String(sent.body.message)).toMatch(message);
  });

  it('accepts exactly 100 events', async () => {
    const userId = uniqueId('u');
    const sent = await sendDelivery(server, app, { events: Array.from({ length: 100 }, () => whEvent(userId, 'noop')) });
    expect(sent.status).toBe(200);
    expect(await storedEvents(app.appId, userId)).toHaveLength(100);
  });

  it('refuses a signed body that is not UTF-8 with 400', async () => {
    const body = Buffer.concat([Buffer.from('{"events":[{"userId":"'), Buffer.from([0xff, 0xfe]), Buffer.from('","name":"play","payload":{},"timestamp":1}]}')]);
    const sent = await sendDelivery(server, app, body);
    expect(sent.status).toBe(400);
    expect(sent.body).toEqual({ error: 'validation_error', message: 'Request body is not UTF-8' });
  });

  it('answers 400 naming X-Webhook-Id when it is missing or longer than 255 characters', async () => {
    for (const value of [null, 'x'.repeat(256)]) {
      const userId = uniqueId('u');
      const sent = await sendDelivery(server, app, { events: [whEvent(userId)] }, { headers: { 'X-Webhook-Id': value } });
      expect(sent.status).toBe(400);
      expect(sent.body.error).toBe('validation_error');
      expect(String(sent.body.message)).toMatch(/^X-Webhook-Id: /);
      expect(await storedEvents(app.appId, userId)).toHaveLength(0);
    }
  });

  it('answers 413 payload_too_large for a body over 64 KiB', async () => {
    const pad = 'x'.repeat(65 * 1024);
    const sent = await sendDelivery(server, app, { events: [whEvent('u', 'play', { payload: { pad } })] });
    expect(sent.status).toBe(413);
    expect(sent.body.error).toBe('payload_too_large');
  });
});

describe('POST /v1/webhook/incoming: idempotency', () => {
  it('a replayed X-Webhook-Id answers the original response with X-Idempotent-Replay: hit and changes nothing', async () => {
    const userId = uniqueId('u');
    const s = await stream(app, userId);
    const body = { events: [whEvent(userId), whEvent(userId)] };
    const first = await sendDelivery(server, app, body);
    expect(first.status).toBe(200);
    await s.waitForMessages(2);
    // A sender retrying re-signs with a fresh timestamp: still the same delivery.
    const replay = await sendDelivery(server, app, body, { webhookId: first.webhookId, timestamp: Date.now() + 1000 });
    expect(replay.status).toBe(200);
    expect(replay.res.headers.get('x-idempotent-replay')).toBe('hit');
    expect(replay.body).toEqual(first.body);
    expect(await storedEvents(app.appId, userId)).toHaveLength(2);
    // A marker: a fresh delivery for the user. Its message is the newest in the log once it has answered, and the
    // stream is ordered, so anything the replay had published arrives before it.
    expect((await sendDelivery(server, app, { events: [whEvent(userId)] })).status).toBe(200);
    const marker = await getUpdateLog().lastId(userLogKey(app.appId, userId));
    await s.waitFor((x) => x.messages.some((m) => m.id === marker), 'the marker');
    expect(s.messages.slice(0, -1)).toHaveLength(2);
    expect(s.messages.at(-1)?.id).toBe(marker);
  });

  it('once the cache is gone the database answers the replay (db-hit), still changing nothing', async () => {
    const userId = uniqueId('u');
    const body = { events: [whEvent(userId)] };
    const first = await sendDelivery(server, app, body);
    await getKv().del(idempotencyCacheKey(app.appId, '', `webhook:${first.webhookId}`));
    const replay = await sendDelivery(server, app, body, { webhookId: first.webhookId });
    expect(replay.status).toBe(200);
    expect(replay.res.headers.get('x-idempotent-replay')).toBe('db-hit');
    expect(replay.body).toEqual(first.body);
    expect(await storedEvents(app.appId, userId)).toHaveLength(1);
  });

  it('the same X-Webhook-Id with other events is refused with 422 idempotency_key_reused', async () => {
    const userId = uniqueId('u');
    const first = await sendDelivery(server, app, { events: [whEvent(userId)] });
    const reused = await sendDelivery(server, app, { events: [whEvent(userId, 'win')] }, { webhookId: first.webhookId });
    expect(reused.status).toBe(422);
    expect(reused.body.error).toBe('idempotency_key_reused');
    expect(await storedEvents(app.appId, userId)).toHaveLength(1);
  });

  it('the same signed request re-sent under a new X-Webhook-Id is the same delivery (db-hit), not a second one', async () => {
    const userId = uniqueId('u');
    const first = await sendDelivery(server, app, { events: [whEvent(userId)] });
    const copy = await sendDelivery(server, app, first.rawBody, { timestamp: first.timestamp, signature: first.signature });
    expect(copy.webhookId).not.toBe(first.webhookId);
    expect(copy.status).toBe(200);
    expect(copy.res.headers.get('x-idempotent-replay')).toBe('db-hit');
    expect(copy.body).toEqual(first.body);
    expect(await storedEvents(app.appId, userId)).toHaveLength(1);
    // And the copy's id now answers that too.
    const again = await sendDelivery(server, app, first.rawBody, { webhookId: copy.webhookId });
    expect(again.body).toEqual(first.body);
    expect(again.res.headers.get('x-idempotent-replay')).toBe('hit');
  });

  it('an event key already used on POST /v1/events for the same event answers that event, and the rest is applied', async () => {
    const user = await newUser(server, app);
    const at = Date.now();
    const key = uniqueId('k');
    const viaApi = await user.client.post('/v1/events', { userId: user.userId, name: 'play', payload: {}, timestamp: at }, { 'Idempotency-Key': key });
    const original = (await viaApi.json()) as { eventId: string };
    const sent = await sendDelivery(server, app, {
      events: [whEvent(user.userId, 'play', { timestamp: at, idempotencyKey: key }), whEvent(user.userId)],
    });
    expect(sent.status).toBe(200);
    const results = sent.body.results as Array<{ eventId: string; missionsUpdated: string[] }>;
    expect(results[0]).toEqual({ eventId: original.eventId, missionsUpdated: ['play-3'] });
    expect(results[1].eventId).not.toBe(original.eventId);
    expect(await storedEvents(app.appId, user.userId)).toHaveLength(2);
    // And the other way round: the webhook's key replays on POST /v1/events.
    const webhookKey = uniqueId('k');
    const hook = await sendDelivery(server, app, { events: [whEvent(user.userId, 'noop', { timestamp: at, idempotencyKey: webhookKey })] });
    const api = await user.client.post('/v1/events', { userId: user.userId, name: 'noop', payload: {}, timestamp: at }, { 'Idempotency-Key': webhookKey });
    expect(api.headers.get('x-idempotent-replay')).toMatch(/^(hit|db-hit)$/);
    expect(((await api.json()) as { eventId: string }).eventId).toBe((hook.body.results as Array<{ eventId: string }>)[0].eventId);
  });

  it('an event key used for another event rejects the whole delivery with 422 naming the event, applying nothing', async () => {
    const user = await newUser(server, app);
    const other = uniqueId('u');
    const key = uniqueId('k');
    await user.client.post('/v1/events', { userId: user.userId, name: 'play', payload: {}, timestamp: Date.now() - 1 }, { 'Idempotency-Key': key });
    const sent = await sendDelivery(server, app, {
      events: [whEvent(other), whEvent(user.userId), whEvent(user.userId, 'win', { idempotencyKey: key })],
    });
    expect(sent.status).toBe(422);
    expect(sent.body.error).toBe('idempotency_key_reused');
    expect(String(sent.body.message)).toMatch(/^events\[2\]: /);
    expect(await storedEvents(app.appId, other)).toHaveLength(0);
    expect(await storedEvents(app.appId, user.userId)).toHaveLength(1);
  });

  it('two events of one delivery with the same key and event are applied once (the second answers the first)', async () => {
    const userId = uniqueId('u');
    const e = whEvent(userId, 'play', { idempotencyKey: 'same' });
    const sent = await sendDelivery(server, app, { events: [e, e] });
    expect(sent.status).toBe(200);
    const [a, b] = sent.body.results as Array<{ eventId: string }>;
    expect(b).toEqual(a);
    expect(await storedEvents(app.appId, userId)).toHaveLength(1);
  });

  it('delivery ids are per app: another app may use the same X-Webhook-Id', async () => {
    const webhookId = uniqueId('shared');
    const a = await sendDelivery(server, app, { events: [whEvent(uniqueId('u'))] }, { webhookId });
    const b = await sendDelivery(server, other, { events: [whEvent(uniqueId('u'))] }, { webhookId });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.res.headers.get('x-idempotent-replay')).toBeNull();
  });

  it('the test helper signs as documented: HMAC-SHA256 over `${timestamp}.${body}`, hex (vector from openssl)', () => {
    expect(sign('whs_test', '1700000000000', '{"events":[]}')).toBe('v1=1a687c16a78a96c66a7f8cd0c02cea1a284991018caf7dd84e222386cd484dd4');
  });
});
