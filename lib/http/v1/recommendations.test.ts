// GET /v1/recommendations over real HTTP with the AI SDK's mock model in
// place of OpenAI: a good answer is served as is; every failure (no model,
// malformed or schema-invalid output, unknown, duplicate or too many ids, an
// empty answer, a refusal, a thrown API error, a hang past the timeout) is a
// 200 with the deterministic fallback, and its reason is logged. Also the
// candidates, the cache, the single flight, the stream messages, the
// refresh after a claim, the prompt's contents and the rate limit.
import { APICallError } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { getKv } from '@/lib/kv';
import { kvKey } from '@/lib/kv/keys';
import { setModelForTests } from '@/lib/recommendations/model';
import { FALLBACK_REASON, NOTHING_REASON } from '@/lib/recommendations/recommend';
import { openSse, type SseStream } from '@/lib/testing/sse-client';
import { campaign, DAY, mission, newUser, type TestUser } from '@/lib/testing/fixtures';
import { createTestApp, putCatalog, startTestServer, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { freshWindowInProcess } from '@/lib/testing/rate-window';
import { getUpdateLog, userLogKey } from '@/lib/updates/log';

let server: TestServer;
let app: TestApp;
const streams: SseStream[] = [];
const logs: string[] = [];

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } };
const reply = (text: string, finish: 'stop' | 'content-filter' = 'stop'): LanguageModelV3GenerateResult => ({
  content: text === '' ? [] : [{ type: 'text', text }],
  finishReason: { unified: finish, raw: undefined },
  usage,
  warnings: [],
});
/** A mock model answering `text` to every call. */
const answering = (text: string, finish?: 'stop' | 'content-filter') => new MockLanguageModelV3({ doGenerate: async () => reply(text, finish) });
const json = (value: unknown) => JSON.stringify(value);

beforeAll(async () => {
  // This process's configuration has no model: the no-key case is real.
  vi.stubEnv('OPENAI_API_KEY', '');
  server = await startTestServer();
  const now = Date.now();
  app = await createTestApp(server, {
    campaigns: [
      campaign('live'),
      campaign('upcoming', { startAt: now + DAY, endAt: now + 2 * DAY }),
      campaign('over', { startAt: now - 3 * DAY, endAt: now - DAY }),
    ],
    missions: [
      mission('claimable', { title: 'First blood', criteria: { eventName: 'win', count: 1 } }),
      mission('near', { title: 'Four plays', criteria: { eventName: 'play', count: 4 }, campaignId: 'live' }),
      mission('half', { title: 'Two trades', criteria: { eventName: 'trade', count: 2 } }),
      mission('fresh-old', { title: 'Five quests', criteria: { eventName: 'quest', count: 5 } }),
      mission('locked', { title: 'After first blood', criteria: { eventName: 'quest', count: 5 }, prerequisites: ['claimable'] }),
      mission('expired', { title: 'Gone', criteria: { eventName: 'quest', count: 5 }, expiresAt: now - 1000 }),
      mission('not-started', { title: 'Soon', criteria: { eventName: 'quest', count: 5 }, campaignId: 'upcoming' }),
      mission('ended', { title: 'Over', criteria: { eventName: 'quest', count: 5 }, campaignId: 'over' }),
      mission('done', { title: 'Done once', criteria: { eventName: 'login', count: 1 } }),
      mission('archived', { title: 'Archived', criteria: { eventName: 'quest', count: 5 }, archived: true }),
    ],
  });
  // Authored later, so it is the newest of the equal candidates (lets the clock move; asserts nothing).
  await new Promise((r) => setTimeout(r, 5));
  expect((await putCatalog(server, app.appId, { missions: [mission('fresh-new', { title: 'Five new quests', criteria: { eventName: 'quest', count: 5 } })] })).status).toBe(200);
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logs.push(args.map(String).join(' ')));
});
afterEach(() => setModelForTests(null));
afterAll(async () => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  await Promise.all(streams.map((s) => s.close()));
  await server?.close();
});

/** A user with: claimable completed, near 3/4, half 1/2, done claimed; every other candidate untouched. */
async function player(): Promise<TestUser> {
  const user = await newUser(server, app);
  const at = Date.now();
  for (const name of ['win', 'play', 'play', 'play', 'trade', 'login']) expect((await user.event(name, { note: 'payload-secret-value' }, at)).status).toBe(200);
  expect((await user.claim('done')).status).toBe(200);
  // That claim refreshed (and cached) the user's recommendations in the background: let it finish, then forget it.
  // Finished means cached and pushed (the push comes after the cache write): a stream opened later must not see it.
  const key = kvKey('recs', app.appId, user.userId);
  await vi.waitFor(async () => expect(await getKv().get(key)).not.toBeNull(), { timeout: 30_000, interval: 20 });
  await vi.waitFor(async () => expect(await recommendationsLogged(user)).toBe(1), { timeout: 30_000, interval: 20 });
  await getKv().del(key);
  return user;
}

