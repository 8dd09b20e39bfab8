// HTTP contract of POST /v1/events over real HTTP: response shape, validation,
// the event time bounded by the server clock (and late events), user binding,
// body size cap, idempotency (cache, database, concurrency, broadcasts), a
// player's concurrent burst and the per-JWT rate limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request as httpRequest } from 'node:http';
import { and, count, eq, sql } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { events } from '@/db/schema';
import { getBus } from '@/lib/bus';
import { userChannel } from '@/lib/updates/publish';
import { decodeBusMessage, getUpdateLog, userLogKey } from '@/lib/updates/log';
import { getKv } from '@/lib/kv';
import { idempotencyCacheKey } from '@/lib/idempotency/run-idempotent';
import { setMaxLostWritesForTests } from '@/lib/events/recording';
import { mission, newUser as fixtureUser, DAY } from '@/lib/testing/fixtures';
import {
  createTestApp,
  issueToken,
  startTestServer,
  uniqueId,
  userClient,
  type TestApp,
  type TestServer,
} from '@/lib/testing/test-server';
import { freshWindowInProcess } from '@/lib/testing/rate-window';

let server: TestServer;
let app: TestApp;
const STEPS = { id: 'm-steps', title: 'Walk', criteria: { eventName: 'step', count: 1000 }, reward: { kind: 'currency' as const, currency: 'gold', amount: 1 } };

beforeAll(async () => {
  server = await startTestServer();
  app = await createTestApp(server, { missions: [STEPS] });
});
afterAll(async () => {
  await server?.close();
});

async function newUser(): Promise<{ userId: string; token: string; client: ReturnType<typeof userClient> }> {
  const userId = uniqueId('user');
  const token = await issueToken(server, app, userId);
  return { userId, token, client: userClient(server, token) };
}

/** One time near now for every event of the file (identical bodies replay; the server accepts events up to 24 h late). */
const SENT_AT = Date.now();
const eventOf = (userId: string, extra: Record<string, unknown> = {}) => ({
  userId,
  name: 'step',
  payload: { level: 1 },
  timestamp: SENT_AT,
  ...extra,
});

async function storedEvents(userId: string): Promise<number> {
  const db = await getDb();
  const [row] = await db.select({ n: count() }).from(events).where(and(eq(events.appId, app.appId), eq(events.userId, userId)));
  return Number(row.n);
}

async function progressOf(client: ReturnType<typeof userClient>): Promise<number | null> {
  const res = await client.get(`/v1/missions/${STEPS.id}`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { progress: { currentCount: number } | null };
  return body.progress?.currentCount ?? null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));


