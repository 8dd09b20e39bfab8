// Every SDK method against the real service, and the typed error mapping.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshWindowInProcess } from '@/lib/testing/rate-window';
import { createTestApp, issueToken, startTestServer, uniqueId, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { createQuestlineClient, type QuestlineClient } from './client';
import * as E from './errors';
import { sdkCatalog } from '@/lib/testing/sdk-fixtures';

let server: TestServer;
let app: TestApp;

beforeAll(async () => {
  server = await startTestServer();
  app = await createTestApp(server, sdkCatalog());
});
afterAll(async () => server?.close());

async function userClient(userId = uniqueId('user')): Promise<{ client: QuestlineClient; userId: string; token: string }> {
  const token = await issueToken(server, app, userId);
  return { client: createQuestlineClient({ baseUrl: server.url + '/', token }), userId, token };
}

describe('SDK methods (happy paths)', () => {
  it('issueToken works without a token and the token works', async () => {
    const backend = createQuestlineClient({ baseUrl: server.url });
    const issued = await backend.issueToken({ appId: app.appId, appSecret: app.appSecret, userId: 'u-issue' });
    expect(issued).toMatchObject({ tokenType: 'Bearer', expiresIn: 3600 });
    const client = createQuestlineClient({ baseUrl: server.url, getToken: () => issued.accessToken });
    expect((await client.getBalances()).balances).toEqual([]);
  });

  it('sendEvent, missions, claim, balances, with replay flags', async () => {
    const { client, userId } = await userClient();
    const first = await client.sendEvent({ name: 'match' }, { idempotencyKey: 'k1' });
    expect(first).toMatchObject({ accepted: true, missionsUpdated: ['three-matches'], replay: null });
    const ts = Date.now();
    const replayed = await client.sendEvent({ name: 'match', timestamp: ts }, { idempotencyKey: 'k-ts' });
    expect(replayed.replay).toBeNull();
    expect((await client.sendEvent({ name: 'match', timestamp: ts }, { idempotencyKey: 'k-ts' })).replay).toBe('hit');
    await client.sendEvent({ name: 'match', userId, payload: { map: 'x' } });

    const detail = await client.getMission('three-matches');
    expect(detail.mission.id).toBe('three-matches');
    expect(detail.progress).toMatchObject({ status: 'completed', currentCount: 3, targetCount: 3, progress: 1 });
    expect((await client.getMission('first-login')).progress).toBeNull();

    const page = await client.listMissions({ limit: 2 });
    expect(page.missions).toHaveLength(2);
    expect(page.nextCursor).toEqual(expect.any(String));
    const next = await client.listMissions({ limit: 2, cursor: page.nextCursor! });
    expect(next.missions.map((m) => m.id)).not.toContain(page.missions[0].id);
    const all = await client.listAllMissions();
    expect(all.missions.map((m) => m.id).sort()).toEqual(['badge-win', 'first-login', 'three-matches']);
    expect(all.progress['three-matches'].status).toBe('completed');
    expect((await client.listMissions({ campaignId: 'c1' })).missions.map((m) => m.id)).toEqual(['three-matches']);
    expect((await client.listMissions({ status: 'completed' })).missions.map((m) => m.id)).toEqual(['three-matches']);

    const claim = await client.claimMission('three-matches', { idempotencyKey: 'c-1' });
    expect(claim).toMatchObject({ progress: { status: 'claimed' }, balance: { currency: 'gems', amount: 50 }, reward: { kind: 'currency' }, replay: null });
    expect((await client.claimMission('three-matches', { idempotencyKey: 'c-1' })).replay).toBe('hit');

    expect((await client.getBalances()).balances).toEqual([expect.objectContaining({ currency: 'gems', amount: 50, userId })]);
    expect((await client.getBalance('gems')).balance.amount).toBe(50);
  });

  it('campaigns', async () => {
    const { client } = await userClient();
    expect((await client.listCampaigns()).campaigns.map((c) => c.id)).toEqual(['c1']);
    expect((await client.listCampaigns({ include: 'expired' })).campaigns).toHaveLength(1);
    const plain = await client.getCampaign('c1');
    expect(plain.campaign.missionIds).toEqual(['three-matches']);
    expect(plain.missions).toBeUndefined();
    expect((await client.getCampaign('c1', { include: 'missions' })).missions?.map((m) => m.id)).toEqual(['three-matches']);
  });

  it('revokeToken makes the token unusable', async () => {
    const { client } = await userClient();
    expect(await client.revokeToken()).toEqual({ revoked: true });
    await expect(client.getBalances()).rejects.toBeInstanceOf(E.UnauthorizedError);
  });

  it('retries a 401 once with a fresh token from getToken', async () => {
    const userId = uniqueId('user');
    const fresh = await issueToken(server, app, userId);
    const tokens = ['not-a-jwt', fresh];
    const client = createQuestlineClient({ baseUrl: server.url, getToken: () => tokens.shift() ?? fresh });
    expect((await client.getBalances()).balances).toEqual([]);
  });
});

/** Waits out the current millisecond, so a second Date.now() differs from the first. */
function nextMillisecond(): void {
  const start = Date.now();
  while (Date.now() === start) {
    // spin: a millisecond at most
  }
}

describe('retries under the same idempotency key (docs/sdk.md, "Retries")', () => {
  it('sendEvent retried after a lost response replays: the retry sends the first attempt\'s timestamp', async () => {
    const token = await issueToken(server, app, uniqueId('user'));
    let lose = true;
    // The request reaches the server and is applied; the answer is lost on the way back.
    const lossy: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (!lose) return res;
      lose = false;
      await res.text();
      throw new TypeError('fetch failed: socket hang up');
    };
    const client = createQuestlineClient({ baseUrl: server.url, token, fetch: lossy });
    await expect(client.sendEvent({ name: 'match', payload: { map: 'x' } }, { idempotencyKey: 'lost-1' })).rejects.toBeInstanceOf(E.NetworkError);
    nextMillisecond();
    const retried = await client.sendEvent({ name: 'match', payload: { map: 'x' } }, { idempotencyKey: 'lost-1' });
    expect(retried).toMatchObject({ accepted: true, replay: 'hit' });
    nextMillisecond();
    const again = await client.sendEvent({ name: 'match', payload: { map: 'x' } }, { idempotencyKey: 'lost-1' });
    expect(again).toEqual(retried);
    // One event was stored, and a new key is a new event (with a fresh time).
    expect((await client.getMission('three-matches')).progress?.currentCount).toBe(1);
    nextMillisecond();
    expect(await client.sendEvent({ name: 'match', payload: { map: 'x' } }, { idempotencyKey: 'lost-2' })).toMatchObject({ replay: null });
    expect((await client.getMission('three-matches')).progress?.currentCount).toBe(2);
    // The same key with another event is still a misuse.
    await expect(client.sendEvent({ name: 'other' }, { idempotencyKey: 'lost-1' })).rejects.toBeInstanceOf(E.IdempotencyKeyReusedError);
  });

  it('keys are per user: the same key for two users of one client is two events', async () => {
    const backend = createQuestlineClient({ baseUrl: server.url });
    const [a, b] = [uniqueId('user'), uniqueId('user')];
    const tokens: Record<string, string> = {};
    for (const u of [a, b]) tokens[u] = (await backend.issueToken({ appId: app.appId, appSecret: app.appSecret, userId: u })).accessToken;
    let current = a;
    const client = createQuestlineClient({ baseUrl: server.url, getToken: () => tokens[current] });
    expect(await client.sendEvent({ name: 'match' }, { idempotencyKey: 'shared' })).toMatchObject({ replay: null });
    current = b;
    nextMillisecond();
    expect(await client.sendEvent({ name: 'match' }, { idempotencyKey: 'shared' })).toMatchObject({ replay: null });
    nextMillisecond();
    expect(await client.sendEvent({ name: 'match' }, { idempotencyKey: 'shared' })).toMatchObject({ replay: 'hit' });
  });

  it('claimMission retried under its key replays the claim', async () => {
    const { client } = await userClient();
    for (let i = 0; i < 3; i++) await client.sendEvent({ name: 'match', timestamp: Date.now() - i });
    const first = await client.claimMission('three-matches', { idempotencyKey: 'claim-retry' });
    nextMillisecond();
    const retried = await client.claimMission('three-matches', { idempotencyKey: 'claim-retry' });
    expect(retried).toEqual({ ...first, replay: 'hit' });
  });
});