/** How many `recommendation` messages the user's update log holds. */
async function recommendationsLogged(user: TestUser): Promise<number> {
  const entries = await getUpdateLog().readAfter(userLogKey(app.appId, user.userId), null);
  return entries.filter((e) => (JSON.parse(e.update) as { type: string }).type === 'recommendation').length;
}

async function recommend(user: TestUser, query = ''): Promise<{ res: Response; body: Record<string, unknown> }> {
  const res = await user.client.get(`/v1/recommendations${query}`);
  return { res, body: (await res.json()) as Record<string, unknown> };
}

async function streamOf(user: TestUser): Promise<SseStream> {
  const s = await openSse(`${server.url}/v1/sse/updates`, { Authorization: `Bearer ${user.token}` });
  streams.push(s);
  await s.waitFor((x) => x.raw.startsWith(': connected'), 'connected');
  return s;
}

const FALLBACK_TOP3 = ['claimable', 'near', 'half'];

function expectExactly(body: Record<string, unknown>, expected: { userId: string; missionIds: string[]; reason: string; fallback: boolean }) {
  expect(Object.keys(body).sort()).toEqual(['fallback', 'generatedAt', 'missionIds', 'reason', 'userId']);
  expect(body).toEqual({ ...expected, generatedAt: expect.any(Number) });
  expect(Math.abs((body.generatedAt as number) - Date.now())).toBeLessThan(60_000);
}

/** The reason of the last fallback logged, as the operator sees it. */
function loggedReasons(): string[] {
  return logs.flatMap((line) => {
    try {
      const entry = JSON.parse(line) as { message?: string; reason?: string };
      return entry.message?.startsWith('recommendations: fallback') && entry.reason ? [entry.reason] : [];
    } catch {
      return [];
    }
  });
}

describe('GET /v1/recommendations: the model answers', () => {
  it('serves a valid ranking as is: 200 {userId, missionIds, reason, fallback: false, generatedAt}', async () => {
    const user = await player();
    setModelForTests({ model: answering(json({ missionIds: ['half', 'claimable'], reason: 'Finish Two trades, then grab First blood.' })) });
    const { res, body } = await recommend(user);
    expect(res.status).toBe(200);
    expectExactly(body, { userId: user.userId, missionIds: ['half', 'claimable'], reason: 'Finish Two trades, then grab First blood.', fallback: false });
  });

  it('gives the model only the candidates, and nothing of other users, secrets or event payloads', async () => {
    const user = await player();
    const bystander = await player();
    const model = answering(json({ missionIds: ['near'], reason: 'Almost there.' }));
    setModelForTests({ model });
    expect((await recommend(user, '?limit=10')).body.fallback).toBe(false);
    expect(model.doGenerateCalls).toHaveLength(1);
    const call: LanguageModelV3CallOptions = model.doGenerateCalls[0];
    const prompt = JSON.stringify(call.prompt);
    const userText = call.prompt.filter((m) => m.role === 'user').flatMap((m) => m.content.map((p) => (p.type === 'text' ? p.text : ''))).join('');
    const sent = JSON.parse(userText) as { recommendAtMost: number; missions: Array<{ id: string; status: string; currentCount: number }> };
    expect(sent.recommendAtMost).toBe(10);
    expect(sent.missions.map((m) => m.id)).toEqual(['claimable', 'near', 'half', 'fresh-new', 'fresh-old']);
    expect(sent.missions.find((m) => m.id === 'near')).toMatchObject({ status: 'in progress', currentCount: 3 });
    expect(sent.missions.find((m) => m.id === 'claimable')).toMatchObject({ status: 'ready to claim' });
    for (const secret of [user.userId, bystander.userId, user.token, app.appSecret, app.webhookSecret, app.appId, 'payload-secret-value']) {
      expect(prompt).not.toContain(secret);
    }
    for (const excluded of ['locked', 'expired', 'not-started', 'ended', '"done"', 'archived', 'Archived']) expect(userText).not.toContain(excluded);
    // Structured output: the request asks for JSON matching the answer's schema.
    expect(call.responseFormat).toMatchObject({ type: 'json', schema: { type: 'object', properties: { missionIds: { type: 'array' }, reason: { type: 'string' } } } });
  });
});

