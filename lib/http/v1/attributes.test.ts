// User attributes and audiences over real HTTP (issue 19 §3–4): attributes set
// by the token request and by the signed webhook (app secret only), the
// reserved `timezone` (a Tokyo user's daily mission resets at Tokyo midnight,
// the server clock moved with the test clock), and audiences hiding missions
// from list, detail, claim, events and campaigns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueUserToken } from '@/lib/sdk/backend';
import { setServerClock } from '@/lib/testing/clock';
import { campaign, HOUR, mission, newUser } from '@/lib/testing/fixtures';
import { createTestApp, startTestServer, uniqueId, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { sendDelivery, whEvent } from '@/lib/testing/webhook';

let server: TestServer;

beforeAll(async () => {
  process.env.QUESTLINE_TEST_CLOCK = '1';
  server = await startTestServer();
});
afterAll(async () => {
  if (server) await setServerClock(server.url, server.adminKey, null).catch(() => undefined);
  delete process.env.QUESTLINE_TEST_CLOCK;
  await server?.close();
});

async function token(app: TestApp, userId: string, attributes?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.url}/v1/auth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ appId: app.appId, appSecret: app.appSecret, userId, ...(attributes === undefined ? {} : { attributes }) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

type Progress = { status: string; currentCount: number } | null;
const listedIds = async (user: Awaited<ReturnType<typeof newUser>>) =>
  (await user.getJson<{ missions: Array<{ id: string }> }>('/v1/missions')).body.missions.map((m) => m.id);

describe('attributes on POST /v1/auth/token', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(server, { missions: [mission('m-any')] });
  });

  it('accepts attributes with an unchanged answer', async () => {
    const { status, body } = await token(app, uniqueId('u'), { platform: 'ios', level: 12, vip: true, timezone: 'Europe/Berlin' });
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['accessToken', 'expiresAt', 'expiresIn', 'tokenType']);
  });

  it.each([
    ['an unknown zone', { timezone: 'Mars/Olympus' }, 'attributes.timezone'],
    ['an offset for a zone', { timezone: '+01:00' }, 'attributes.timezone'],
    ['a zone that is not a string', { timezone: 9 }, 'attributes.timezone'],
    ['a nested object', { profile: { level: 3 } }, 'attributes.profile'],
    ['an array', { tags: ['a'] }, 'attributes.tags'],
    ['a string of 257 characters', { name: 'x'.repeat(257) }, 'attributes.name'],
    ['a key of 65 characters', { ['k'.repeat(65)]: 1 }, 'attributes'],
    ['33 keys', Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, i])), 'attributes'],
    ['not an object', 'ios', 'attributes'],
  ])('refuses %s with 400 validation_error naming the field', async (_label, attributes, field) => {
    const { status, body } = await token(app, uniqueId('u'), attributes);
    expect(status).toBe(400);
    expect(body.error).toBe('validation_error');
    expect(String(body.message)).toContain(field);
  });

  it('@questline/sdk/backend issueUserToken sends attributes and answers the token', async () => {
    const aud = await createTestApp(server, { missions: [mission('m-sdk', { audience: { tier: 'gold' } })] });
    const userId = uniqueId('u');
    const answer = await issueUserToken(server.url, { appId: aud.appId, appSecret: aud.appSecret, userId, attributes: { tier: 'gold' } });
    expect(answer.tokenType).toBe('Bearer');
    const user = await newUser(server, aud, userId);
    expect(await listedIds(user)).toEqual(['m-sdk']);
    await expect(issueUserToken(server.url, { appId: aud.appId, appSecret: aud.appSecret, userId, attributes: { timezone: 'Nowhere' } })).rejects.toThrow(/400 validation_error/);
  });

  it('refuses a merge that would store more than 32 keys, and writes nothing', async () => {
    const userId = uniqueId('u');
    expect((await token(app, userId, Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`a${i}`, i])))).status).toBe(200);
    const over = await token(app, userId, { b1: 1, b2: 2, b3: 3 });
    expect(over.status).toBe(400);
    expect(over.body.error).toBe('validation_error');
    // Deleting two and adding two fits.
    expect((await token(app, userId, { a0: null, a1: null, b1: 1, b2: 2 })).status).toBe(200);
  });

  it('ignores attributes in a player-token request body (only the app secret sets them)', async () => {
    const aud = await createTestApp(server, { missions: [mission('m-vip', { audience: { vip: true } })] });
    const user = await newUser(server, aud);
    // The token route needs the app secret; an `attributes` field on an event is not an attribute update.
    const res = await user.client.post('/v1/events', { userId: user.userId, name: 'play', payload: {}, timestamp: Date.now(), attributes: { vip: true } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { missionsUpdated: string[] }).missionsUpdated).toEqual([]);
    expect(await listedIds(user)).toEqual([]);
    const wrongSecret = await fetch(`${server.url}/v1/auth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ appId: aud.appId, appSecret: 'not-the-secret', userId: user.userId, attributes: { vip: true } }),
    });
    expect(wrongSecret.status).toBe(401);
    expect(await listedIds(user)).toEqual([]);
  });
});

describe('audiences', () => {
  const IOS_10 = mission('m-ios', { criteria: { eventName: 'play', count: 2 }, audience: { platform: 'ios', level: { gte: 10 } } });
  const OPEN = mission('m-open');
  const ANDROID_ONLY = campaign('c-android', { audience: { platform: 'android' } });
  const IN_CAMPAIGN = mission('m-camp', { campaignId: 'c-android' });
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(server, { missions: [IOS_10, OPEN, IN_CAMPAIGN], campaigns: [ANDROID_ONLY] });
  });

  it('a user outside the audience: not listed, 404 on detail and claim, events do not advance it', async () => {
    const userId = uniqueId('u');
    expect((await token(app, userId, { platform: 'ios', level: 3 })).status).toBe(200);
    const user = await newUser(server, app, userId);
    expect(await listedIds(user)).toEqual([OPEN.id]);
    const detail = await user.getJson<{ error: string }>(`/v1/missions/${IOS_10.id}`);
    expect(detail.status).toBe(404);
    expect(detail.body.error).toBe('mission_not_found');
    const played = await user.event('play');
    expect(played.status).toBe(200);
    expect(played.body.missionsUpdated).toEqual([OPEN.id]);
    const claim = await user.claim(IOS_10.id);
    expect(claim.status).toBe(404);
    expect(((await claim.json()) as { error: string }).error).toBe('mission_not_found');
    // The campaign for android users does not exist for an ios user, nor its mission.
    expect((await user.getJson<{ error: string }>('/v1/campaigns/c-android')).status).toBe(404);
    expect((await user.getJson<{ campaigns: unknown[] }>('/v1/campaigns')).body.campaigns).toEqual([]);
    expect((await user.getJson(`/v1/missions/${IN_CAMPAIGN.id}`)).status).toBe(404);
    const recs = await user.getJson<{ missionIds: string[] }>('/v1/recommendations?limit=10');
    expect(recs.body.missionIds).not.toContain(IOS_10.id);
    expect(recs.body.missionIds).not.toContain(IN_CAMPAIGN.id);
  });

  it('the next request sees new attributes; progress is kept while outside; a completed mission is hidden and unclaimable outside, claimable again inside', async () => {
    const userId = uniqueId('u');
    await token(app, userId, { platform: 'ios', level: 10 });
    const user = await newUser(server, app, userId);
    expect(await listedIds(user)).toContain(IOS_10.id);
    expect((await user.event('play')).body.missionsUpdated).toContain(IOS_10.id);
    expect((await user.getJson<{ progress: Progress }>(`/v1/missions/${IOS_10.id}`)).body.progress).toMatchObject({ currentCount: 1 });

    // Level drops below 10: hidden at once (list cache included), events pass it by.
    await token(app, userId, { level: 9 });
    expect(await listedIds(user)).not.toContain(IOS_10.id);
    expect((await user.event('play')).body.missionsUpdated).not.toContain(IOS_10.id);

    // Back inside: the progress made before is still there (1, not 2).
    await token(app, userId, { level: 11 });
    expect((await user.getJson<{ progress: Progress }>(`/v1/missions/${IOS_10.id}`)).body.progress).toMatchObject({ status: 'active', currentCount: 1 });
    expect((await user.event('play')).body.missionsUpdated).toContain(IOS_10.id);
    expect((await user.getJson<{ progress: Progress }>(`/v1/missions/${IOS_10.id}`)).body.progress).toMatchObject({ status: 'completed' });

    // Completed, not claimed, then outside the audience: hidden and 404 on claim; the record is kept.
    await token(app, userId, { platform: null });
    expect(await listedIds(user)).not.toContain(IOS_10.id);
    expect((await user.claim(IOS_10.id)).status).toBe(404);
    await token(app, userId, { platform: 'ios' });
    expect(await listedIds(user)).toContain(IOS_10.id);
    const claimed = await user.claim(IOS_10.id);
    expect(claimed.status).toBe(200);
  });

  it('a campaign audience admits its users to the campaign and its missions', async () => {
    const userId = uniqueId('u');
    await token(app, userId, { platform: 'android' });
    const user = await newUser(server, app, userId);
    expect((await listedIds(user)).sort()).toEqual([IN_CAMPAIGN.id, OPEN.id].sort());
    const detail = await user.getJson<{ campaign: { id: string; missionIds: string[] }; missions: Array<{ id: string }> }>('/v1/campaigns/c-android?include=missions');
    expect(detail.status).toBe(200);
    expect(detail.body.missions.map((m) => m.id)).toEqual([IN_CAMPAIGN.id]);
    expect(detail.body.campaign).not.toHaveProperty('audience');
    expect((await user.event('play')).body.missionsUpdated.sort()).toEqual([IN_CAMPAIGN.id, OPEN.id].sort());
  });
});

describe('attributes from the signed webhook', () => {
  const VIP = mission('m-vip', { audience: { vip: true } });
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(server, { missions: [VIP] });
  });

  it('users alone: applied, answered with no results', async () => {
    const user = await newUser(server, app);
    expect(await listedIds(user)).toEqual([]);
    const sent = await sendDelivery(server, app, { users: [{ userId: user.userId, attributes: { vip: true } }] });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ accepted: true, results: [] });
    expect(await listedIds(user)).toEqual([VIP.id]);
  });

  it('users beside events: applied before the events of the same delivery', async () => {
    const user = await newUser(server, app);
    const sent = await sendDelivery(server, app, { users: [{ userId: user.userId, attributes: { vip: true } }], events: [whEvent(user.userId)] });
    expect(sent.status).toBe(200);
    expect((sent.body.results as Array<{ missionsUpdated: string[] }>)[0].missionsUpdated).toEqual([VIP.id]);
  });

  it('an invalid update refuses the whole delivery, naming users[i]', async () => {
    const user = await newUser(server, app);
    const sent = await sendDelivery(server, app, {
      users: [
        { userId: user.userId, attributes: { vip: true } },
        { userId: user.userId, attributes: { timezone: 'Nowhere/Town' } },
      ],
      events: [whEvent(user.userId)],
    });
    expect(sent.status).toBe(400);
    expect(sent.body.error).toBe('validation_error');
    expect(String(sent.body.message)).toContain('users[1].attributes.timezone');
    expect(await listedIds(user)).toEqual([]);
  });

  it('a delivery with neither events nor users is refused', async () => {
    const sent = await sendDelivery(server, app, {});
    expect(sent.status).toBe(400);
    expect(sent.body.error).toBe('validation_error');
  });
});

describe('the timezone attribute', () => {
  const DAILY = mission('m-daily', { criteria: { eventName: 'login', count: 2, window: 'daily' } });
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(server, { missions: [DAILY] });
  });

  it("a Tokyo user's daily mission resets at Tokyo midnight (15:00 UTC), a UTC user's does not", async () => {
    const tokyoId = uniqueId('tokyo');
    expect((await token(app, tokyoId, { timezone: 'Asia/Tokyo' })).status).toBe(200);
    const tokyo = await newUser(server, app, tokyoId);
    const utcUser = await newUser(server, app);
    const progress = async (u: typeof tokyo) => (await u.getJson<{ progress: Progress }>(`/v1/missions/${DAILY.id}`)).body.progress;

    // 23:50 in Tokyo on 14 May 2031 (14:50 UTC).
    const beforeMidnight = Date.UTC(2031, 4, 14, 14, 50);
    await setServerClock(server.url, server.adminKey, beforeMidnight);
    expect((await tokyo.event('login', {}, beforeMidnight)).body.missionsUpdated).toEqual([DAILY.id]);
    expect((await utcUser.event('login', {}, beforeMidnight)).body.missionsUpdated).toEqual([DAILY.id]);
    expect(await progress(tokyo)).toMatchObject({ status: 'active', currentCount: 1 });

    // 00:10 in Tokyo on the 15th, still the 14th in UTC: the Tokyo user's day starts over.
    const afterMidnight = beforeMidnight + 20 * 60_000;
    await setServerClock(server.url, server.adminKey, afterMidnight);
    expect(await progress(tokyo)).toMatchObject({ status: 'active', currentCount: 0 });
    expect(await progress(utcUser)).toMatchObject({ status: 'active', currentCount: 1 });
    // The event of 23:50 Tokyo time is late now for the Tokyo user (yesterday's bucket).
    expect((await tokyo.event('login', {}, beforeMidnight + 60_000)).body.missionsUpdated).toEqual([]);
    expect((await tokyo.event('login', {}, afterMidnight)).body.missionsUpdated).toEqual([DAILY.id]);
    expect(await progress(tokyo)).toMatchObject({ currentCount: 1 });
    // The UTC user completes within the same UTC day.
    expect((await utcUser.event('login', {}, afterMidnight)).body.missionsUpdated).toEqual([DAILY.id]);
    expect(await progress(utcUser)).toMatchObject({ status: 'completed' });

    // The next UTC midnight resets the UTC user's claimed-or-active count, while the Tokyo user's day (until 15:00 UTC) goes on.
    const utcMidnight = Date.UTC(2031, 4, 15, 0, 5);
    await setServerClock(server.url, server.adminKey, utcMidnight);
    expect(await progress(tokyo)).toMatchObject({ status: 'active', currentCount: 1 });
    expect((await tokyo.event('login', {}, utcMidnight)).body.missionsUpdated).toEqual([DAILY.id]);
    expect(await progress(tokyo)).toMatchObject({ status: 'completed' });
    await setServerClock(server.url, server.adminKey, null);
  });

  it("a claim refused after the Tokyo user's midnight reads the window in Tokyo: not completed (a new day), not already claimed", async () => {
    const userId = uniqueId('tokyo-claim');
    expect((await token(app, userId, { timezone: 'Asia/Tokyo' })).status).toBe(200);
    const user = await newUser(server, app, userId);
    // 23:40 and 23:50 in Tokyo on 20 May 2031: complete and claim the day's mission.
    const evening = Date.UTC(2031, 4, 20, 14, 40);
    await setServerClock(server.url, server.adminKey, evening + 10 * 60_000);
    await user.event('login', {}, evening);
    await user.event('login', {}, evening + 10 * 60_000);
    expect((await user.claim(DAILY.id)).status).toBe(200);
    const again = await user.claim(DAILY.id);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { message: string }).message).toBe(`Mission "${DAILY.id}" is already claimed`);
    // 00:10 in Tokyo on the 21st (still the 20th in UTC): the claimed day is over for this user.
    await setServerClock(server.url, server.adminKey, Date.UTC(2031, 4, 20, 15, 10));
    const nextDay = await user.claim(DAILY.id);
    expect(nextDay.status).toBe(409);
    expect(((await nextDay.json()) as { message: string }).message).toBe(`Mission "${DAILY.id}" is not completed`);
    await setServerClock(server.url, server.adminKey, null);
  });

  it('changing the zone moves the windows at the next request', async () => {
    const userId = uniqueId('u');
    await token(app, userId, { timezone: 'Asia/Tokyo' });
    const user = await newUser(server, app, userId);
    // 16:00 UTC: the 15th in Tokyo, the 14th in UTC and New York.
    const t = Date.UTC(2031, 4, 14, 16);
    await setServerClock(server.url, server.adminKey, t);
    // 14:00 UTC is 23:00 on the 14th in Tokyo: yesterday there, so late and not counted.
    expect((await user.event('login', {}, t - 2 * HOUR)).body.missionsUpdated).toEqual([]);
    expect((await user.getJson<{ progress: Progress }>(`/v1/missions/${DAILY.id}`)).body.progress).toBeNull();
    // In New York 14:00 and 16:00 UTC are both the 14th: the same event time counts at the next request.
    await token(app, userId, { timezone: 'America/New_York' });
    expect((await user.event('login', {}, t - 2 * HOUR)).body.missionsUpdated).toEqual([DAILY.id]);
    await setServerClock(server.url, server.adminKey, null);
  });
});