describe('SDK typed errors from the real service', () => {
  it('maps every reachable error code', async () => {
    const { client } = await userClient();
    const err = async (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as E.QuestlineError);

    const notReady = await err(client.claimMission('first-login'));
    expect(notReady).toBeInstanceOf(E.ClaimNotReadyError);
    expect(notReady).toBeInstanceOf(E.ConflictError);
    expect(notReady).toMatchObject({ status: 409, code: 'claim_not_ready', requestId: expect.any(String) });

    expect(await err(client.getMission('nope'))).toBeInstanceOf(E.MissionNotFoundError);
    expect(await err(client.claimMission('nope'))).toBeInstanceOf(E.MissionNotFoundError);
    expect(await err(client.getCampaign('nope'))).toBeInstanceOf(E.CampaignNotFoundError);
    const noBalance = await err(client.getBalance('gold'));
    expect(noBalance).toBeInstanceOf(E.BalanceNotFoundError);
    expect(noBalance).toBeInstanceOf(E.NotFoundError);
    expect(await err(client.listMissions({ limit: 500 }))).toBeInstanceOf(E.ValidationError);
    const invalid = await err(client.sendEvent({ name: '' }));
    expect(invalid).toBeInstanceOf(E.InvalidEventError);
    expect(invalid?.code).toBe('invalid_event');
    expect(await err(client.sendEvent({ name: 'match', userId: 'someone-else' }))).toBeInstanceOf(E.UserMismatchError);
    expect(await err(client.sendEvent({ name: 'x', payload: { big: 'y'.repeat(70_000) } }))).toBeInstanceOf(E.PayloadTooLargeError);
    const at = Date.now();
    await client.sendEvent({ name: 'noop', timestamp: at }, { idempotencyKey: 'reuse' });
    expect(await err(client.sendEvent({ name: 'noop', timestamp: at + 1 }, { idempotencyKey: 'reuse' }))).toBeInstanceOf(E.IdempotencyKeyReusedError);
    // The server's clock bounds the event's: seconds instead of milliseconds, or a device clock days ahead, is an invalid event.
    const seconds = await err(client.sendEvent({ name: 'noop', timestamp: Math.floor(at / 1000) }));
    expect(seconds).toBeInstanceOf(E.InvalidEventError);
    expect(seconds?.message).toMatch(/milliseconds/);
    expect(await err(client.sendEvent({ name: 'noop', timestamp: at + 86_400_000 }))).toBeInstanceOf(E.InvalidEventError);

    const backend = createQuestlineClient({ baseUrl: server.url });
    expect(await err(backend.issueToken({ appId: app.appId, appSecret: 'wrong', userId: 'u' }))).toBeInstanceOf(E.InvalidCredentialsError);
    expect(await err(backend.issueToken({ appId: '', appSecret: 'x', userId: 'u' }))).toBeInstanceOf(E.ValidationError);
    expect(await err(backend.getBalances())).toBeInstanceOf(E.UnauthorizedError);
    const badToken = createQuestlineClient({ baseUrl: server.url, token: 'garbage' });
    expect(await err(badToken.getBalances())).toMatchObject({ status: 401, code: 'unauthorized' });
    const offline = createQuestlineClient({ baseUrl: 'http://127.0.0.1:9', token: 't' });
    expect(await err(offline.getBalances())).toBeInstanceOf(E.NetworkError);
  });

  it('the 101st event in 60 s is RateLimitedError with retryAfterMs', async () => {
    const { client } = await userClient();
    // The burst must stay inside one fixed window of the limiter, or the 429 comes one event late
    // (lib/testing/rate-window.ts); 100 events took up to ~20 s on the loaded 2-core machine.
    freshWindowInProcess(40_000);
    for (let i = 0; i < 100; i++) await client.sendEvent({ name: 'noise', timestamp: Date.now() - i });
    const limited = await client.sendEvent({ name: 'noise' }).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(E.RateLimitedError);
    expect((limited as E.RateLimitedError).retryAfterMs).toBeGreaterThan(0);
    expect((limited as E.RateLimitedError).retryAfterMs).toBeLessThanOrEqual(60_000);
  }, 120_000);
});