describe('GET /v1/recommendations: every AI failure is a 200 with the deterministic fallback, its reason logged', () => {
  const hang = () =>
    new MockLanguageModelV3({
      // Never answers and ignores the abort signal: only the server's own deadline can end the wait.
      doGenerate: () => new Promise<LanguageModelV3GenerateResult>(() => undefined),
    });
  const cases: Array<[string, () => MockLanguageModelV3 | null, string]> = [
    ['no model is configured (no OPENAI_API_KEY)', () => null, 'no_model'],
    ['the output is not JSON', () => answering('Sure! The best missions are {missionIds: [claimable'), 'invalid_output'],
    ['the JSON does not match the schema', () => answering(json({ missionIds: 'claimable', reason: 7 })), 'invalid_output'],
    ['an id is not a candidate (unknown)', () => answering(json({ missionIds: ['claimable', 'nope'], reason: 'x' })), 'unknown_ids'],
    ['an id is a mission that is not a candidate (locked)', () => answering(json({ missionIds: ['locked'], reason: 'x' })), 'unknown_ids'],
    ['an id is repeated', () => answering(json({ missionIds: ['near', 'near'], reason: 'x' })), 'duplicate_ids'],
    ['there are more ids than the limit', () => answering(json({ missionIds: ['claimable', 'near', 'half', 'fresh-new'], reason: 'x' })), 'too_many_ids'],
    ['no id at all', () => answering(json({ missionIds: [], reason: 'Nothing.' })), 'empty'],
    ['the reason is empty', () => answering(json({ missionIds: ['near'], reason: '  ' })), 'invalid_output'],
    ['the model refuses (content filter, no text)', () => answering('', 'content-filter'), 'invalid_output'],
    [
      'the API call fails (HTTP 503)',
      () =>
        new MockLanguageModelV3({
          doGenerate: async () => {
            throw new APICallError({ message: 'Service Unavailable', url: 'https://api.example/v1/chat/completions', requestBodyValues: {}, statusCode: 503, isRetryable: true });
          },
        }),
      'api_error',
    ],
    ['the model throws anything else', () => new MockLanguageModelV3({ doGenerate: async () => Promise.reject(new TypeError('fetch failed')) }), 'api_error'],
    ['the model hangs past the timeout', hang, 'timeout'],
  ];

  it.each(cases)('when %s', async (_name, build, reason) => {
    const user = await player();
    const model = build();
    // Only the hang needs a short deadline; the others keep the default 5 s, so a
    // loaded machine's pause cannot turn their answer into a "timeout".
    setModelForTests({ model, timeoutMs: reason === 'timeout' ? 300 : undefined });
    if (model === null) setModelForTests(null); // the configuration of this test process: no OPENAI_API_KEY
    const before = loggedReasons().length;
    const { res, body } = await recommend(user);
    expect(res.status).toBe(200);
    expectExactly(body, { userId: user.userId, missionIds: FALLBACK_TOP3, reason: FALLBACK_REASON, fallback: true });
    if (model !== null) expect(model.doGenerateCalls).toHaveLength(1);
    expect(loggedReasons().slice(before)).toContain(reason);
  });

  it('ranks the fallback: claimable first, then nearest to completion, then newest (then id)', async () => {
    const user = await player();
    const { body } = await recommend(user, '?limit=10');
    expect(body.missionIds).toEqual(['claimable', 'near', 'half', 'fresh-new', 'fresh-old']);
    expect(body.fallback).toBe(true);
  });
});