/** A raw request through node:http, so the test controls Content-Length / chunked encoding. */
function rawPost(token: string, chunks: Buffer[], contentLength: number | null, agent?: Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${server.url}/v1/events`);
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    if (contentLength !== null) headers['Content-Length'] = String(contentLength);
    const req = httpRequest({ agent, hostname: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
      res.on('error', reject);
    });
    // The server may answer (413) and close before the whole body is sent.
    req.on('error', (err) => reject(err));
    for (const c of chunks) req.write(c);
    req.end();
  });
}

/** A valid event body of exactly `size` bytes. */
function eventBodyOfSize(userId: string, size: number): Buffer {
  const base = JSON.stringify(eventOf(userId, { payload: { pad: '' } }));
  const text = JSON.stringify(eventOf(userId, { payload: { pad: 'x'.repeat(size - Buffer.byteLength(base)) } }));
  expect(Buffer.byteLength(text)).toBe(size);
  return Buffer.from(text);
}

describe('POST /v1/events: success', () => {
  it('answers 200 {accepted: true, eventId, missionsUpdated} and stores the event', async () => {
    const { userId, client } = await newUser();
    const res = await client.post('/v1/events', eventOf(userId));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-idempotent-replay')).toBeNull();
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['accepted', 'eventId', 'missionsUpdated']);
    expect(body.accepted).toBe(true);
    expect(typeof body.eventId).toBe('string');
    expect(body.missionsUpdated).toEqual([STEPS.id]);
    expect(await storedEvents(userId)).toBe(1);
    expect(await progressOf(client)).toBe(1);
  });

  it('answers missionsUpdated [] for an event no mission names, and still stores it', async () => {
    const { userId, client } = await newUser();
    const res = await client.post('/v1/events', eventOf(userId, { name: 'unrelated' }));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { missionsUpdated: string[] }).missionsUpdated).toEqual([]);
    expect(await storedEvents(userId)).toBe(1);
  });

  it('gives every stored event its own eventId', async () => {
    const { userId, client } = await newUser();
    const a = (await (await client.post('/v1/events', eventOf(userId))).json()) as { eventId: string };
    const b = (await (await client.post('/v1/events', eventOf(userId))).json()) as { eventId: string };
    expect(a.eventId).not.toBe(b.eventId);
    expect(await storedEvents(userId)).toBe(2);
  });
});

describe('POST /v1/events: records changed behind the instance (its per-user records cache)', () => {
  /** What another writer does (an instance, a claim, a delivery): change the row and bump the user's sequence number in one statement. */
  async function changeBehind(userId: string, count: number, status: 'active' | 'completed') {
    const db = await getDb();
    await db.execute(sql`with s as (update user_sequences set seq = seq + 1 where app_id = ${app.appId} and user_id = ${userId} returning seq)
      update progress set current_count = ${count}, status = ${status} from s where app_id = ${app.appId} and user_id = ${userId} and mission_id = ${STEPS.id}`);
  }

  it('counts from the database after another writer advanced the user', async () => {
    const { userId, client } = await newUser();
    await client.post('/v1/events', eventOf(userId));
    await changeBehind(userId, 500, 'active');
    const res = await client.post('/v1/events', eventOf(userId));
    expect(((await res.json()) as { missionsUpdated: string[] }).missionsUpdated).toEqual([STEPS.id]);
    expect(await progressOf(client)).toBe(501);
  });

  it('counts from the database when the cached records would have advanced nothing', async () => {
    const { userId, client } = await newUser();
    await client.post('/v1/events', eventOf(userId));
    await changeBehind(userId, 1000, 'completed');
    // Read from the database (the stale write fails its check): the mission is complete, nothing advances.
    expect(((await (await client.post('/v1/events', eventOf(userId))).json()) as { missionsUpdated: string[] }).missionsUpdated).toEqual([]);
    await changeBehind(userId, 5, 'active');
    const res = await client.post('/v1/events', eventOf(userId));
    expect(((await res.json()) as { missionsUpdated: string[] }).missionsUpdated).toEqual([STEPS.id]);
    expect(await progressOf(client)).toBe(6);
  });
});

describe('POST /v1/events: 400 invalid_event', () => {
  const cases: [string, (userId: string) => unknown][] = [
    ['userId is missing', (u) => ({ ...eventOf(u), userId: undefined })],
    ['name is missing', (u) => ({ ...eventOf(u), name: undefined })],
    ['payload is missing', (u) => ({ ...eventOf(u), payload: undefined })],
    ['timestamp is missing', (u) => ({ ...eventOf(u), timestamp: undefined })],
    ['userId is a number', (u) => ({ ...eventOf(u), userId: 7 })],
    ['name is a number', (u) => ({ ...eventOf(u), name: 7 })],
    ['name is empty', (u) => ({ ...eventOf(u), name: '' })],
    ['timestamp is a string', (u) => ({ ...eventOf(u), timestamp: '1700000000000' })],
    ['timestamp is negative', (u) => ({ ...eventOf(u), timestamp: -1 })],
    ['timestamp is not an integer', (u) => ({ ...eventOf(u), timestamp: 1.5 })],
    ['payload is a string', (u) => ({ ...eventOf(u), payload: 'level=1' })],
    ['payload is an array', (u) => ({ ...eventOf(u), payload: [1, 2] })],
    ['payload is null', (u) => ({ ...eventOf(u), payload: null })],
    ['payload is a number', (u) => ({ ...eventOf(u), payload: 3 })],
    ['idempotencyKey is a number', (u) => ({ ...eventOf(u), idempotencyKey: 5 })],
    ['idempotencyKey is empty', (u) => ({ ...eventOf(u), idempotencyKey: '' })],
    ['the body is a JSON array', () => []],
    ['the body is JSON null', () => null],
    ['the body is a JSON string', () => 'step'],
  ];
  it.each(cases)('rejects an event whose %s, storing nothing', async (_name, build) => {
    const { userId, client } = await newUser();
    const res = await client.post('/v1/events', JSON.stringify(build(userId)), { 'Content-Type': 'application/json' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.error).toBe('invalid_event');
    expect(typeof body.message).toBe('string');
    expect(Object.keys(body).sort()).toEqual(['error', 'message']);
    expect(await storedEvents(userId)).toBe(0);
  });

  it.each([
    ['userId', { name: 'step', payload: {}, timestamp: 1 }],
    ['name', { userId: 'x', payload: {}, timestamp: 1 }],
    ['payload', { userId: 'x', name: 'step', timestamp: 1 }],
    ['timestamp', { userId: 'x', name: 'step', payload: {} }],
  ])('names the failing field (%s) in the message', async (field, body) => {
    const { client } = await newUser();
    const res = await client.post('/v1/events', body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain(field);
  });

  it.each([
    ['malformed JSON', '{"userId": "a", '],
    ['an empty body', ''],
    ['a whitespace-only body', '   '],
    ['text that is not JSON', 'hello'],
  ])('rejects %s with 400 invalid_event', async (_name, raw) => {
    const { userId, client } = await newUser();
    const res = await client.call('POST', '/v1/events', raw, { 'Content-Type': 'application/json' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('invalid_event');
    expect(await storedEvents(userId)).toBe(0);
  });

  it.each([
    ['name', (u: string) => eventOf(u, { name: 'st\u0000ep' })],
    ['payload.note', (u: string) => eventOf(u, { payload: { note: 'a\u0000b' } })],
    ['payload.tags[1]', (u: string) => eventOf(u, { payload: { tags: ['ok', '\ud800'] } })],
    ['payload', (u: string) => eventOf(u, { payload: { ['k\u0000']: 1 } })],
    ['idempotencyKey', (u: string) => eventOf(u, { idempotencyKey: 'k\u0000' })],
  ])('rejects text PostgreSQL cannot store (NUL, lone surrogate) with 400 invalid_event naming %s, not a 500', async (field, build) => {
    const { userId, client } = await newUser();
    const res = await client.post('/v1/events', build(userId));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; message: string };
    expect(body.error).toBe('invalid_event');
    expect(body.message.startsWith(`${field}:`)).toBe(true);
    expect(await storedEvents(userId)).toBe(0);
  });

  it('accepts well-formed non-ASCII text (surrogate pairs, accents) in name and payload', async () => {
    const { userId, client } = await newUser();
    const res = await client.post('/v1/events', eventOf(userId, { name: 'étape-🎮', payload: { note: 'héllo 👋', [`clé`]: '日本' } }));
    expect(res.status).toBe(200);
    expect(await storedEvents(userId)).toBe(1);
  });

  it('rejects a payload nested deeper than 32 levels with 400 invalid_event (not a stack overflow), and accepts 30', async () => {
    const { userId, client } = await newUser();
    const nest = (levels: number) => {
      let value: Record<string, unknown> = { leaf: true };
      for (let i = 1; i < levels; i++) value = { n: value };
      return value;
    };
    // Built as text: JSON.stringify itself cannot serialize a value this deep.
    const levels = 5000;
    const deepPayload = '{"n":'.repeat(levels - 1) + '{"leaf":true}' + '}'.repeat(levels - 1);
    const deepBody = JSON.stringify(eventOf(userId, { payload: '__PAYLOAD__' })).replace('"__PAYLOAD__"', deepPayload);
    const deep = await client.post('/v1/events', deepBody);
    expect(deep.status).toBe(400);
    const body = (await deep.json()) as { error: string; message: string };
    expect(body.error).toBe('invalid_event');
    expect(body.message).toMatch(/^payload(\.n)+: nests deeper than 32 levels$/);
    expect(await storedEvents(userId)).toBe(0);
    expect((await client.post('/v1/events', eventOf(userId, { payload: nest(30) }))).status).toBe(200);
  });

  it('rejects an Idempotency-Key header longer than 255 characters with 400 invalid_event', async () => {
    const { userId, client } = await newUser();
    const res = await client.post('/v1/events', eventOf(userId), { 'Idempotency-Key': 'k'.repeat(256) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('invalid_event');
    expect(await storedEvents(userId)).toBe(0);
  });
});

describe('POST /v1/events: the event time, bounded by the server clock', () => {
  const MINUTE = 60_000;
  const HOUR = 60 * MINUTE;
  let daily: TestApp;
  beforeAll(async () => {
    daily = await createTestApp(server, {
      missions: [
        mission('daily-login', { criteria: { eventName: 'login', count: 1, window: 'daily' }, reward: { kind: 'currency', currency: 'gold', amount: 10 } }),
        mission('lifetime-logins', { criteria: { eventName: 'login', count: 1000 } }),
      ],
    });
  });
  const login = (userId: string, timestamp: number) => ({ userId, name: 'login', payload: {}, timestamp });
  const startOfTodayUtc = () => Math.floor(Date.now() / DAY) * DAY;

  async function expectRefused(res: Response, message: RegExp): Promise<void> {
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; message: string };
    expect(body).toEqual({ error: 'invalid_event', message: expect.stringMatching(message) });
  }

  it('refuses a timestamp more than 5 minutes ahead of the server clock, storing nothing; accepts one 4 minutes ahead', async () => {
    const { userId, client } = await newUser();
    await expectRefused(await client.post('/v1/events', eventOf(userId, { timestamp: Date.now() + 6 * MINUTE })), /^timestamp: .*more than 5 minutes ahead of the server clock/);
    expect(await storedEvents(userId)).toBe(0);
    expect((await client.post('/v1/events', eventOf(userId, { timestamp: Date.now() + 4 * MINUTE }))).status).toBe(200);
    expect(await storedEvents(userId)).toBe(1);
  });

  it('refuses a timestamp more than 24 hours old, storing nothing; accepts one 23 hours late (a lifetime mission counts it)', async () => {
    const { userId, client } = await newUser();
    await expectRefused(await client.post('/v1/events', eventOf(userId, { timestamp: Date.now() - 25 * HOUR })), /more than 24 hours before the server clock/);
    expect(await storedEvents(userId)).toBe(0);
    const late = await client.post('/v1/events', eventOf(userId, { timestamp: Date.now() - 23 * HOUR }));
    expect(late.status).toBe(200);
    expect(((await late.json()) as { missionsUpdated: string[] }).missionsUpdated).toEqual([STEPS.id]);
    expect(await progressOf(client)).toBe(1);
  });

  it('refuses a timestamp sent in seconds with a message that says milliseconds, storing nothing', async () => {
    const { userId, client } = await newUser();
    await expectRefused(await client.post('/v1/events', eventOf(userId, { timestamp: Math.floor(Date.now() / 1000) })), /milliseconds/);
    await expectRefused(await client.post('/v1/events', eventOf(userId, { timestamp: 0 })), /milliseconds/);
    expect(await storedEvents(userId)).toBe(0);
  });

  it('the eight-day farm pays one daily reward: events stamped 0 to 8 days ahead (and 400 days back), each followed by a claim', async () => {
    const user = await fixtureUser(server, daily);
    const events: number[] = [];
    const claims: number[] = [];
    for (let d = 0; d <= 8; d++) {
      events.push((await user.client.post('/v1/events', login(user.userId, Date.now() + d * DAY))).status);
      claims.push((await user.claim('daily-login')).status);
    }
    for (let d = 400; d < 405; d++) {
      events.push((await user.client.post('/v1/events', login(user.userId, Date.now() - d * DAY))).status);
      claims.push((await user.claim('daily-login')).status);
    }
    expect(events).toEqual([200, ...Array(13).fill(400)]);
    expect(claims).toEqual([200, ...Array(13).fill(409)]);
    const balance = await user.getJson<{ balance: { amount: number } }>('/v1/balance?currency=gold');
    expect(balance.body.balance.amount).toBe(10);
  });

  it('refuses an event dated 2100, and the player’s daily mission still advances on the next real event', async () => {
    const user = await fixtureUser(server, daily);
    await expectRefused(await user.client.post('/v1/events', login(user.userId, Date.UTC(2100, 0, 1))), /ahead of the server clock/);
    expect(await storedEvents(user.userId)).toBe(0);
    const real = await user.event('login');
    expect(real.status).toBe(200);
    expect(real.body.missionsUpdated).toEqual(['daily-login', 'lifetime-logins']);
    const { body } = await user.getJson<{ progress: { status: string; currentCount: number } }>('/v1/missions/daily-login');
    expect(body.progress).toMatchObject({ status: 'completed', currentCount: 1 });
  });

  it('stores a late event of yesterday and counts it for nothing in a daily mission (the inspector says outside the current window); lifetime counts it', async () => {
    const user = await fixtureUser(server, daily);
    const today = startOfTodayUtc();
    const late = await user.event('login', {}, today - 1);
    expect(late.status).toBe(200);
    expect(late.body.missionsUpdated).toEqual(['lifetime-logins']);
    expect((await user.getJson<{ progress: unknown }>('/v1/missions/daily-login')).body.progress).toBeNull();
    expect((await user.claim('daily-login')).status).toBe(409);
    const res = await fetch(`${server.url}/api/admin/apps/${daily.appId}/users/${encodeURIComponent(user.userId)}`, { headers: { Authorization: `Bearer ${server.adminKey}` } });
    const inspection = (await res.json()) as { events: Array<{ id: string; verdicts: Array<Record<string, unknown>> }> };
    const stored = inspection.events.find((e) => e.id === late.body.eventId);
    expect(stored?.verdicts.find((v) => v.missionId === 'daily-login')).toEqual({
      missionId: 'daily-login',
      counted: false,
      code: 'outside_current_window',
      eventWindowStart: today - DAY,
      currentWindowStart: today,
    });
    // Today's event still counts in today's window.
    expect((await user.event('login')).body.missionsUpdated).toEqual(['daily-login', 'lifetime-logins']);
  });
});

describe('POST /v1/events: a player’s own concurrent burst', () => {
  it('never answers 503: 20 rounds of 10 concurrent events of one user, with the bound on lost writes lowered to 1, all 200, each stored once, progress equal to the events', async () => {
    // With one lost write allowed, any two of the user's events racing for the sequence number would answer 503:
    // the events of one user on this instance must take turns instead.
    setMaxLostWritesForTests(1);
    try {
      const { userId, client } = await newUser();
      const statuses: number[] = [];
      for (let round = 0; round < 20; round++) {
        // A fresh token per round: the limit is 100 events per 60 s per JWT.
        const burst = userClient(server, await issueToken(server, app, userId));
        const responses = await Promise.all(
          Array.from({ length: 10 }, (_, i) => burst.post('/v1/events', eventOf(userId, { payload: { round, i } }), { 'Idempotency-Key': `burst-${round}-${i}` })),
        );
        statuses.push(...responses.map((r) => r.status));
      }
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      expect(await storedEvents(userId)).toBe(200);
      expect(await progressOf(client)).toBe(200);
    } finally {
      setMaxLostWritesForTests(null);
    }
  });
});

describe('POST /v1/events: 403 user_mismatch', () => {
  it('refuses a body userId different from the token sub, storing nothing for either user', async () => {
    const me = await newUser();
    const victim = uniqueId('victim');
    const res = await me.client.post('/v1/events', eventOf(victim));
    expect(res.status).toBe(403);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.error).toBe('user_mismatch');
    expect(Object.keys(body).every((k) => k === 'error' || k === 'message')).toBe(true);
    expect(await storedEvents(victim)).toBe(0);
    expect(await storedEvents(me.userId)).toBe(0);
  });
});

describe('POST /v1/events: 413 payload_too_large over 64 KiB', () => {
  it('accepts a body of exactly 64 KiB', async () => {
    const { userId, token } = await newUser();
    const body = eventBodyOfSize(userId, 64 * 1024);
    const res = await rawPost(token, [body], body.byteLength);
    expect(res.status).toBe(200);
    expect(await storedEvents(userId)).toBe(1);
  });

  it('refuses a body of 64 KiB + 1 byte sent with Content-Length', async () => {
    const { userId, token } = await newUser();
    const body = eventBodyOfSize(userId, 64 * 1024 + 1);
    const res = await rawPost(token, [body], body.byteLength);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ error: 'payload_too_large' });
    expect(await storedEvents(userId)).toBe(0);
  });

  it('refuses an oversized body sent chunked, without Content-Length', async () => {
    const { userId, token } = await newUser();
    const body = eventBodyOfSize(userId, 200 * 1024);
    const chunks: Buffer[] = [];
    for (let i = 0; i < body.byteLength; i += 8 * 1024) chunks.push(body.subarray(i, i + 8 * 1024));
    const res = await rawPost(token, chunks, null);
    expect(res.status).toBe(413);
    const json = JSON.parse(res.body) as Record<string, unknown>;
    expect(json.error).toBe('payload_too_large');
    expect(Object.keys(json).every((k) => k === 'error' || k === 'message')).toBe(true);
    expect(await storedEvents(userId)).toBe(0);
  });

  it.each([
    ['chunked', false],
    ['with Content-Length', true],
  ])('keeps serving the keep-alive connection after a 413 (%s): the next request on it is answered', async (_name, withLength) => {
    const { userId, token } = await newUser();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const big = eventBodyOfSize(userId, 200 * 1024);
      const chunks: Buffer[] = [];
      for (let i = 0; i < big.byteLength; i += 8 * 1024) chunks.push(big.subarray(i, i + 8 * 1024));
      expect((await rawPost(token, chunks, withLength ? big.byteLength : null, agent)).status).toBe(413);
      const small = Buffer.from(JSON.stringify(eventOf(userId)));
      const next = await Promise.race([
        rawPost(token, [small], small.byteLength, agent),
        sleep(30_000).then(() => ({ status: -1, body: 'no answer within 30 s' })),
      ]);
      expect(next.status).toBe(200);
      expect(await storedEvents(userId)).toBe(1);
    } finally {
      agent.destroy();
    }
  });

  it('accepts a small body sent chunked (the cap counts bytes, not the header)', async () => {
    const { userId, token } = await newUser();
    const body = Buffer.from(JSON.stringify(eventOf(userId)));
    const res = await rawPost(token, [body.subarray(0, 10), body.subarray(10)], null);
    expect(res.status).toBe(200);
    expect(await storedEvents(userId)).toBe(1);
  });
});

describe('POST /v1/events: idempotency', () => {
  it('replays a repeated Idempotency-Key header: same body, X-Idempotent-Replay: hit, one stored event', async () => {
    const { userId, client } = await newUser();
    const first = await client.post('/v1/events', eventOf(userId), { 'Idempotency-Key': 'k-header' });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-idempotent-replay')).toBeNull();
    const firstBody = await first.json();
    const again = await client.post('/v1/events', eventOf(userId), { 'Idempotency-Key': 'k-header' });
    expect(again.status).toBe(200);
    expect(again.headers.get('x-idempotent-replay')).toBe('hit');
    expect(await again.json()).toEqual(firstBody);
    expect(await storedEvents(userId)).toBe(1);
    expect(await progressOf(client)).toBe(1);
  });

  it('replays a repeated body idempotencyKey the same way', async () => {
    const { userId, client } = await newUser();
    const first = await client.post('/v1/events', eventOf(userId, { idempotencyKey: 'k-body' }));
    const firstBody = await first.json();
    const again = await client.post('/v1/events', eventOf(userId, { idempotencyKey: 'k-body' }));
    expect(again.status).toBe(200);
    expect(again.headers.get('x-idempotent-replay')).toBe('hit');
    expect(await again.json()).toEqual(firstBody);
    expect(await storedEvents(userId)).toBe(1);
  });

  it('takes the header key over the body key when both are given', async () => {
    const { userId, client } = await newUser();
    const first = await client.post('/v1/events', eventOf(userId, { idempotencyKey: 'body-key' }), { 'Idempotency-Key': 'header-key' });
    const firstBody = await first.json();
    // The header key was recorded: a request with only that key in the body replays.
    const viaBody = await client.post('/v1/events', eventOf(userId, { idempotencyKey: 'header-key' }));
    expect(viaBody.headers.get('x-idempotent-replay')).toBe('hit');
    expect(await viaBody.json()).toEqual(firstBody);
    expect(await storedEvents(userId)).toBe(1);
    // The body key was ignored: using it is a new request.
    const fresh = await client.post('/v1/events', eventOf(userId, { idempotencyKey: 'body-key' }));
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('x-idempotent-replay')).toBeNull();
    expect(await storedEvents(userId)).toBe(2);
  });

  it('answers X-Idempotent-Replay: db-hit with the original body after the cache entry is gone, without a second write', async () => {
    const { userId, client } = await newUser();
    const first = await client.post('/v1/events', eventOf(userId), { 'Idempotency-Key': 'k-db' });
    const firstBody = await first.json();
    await getKv().del(idempotencyCacheKey(app.appId, userId, 'event:k-db'));
    const again = await client.post('/v1/events', eventOf(userId), { 'Idempotency-Key': 'k-db' });
    expect(again.status).toBe(200);
    expect(again.headers.get('x-idempotent-replay')).toBe('db-hit');
    expect(await again.json()).toEqual(firstBody);
    expect(await storedEvents(userId)).toBe(1);
    expect(await progressOf(client)).toBe(1);
  });

  it('refuses the same key with a different body with 422 idempotency_key_reused and changes nothing (cache and database paths)', async () => {
    const { userId, client } = await newUser();
    const first = await client.post('/v1/events', eventOf(userId), { 'Idempotency-Key': 'k-reuse' });
    const firstBody = await first.json();
    for (const changed of [eventOf(userId, { name: 'other' }), eventOf(userId, { payload: { level: 2 } }), eventOf(userId, { timestamp: SENT_AT - 5 })]) {
      const res = await client.post('/v1/events', changed, { 'Idempotency-Key': 'k-reuse' });
      expect(res.status).toBe(422);
      expect(((await res.json()) as { error: string }).error).toBe('idempotency_key_reused');
    }
    await getKv().del(idempotencyCacheKey(app.appId, userId, 'event:k-reuse'));
    const viaDb = await client.post('/v1/events', eventOf(userId, { name: 'other' }), { 'Idempotency-Key': 'k-reuse' });
    expect(viaDb.status).toBe(422);
    expect(((await viaDb.json()) as { error: string }).error).toBe('idempotency_key_reused');
    expect(await storedEvents(userId)).toBe(1);
    expect(await progressOf(client)).toBe(1);
    // The original request still replays its original answer.
    const replay = await client.post('/v1/events', eventOf(userId), { 'Idempotency-Key': 'k-reuse' });
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual(firstBody);
  });

  it('keeps keys per user: the same key from two users stores two events', async () => {
    const a = await newUser();
    const b = await newUser();
    expect((await a.client.post('/v1/events', eventOf(a.userId), { 'Idempotency-Key': 'shared' })).headers.get('x-idempotent-replay')).toBeNull();
    expect((await b.client.post('/v1/events', eventOf(b.userId), { 'Idempotency-Key': 'shared' })).headers.get('x-idempotent-replay')).toBeNull();
    expect(await storedEvents(a.userId)).toBe(1);
    expect(await storedEvents(b.userId)).toBe(1);
  });

  it('applies exactly one of 50 concurrent identical requests; all 50 answer the same body and 49 carry a replay header', async () => {
    const { userId, client } = await newUser();
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => client.post('/v1/events', eventOf(userId), { 'Idempotency-Key': 'k-race' })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(200));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    for (const b of bodies) expect(b).toEqual(bodies[0]);
    const replays = responses.map((r) => r.headers.get('x-idempotent-replay'));
    expect(replays.filter((r) => r === null)).toHaveLength(1);
    expect(replays.filter((r) => r === 'hit' || r === 'db-hit')).toHaveLength(49);
    expect(await storedEvents(userId)).toBe(1);
    expect(await progressOf(client)).toBe(1);
  });

  it('does not publish again on a replay (hit or db-hit)', async () => {
    const { userId, client } = await newUser();
    const messages: string[] = [];
    const unsubscribe = await getBus().subscribe(userChannel(app.appId, userId), (m) => messages.push(m));
    try {
      await client.post('/v1/events', eventOf(userId), { 'Idempotency-Key': 'k-pub' });
      for (let i = 0; i < 1_500 && messages.length === 0; i++) await sleep(20);
      expect(messages).toHaveLength(1);
      expect((await client.post('/v1/events', eventOf(userId), { 'Idempotency-Key': 'k-pub' })).headers.get('x-idempotent-replay')).toBe('hit');
      await getKv().del(idempotencyCacheKey(app.appId, userId, 'event:k-pub'));
      expect((await client.post('/v1/events', eventOf(userId), { 'Idempotency-Key': 'k-pub' })).headers.get('x-idempotent-replay')).toBe('db-hit');
      // A fresh event afterwards is published: once it arrives, anything sent before it has arrived too
      // (the channel delivers in log order). Its message is the newest in the log once the POST has answered.
      await client.post('/v1/events', eventOf(userId));
      const fresh = await getUpdateLog().lastId(userLogKey(app.appId, userId));
      for (let i = 0; i < 1_500 && !messages.some((m) => decodeBusMessage(m)?.id === fresh); i++) await sleep(20);
      expect(messages.map((m) => decodeBusMessage(m)?.id).at(-1)).toBe(fresh);
      expect(messages).toHaveLength(2);
    } finally {
      await unsubscribe();
    }
  });
});

describe('POST /v1/events: rate limit 100 per 60 s per JWT', () => {
  it('refuses request 101 of one JWT with 429, Retry-After = ceil(retryAfterMs/1000) and RateLimit-* headers; another JWT of the user is unaffected', async () => {
    const { userId, client } = await newUser();
    freshWindowInProcess(40_000);
    const remaining: number[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const responses = await Promise.all(Array.from({ length: 10 }, () => client.post('/v1/events', eventOf(userId))));
      for (const r of responses) {
        expect(r.status).toBe(200);
        expect(r.headers.get('ratelimit-limit')).toBe('100');
        const reset = Number(r.headers.get('ratelimit-reset'));
        expect(Number.isInteger(reset) && reset >= 0 && reset <= 60).toBe(true);
        remaining.push(Number(r.headers.get('ratelimit-remaining')));
      }
    }
    expect([...remaining].sort((a, b) => b - a)).toEqual(Array.from({ length: 100 }, (_, i) => 99 - i));

    const refused = await client.post('/v1/events', eventOf(userId));
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as Record<string, unknown>;
    expect(body.error).toBe('rate_limited');
    expect(Object.keys(body).every((k) => ['error', 'message', 'retryAfterMs'].includes(k))).toBe(true);
    const retryAfterMs = body.retryAfterMs as number;
    expect(Number.isInteger(retryAfterMs) && retryAfterMs > 0 && retryAfterMs <= 60_000).toBe(true);
    const retryAfter = refused.headers.get('retry-after')!;
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBe(Math.ceil(retryAfterMs / 1000));
    expect(refused.headers.get('ratelimit-limit')).toBe('100');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('ratelimit-reset')).toMatch(/^\d+$/);
    expect(await storedEvents(userId)).toBe(100);

    const other = userClient(server, await issueToken(server, app, userId));
    const ok = await other.post('/v1/events', eventOf(userId));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('ratelimit-remaining')).toBe('99');
    expect(await storedEvents(userId)).toBe(101);
  });
});