describe('error mapping without a server', () => {
  const reply = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    createQuestlineClient({
      baseUrl: 'http://sdk.invalid',
      token: 't',
      fetch: async () => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers }),
    });

  it.each([
    [503, { error: 'unavailable' }, E.ServiceUnavailableError],
    [500, { error: 'internal_error' }, E.InternalServerError],
    [405, { error: 'method_not_allowed' }, E.MethodNotAllowedError],
    [404, { error: 'not_found' }, E.NotFoundError],
    [502, '<html>bad gateway</html>', E.ServiceUnavailableError],
    [418, { error: 'teapot' }, E.QuestlineError],
  ])('%i %j', async (status, body, Cls) => {
    const e = await reply(status, body, { 'X-Request-Id': 'req-1' }).getBalances().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Cls);
    expect(e).toMatchObject({ status, requestId: 'req-1' });
  });

  it('takes retryAfterMs from the body, else from Retry-After', async () => {
    const fromBody = await reply(429, { error: 'rate_limited', retryAfterMs: 1234 }).getBalances().catch((x: E.RateLimitedError) => x);
    expect(fromBody).toMatchObject({ retryAfterMs: 1234, code: 'rate_limited' });
    const fromHeader = await reply(429, {}, { 'Retry-After': '7' }).getBalances().catch((x: E.RateLimitedError) => x);
    expect(fromHeader).toMatchObject({ retryAfterMs: 7000 });
  });
});