describe('GET /v1/recommendations: cache, single flight and stream', () => {
  it('serves the cached answer (same body, no model call, no message) and pushes one `recommendation` per fresh computation', async () => {
    const user = await player();
    const s = await streamOf(user);
    const before = s.messages.length;
    const model = answering(json({ missionIds: ['near'], reason: 'Almost there.' }));
    setModelForTests({ model });
    const first = await recommend(user);
    const second = await recommend(user);
    expect(second.body).toEqual(first.body);
    expect(model.doGenerateCalls).toHaveLength(1);
    await s.waitForMessages(before + 1);
    // A marker after both requests (the `trade` event completes "half"): the user's stream is ordered, so a
    // message the cached answer pushed, or a second one of the computation, would have come before it.
    expect((await user.event('trade')).status).toBe(200);
    await s.waitFor((x) => x.updates.some((u) => u.data.missionId === 'half'), 'the marker (the trade event)');
    const recs = s.updates.filter((u) => u.type === 'recommendation');
    expect(recs).toHaveLength(1);
    expect(recs[0].data).toEqual({ userId: user.userId, missionIds: ['near'], reason: 'Almost there.' });
    // Another limit is another question: computed (and pushed) anew.
    await recommend(user, '?limit=5');
    expect(model.doGenerateCalls).toHaveLength(2);
  });

  it('keeps a model answer 5 minutes and a fallback 30 seconds', async () => {
    const user = await player();
    setModelForTests({ model: answering(json({ missionIds: ['near'], reason: 'Almost there.' })) });
    await recommend(user);
    const key = kvKey('recs', app.appId, user.userId);
    const ttl = await getKv().pttl(key);
    expect(ttl).toBeGreaterThan(4 * 60_000);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000);
    const other = await player();
    setModelForTests({ model: answering('garbage') });
    await recommend(other);
    const fallbackTtl = await getKv().pttl(kvKey('recs', app.appId, other.userId));
    expect(fallbackTtl).toBeGreaterThan(20_000);
    expect(fallbackTtl).toBeLessThanOrEqual(30_000);
  });

  it('shares one model call between concurrent requests of one user', async () => {
    const user = await player();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        await gate;
        return reply(json({ missionIds: ['half'], reason: 'Two trades.' }));
      },
    });
    setModelForTests({ model });
    // Every request has read the (empty) cache before the gate opens, so each either joins the flight or,
    // were there no single flight, computes and calls the model itself: counted as the reads settle (the
    // request then reaches the flight in the same event-loop turn).
    const kv = getKv();
    const read = kv.get.bind(kv);
    const key = kvKey('recs', app.appId, user.userId);
    let cacheReads = 0;
    const spy = vi.spyOn(kv, 'get').mockImplementation(async (k: string) => {
      const value = await read(k);
      if (k === key) cacheReads++;
      return value;
    });
    let all: Array<Awaited<ReturnType<typeof recommend>>>;
    try {
      const pending = Promise.all(Array.from({ length: 6 }, () => recommend(user)));
      await vi.waitFor(() => expect(model.doGenerateCalls).toHaveLength(1), { timeout: 30_000, interval: 20 });
      await vi.waitFor(() => expect(cacheReads).toBe(6), { timeout: 30_000, interval: 20 });
      release();
      all = await pending;
    } finally {
      spy.mockRestore();
    }
    expect(model.doGenerateCalls).toHaveLength(1);
    for (const r of all) expect(r.body).toEqual(all[0].body);
    expect(all[0].body).toMatchObject({ missionIds: ['half'], fallback: false });
  });

  it('a first claim refreshes the recommendations in the background and pushes them; a replayed claim does not', async () => {
    const user = await player();
    setModelForTests({ model: answering(json({ missionIds: ['claimable'], reason: 'Claim it.' })) });
    expect((await recommend(user)).body.missionIds).toEqual(['claimable']);
    const s = await streamOf(user);
    setModelForTests({ model: answering(json({ missionIds: ['locked', 'near'], reason: 'Newly unlocked.' })) });
    const claim = await user.claim('claimable', 'claim-key-1');
    expect(claim.status).toBe(200);
    await s.waitFor((x) => x.updates.some((u) => u.type === 'recommendation'), 'a recommendation message');
    expect(s.updates.find((u) => u.type === 'recommendation')?.data).toEqual({ userId: user.userId, missionIds: ['locked', 'near'], reason: 'Newly unlocked.' });
    // The refreshed answer is what GET serves now (claiming unlocked "locked").
    expect((await recommend(user)).body).toMatchObject({ missionIds: ['locked', 'near'], fallback: false });
    const replay = await user.claim('claimable', 'claim-key-1');
    expect(replay.headers.get('x-idempotent-replay')).toMatch(/^(hit|db-hit)$/);
    // The marker: a later first claim ("half", completed by one more trade) and its refresh. A user's
    // refreshes run one after another (a fresh one waits for the one in flight) and the stream is ordered,
    // so a refresh the replay had started would have pushed its message before the marker's.
    setModelForTests({ model: answering(json({ missionIds: ['near'], reason: 'The marker.' })) });
    expect((await user.event('trade')).status).toBe(200);
    expect((await user.claim('half')).status).toBe(200);
    await s.waitFor((x) => x.updates.some((u) => u.type === 'recommendation' && u.data.reason === 'The marker.'), "the marker's recommendation");
    expect(s.updates.filter((u) => u.type === 'recommendation').map((u) => u.data.reason)).toEqual(['Newly unlocked.', 'The marker.']);
  });

  it("a claim's refresh keeps the limit the user last asked for (the cache entry read with the token checks)", async () => {
    const user = await player();
    // The fallback (no model): limit 2 gives the first two of the fallback order.
    expect((await recommend(user, '?limit=2')).body.missionIds).toEqual(FALLBACK_TOP3.slice(0, 2));
    const s = await streamOf(user);
    // With a key, so the route reads two stored keys (the recommendations, then the key's cached answer).
    expect((await user.claim('claimable', 'limit-claim-1')).status).toBe(200);
    await s.waitFor((x) => x.updates.some((u) => u.type === 'recommendation'), 'a recommendation message');
    // Claiming unlocked "locked"; five candidates remain, and the refresh still answers two.
    const pushed = s.updates.find((u) => u.type === 'recommendation')?.data as { missionIds: string[] };
    expect(pushed.missionIds).toEqual(['near', 'half']);
    const cached = JSON.parse((await getKv().get(kvKey('recs', app.appId, user.userId)))!) as { limit: number };
    expect(cached.limit).toBe(2);
    // With no cached entry the refresh uses the default limit (5).
    await getKv().del(kvKey('recs', app.appId, user.userId));
    expect((await user.event('trade')).status).toBe(200);
    expect((await user.claim('half')).status).toBe(200);
    await s.waitFor((x) => x.updates.filter((u) => u.type === 'recommendation').length === 2, 'a second recommendation message');
    const second = s.updates.filter((u) => u.type === 'recommendation')[1]?.data as { missionIds: string[] };
    expect(second.missionIds.length).toBeGreaterThan(2);
  });

  it('drops a cached answer that names a mission the user can no longer progress or claim', async () => {
    const user = await player();
    const model = answering(json({ missionIds: ['claimable'], reason: 'Claim it.' }));
    setModelForTests({ model });
    await recommend(user);
    // Claimed behind the cache's back (the background refresh is not awaited here, so drop its result too).
    expect((await user.claim('claimable')).status).toBe(200);
    await vi.waitFor(() => expect(model.doGenerateCalls.length).toBeGreaterThanOrEqual(2), { timeout: 30_000, interval: 20 });
    await getKv().set(kvKey('recs', app.appId, user.userId), JSON.stringify({ limit: 3, result: { userId: user.userId, missionIds: ['claimable'], reason: 'stale', fallback: false, generatedAt: 1 } }));
    const { body } = await recommend(user);
    expect(body.reason).not.toBe('stale');
    expect(body.missionIds).not.toContain('claimable');
  });
});

describe('GET /v1/recommendations: parameters, limits and errors', () => {
  it('defaults to 3 and allows up to 10', async () => {
    const user = await player();
    expect((await recommend(user)).body.missionIds).toHaveLength(3);
    expect((await recommend(user, '?limit=1')).body.missionIds).toEqual(['claimable']);
    expect((await recommend(user, '?limit=10')).body.missionIds).toHaveLength(5);
  });

  it.each(['0', '11', 'abc', '2.5', '-1', ''])('answers 400 validation_error naming limit for limit=%s', async (value) => {
    const user = await newUser(server, app);
    const { res, body } = await recommend(user, `?limit=${value}`);
    expect(res.status).toBe(400);
    expect(body.error).toBe('validation_error');
    expect(String(body.message)).toMatch(/^limit: /);
  });

  it('answers an empty list when nothing can be progressed or claimed, without calling the model', async () => {
    const empty = await createTestApp(server, { missions: [mission('only', { expiresAt: Date.now() - 1 })] });
    const user = await newUser(server, empty);
    const model = answering(json({ missionIds: ['only'], reason: 'x' }));
    setModelForTests({ model });
    const { res, body } = await recommend(user);
    expect(res.status).toBe(200);
    expectExactly(body, { userId: user.userId, missionIds: [], reason: NOTHING_REASON, fallback: false });
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('allows 20 requests per 60 s per token with RateLimit headers, then 429 with Retry-After', async () => {
    const user = await newUser(server, app);
    freshWindowInProcess(25_000);
    for (let i = 0; i < 20; i++) {
      const { res } = await recommend(user);
      expect(res.status, `request ${i + 1}`).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('20');
      expect(res.headers.get('ratelimit-remaining')).toBe(String(19 - i));
    }
    const { res, body } = await recommend(user);
    expect(res.status).toBe(429);
    expect(body.error).toBe('rate_limited');
    expect(res.headers.get('retry-after')).toBe(String(Math.ceil((body.retryAfterMs as number) / 1000)));
  });

  it('answers 401 unauthorized without a token', async () => {
    const res = await fetch(`${server.url}/v1/recommendations`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toBe('unauthorized');
  });
});
