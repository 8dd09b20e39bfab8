// Staff grants are bounded and confirmed, over real HTTP (embedded, or
// PostgreSQL/Redis with DATABASE_URL/REDIS_URL): a user the app has never seen
// is 404 user_not_found for grants, corrections, resets and completions unless
// createUser: true; the support role's grant limits per app and currency (per
// grant, per staff member per UTC day, two concurrent grants that together pass
// the day's limit: exactly one refused); admins are not bounded, only audited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { adminCall, asStaff, signedInStaff, type TestStaff } from '@/lib/testing/staff';
import { createTestApp, issueToken, startTestServer, uniqueId, userClient, type TestApp, type TestServer } from '@/lib/testing/test-server';

let server: TestServer;
let support: TestStaff;
let support2: TestStaff;
let admin: TestStaff;

beforeAll(async () => {
  server = await startTestServer();
  [support, support2, admin] = [await signedInStaff(server, 'support'), await signedInStaff(server, 'support'), await signedInStaff(server, 'admin')];
});
afterAll(async () => server?.close());

const catalog = () => ({
  campaigns: [],
  missions: [{ id: 'ranked-wins', title: 'Win 2 ranked', criteria: { eventName: 'match_won', count: 2, window: 'lifetime' as const }, reward: { kind: 'currency' as const, currency: 'gold', amount: 25 } }],
});

const usersPath = (app: TestApp, userId: string) => `/api/admin/apps/${app.appId}/users/${encodeURIComponent(userId)}`;
const post = (who: TestStaff, route: string, body: unknown) => asStaff(server, who.cookie, 'POST', route, body);
const grantTo = (who: TestStaff, app: TestApp, userId: string, body: Record<string, unknown>) => post(who, `${usersPath(app, userId)}/grants`, { reason: 'ticket 12', ...body });

/** A player the app has seen: their first event. */
async function seenPlayer(app: TestApp): Promise<string> {
  const userId = uniqueId('p');
  const token = await issueToken(server, app, userId);
  expect((await userClient(server, token).post('/v1/events', { userId, name: 'login', payload: {}, timestamp: Date.now() })).status).toBe(200);
  return userId;
}

/** How many rows the app has of each kind a staff write could touch. */
async function counts(appId: string) {
  const db = (await import('@/db/client')).getDb();
  const result = await (await db).execute(sql`select
    (select count(*) from app_users where app_id = ${appId})::int as users,
    (select count(*) from balances where app_id = ${appId})::int as balances,
    (select count(*) from ledger where app_id = ${appId})::int as ledger,
    (select count(*) from progress where app_id = ${appId})::int as progress,
    (select count(*) from audit_log where app_id = ${appId} and action like 'user.%')::int as audit`);
  return (result as unknown as { rows: Array<Record<string, number>> }).rows[0];
}

async function auditOf(app: TestApp, userId: string) {
  const page = await adminCall<{ entries: Array<{ action: string; after: Record<string, unknown> }> }>(server, 'GET', `/api/admin/audit?appId=${app.appId}&userId=${encodeURIComponent(userId)}`);
  return page.body.entries;
}

describe('a user the app has never seen', () => {
  it('grants, corrections, completions and resets answer 404 user_not_found and change nothing; createUser: true creates the user', async () => {
    const app = await createTestApp(server, catalog());
    await seenPlayer(app);
    const before = await counts(app.appId);
    const ghost = uniqueId('ghost');
    const answers = [
      await grantTo(support, app, ghost, { currency: 'gold', amount: 50 }),
      await grantTo(support, app, ghost, { currency: 'gold', amount: -5 }),
      await post(support, `${usersPath(app, ghost)}/missions/ranked-wins/complete`, { reason: 'ticket 12' }),
      await post(support, `${usersPath(app, ghost)}/missions/ranked-wins/reset`, { reason: 'ticket 12' }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: 'user_not_found', message: expect.stringContaining(`"${ghost}"`) });
    }
    expect(await counts(app.appId)).toEqual(before);

    const created = await grantTo(support, app, ghost, { currency: 'gold', amount: 50, createUser: true });
    expect(created.status).toBe(200);
    expect((await created.json()).balance).toMatchObject({ userId: ghost, amount: 50 });
    const found = await (await asStaff(server, support.cookie, 'GET', `/api/admin/apps/${app.appId}/users?query=${ghost}`)).json();
    expect(found.users).toEqual([expect.objectContaining({ userId: ghost, events: 0 })]);
    expect((await auditOf(app, ghost))[0].after).toMatchObject({ change: 50, userCreated: true });
    // Seen from now on: no createUser needed, and no userCreated in the audit.
    expect((await post(support, `${usersPath(app, ghost)}/missions/ranked-wins/complete`, { reason: 'ticket 12' })).status).toBe(200);
    expect((await auditOf(app, ghost))[0].after).not.toHaveProperty('userCreated');

    const other = uniqueId('ghost');
    expect((await post(support, `${usersPath(app, other)}/missions/ranked-wins/reset`, { reason: 'ticket 13', createUser: true })).status).toBe(200);
    expect((await counts(app.appId)).users).toBe(before.users + 2);
  });
});

describe('grant limits (support role)', () => {
  it('the default per grant: 1,000; over it 403 grant_limit_exceeded naming the limit and what is left, nothing written', async () => {
    const app = await createTestApp(server, catalog());
    const userId = await seenPlayer(app);
    const before = await counts(app.appId);
    for (const amount of [1001, -1001]) {
      const res = await grantTo(support, app, userId, { currency: 'gold', amount });
      expect(res.status).toBe(403);
      const body = await res.json();
      expect(body).toMatchObject({ error: 'grant_limit_exceeded', limit: 1000, remaining: 5000 });
      expect(body.message).toMatch(/at most 1000 gold at a time.*5000 gold left today/);
    }
    expect(await counts(app.appId)).toEqual(before);
    expect((await grantTo(support, app, userId, { currency: 'gold', amount: 1000 })).status).toBe(200);
  });

  it('per staff member per day: grants and corrections add up; each member has their own; an app sets its own per currency and "*"', async () => {
    const app = await createTestApp(server, catalog());
    const limits = { gold: { perGrant: 100, perStaffPerDay: 250 }, '*': { perGrant: 10 } };
    const patched = await adminCall<{ app: { grantLimits: unknown } }>(server, 'PATCH', `/api/admin/apps/${app.appId}`, { grantLimits: limits });
    expect(patched).toMatchObject({ status: 200, body: { app: { grantLimits: limits } } });
    const [a, b] = [await seenPlayer(app), await seenPlayer(app)];
    expect((await grantTo(support, app, a, { currency: 'gold', amount: 100 })).status).toBe(200);
    expect((await grantTo(support, app, b, { currency: 'gold', amount: 100 })).status).toBe(200);
    const past = await grantTo(support, app, a, { currency: 'gold', amount: 51 });
    expect(past.status).toBe(403);
    const body = await past.json();
    expect(body).toMatchObject({ error: 'grant_limit_exceeded', limit: 250, remaining: 50 });
    expect(body.message).toMatch(/at most 250 gold a day per staff member.*50 gold left today/);
    expect((await grantTo(support, app, a, { currency: 'gold', amount: -50 })).status).toBe(200);
    expect(await (await grantTo(support, app, a, { currency: 'gold', amount: 1 })).json()).toMatchObject({ error: 'grant_limit_exceeded', remaining: 0 });
    expect((await grantTo(support2, app, a, { currency: 'gold', amount: 100 })).status).toBe(200);
    // Other currencies: the "*" entry's perGrant, the default per day.
    expect(await (await grantTo(support, app, a, { currency: 'gems', amount: 11 })).json()).toMatchObject({ error: 'grant_limit_exceeded', limit: 10, remaining: 5000 });
    expect((await grantTo(support, app, a, { currency: 'gems', amount: 10 })).status).toBe(200);

    const bad = await adminCall<{ error: string; message: string }>(server, 'PATCH', `/api/admin/apps/${app.appId}`, { grantLimits: { gold: { perGrant: 0 } } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^grantLimits\.gold\.perGrant/);
    // null restores the defaults.
    expect((await adminCall(server, 'PATCH', `/api/admin/apps/${app.appId}`, { grantLimits: null })).body).toMatchObject({ app: { grantLimits: null } });
    expect((await grantTo(support, app, a, { currency: 'gold', amount: 1000 })).status).toBe(200);
  });

  it('two concurrent grants each under the day’s limit but together over it: exactly one is refused', async () => {
    const app = await createTestApp(server, catalog());
    expect((await adminCall(server, 'PATCH', `/api/admin/apps/${app.appId}`, { grantLimits: { '*': { perGrant: null, perStaffPerDay: 5000 } } })).status).toBe(200);
    const players = [await seenPlayer(app), await seenPlayer(app)];
    // Two players (two player locks): only the lock of (app, staff member, currency) orders the two.
    for (const currency of ['c0', 'c1', 'c2']) {
      const answers = await Promise.all(players.map((userId) => grantTo(support, app, userId, { currency, amount: 3000 })));
      expect(answers.map((r) => r.status).sort()).toEqual([200, 403]);
    }
    const db = await (await import('@/db/client')).getDb();
    const result = await db.execute(sql`select coalesce(sum(amount), 0)::int as total from ledger where app_id = ${app.appId}`);
    expect((result as unknown as { rows: Array<{ total: number }> }).rows[0].total).toBe(9000);
  });

  it('admins and the admin API key have no limit; an over-limit grant of theirs is audited with overLimit: true', async () => {
    const app = await createTestApp(server, catalog());
    const userId = await seenPlayer(app);
    expect((await grantTo(admin, app, userId, { currency: 'gold', amount: 5000 })).status).toBe(200);
    expect((await auditOf(app, userId))[0].after).toMatchObject({ change: 5000, overLimit: true });
    const byKey = await adminCall(server, 'POST', `${usersPath(app, userId)}/grants`, { currency: 'gold', amount: 2000, reason: 'migration' });
    expect(byKey.status).toBe(200);
    expect((await auditOf(app, userId))[0].after).toMatchObject({ change: 2000, overLimit: true });
    expect((await grantTo(admin, app, userId, { currency: 'gems', amount: 10 })).status).toBe(200);
    expect((await auditOf(app, userId))[0].after).not.toHaveProperty('overLimit');
  });
});

describe('a staff completion gives the mission’s reward: it counts against the grant limits', () => {
  /** A player who won twice and claimed ranked-wins (25 gold); their token's client. */
  async function claimedPlayer(app: TestApp) {
    const userId = uniqueId('p');
    const client = userClient(server, await issueToken(server, app, userId));
    for (let i = 0; i < 2; i++) expect((await client.post('/v1/events', { userId, name: 'match_won', payload: {}, timestamp: Date.now() })).status).toBe(200);
    expect((await client.post('/v1/missions/ranked-wins/claim')).status).toBe(200);
    return { userId, client };
  }
  const resetAndComplete = async (who: TestStaff, app: TestApp, userId: string) => {
    expect((await post(who, `${usersPath(app, userId)}/missions/ranked-wins/reset`, { reason: 'ticket 12' })).status).toBe(200);
    return post(who, `${usersPath(app, userId)}/missions/ranked-wins/complete`, { reason: 'ticket 12' });
  };
  const gold = async (client: ReturnType<typeof userClient>) =>
    ((await (await client.get('/v1/balance')).json()) as { balances: Array<{ currency: string; amount: number }> }).balances.find((b) => b.currency === 'gold')?.amount ?? 0;

  it('support: reset + complete of a claimed mission is refused 403 once the day’s total would pass, nothing written; grants and completions share the total', async () => {
    const app = await createTestApp(server, catalog());
    expect((await adminCall(server, 'PATCH', `/api/admin/apps/${app.appId}`, { grantLimits: { gold: { perGrant: 100, perStaffPerDay: 60 } } })).status).toBe(200);
    const { userId, client } = await claimedPlayer(app);
    // Twice within the day's 60 gold: completed, claimed again (25 each).
    for (const total of [50, 75]) {
      expect((await resetAndComplete(support, app, userId)).status).toBe(200);
      expect((await auditOf(app, userId))[0]).toMatchObject({ action: 'user.mission_complete', after: { charged: { currency: 'gold', amount: 25 } } });
      expect((await client.post('/v1/missions/ranked-wins/claim')).status).toBe(200);
      expect(await gold(client)).toBe(total);
    }
    // 50 given today, 10 left: a third completion (25) is refused and writes nothing.
    const before = await counts(app.appId);
    const refused = await resetAndComplete(support, app, userId);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: 'grant_limit_exceeded', limit: 60, remaining: 10 });
    const after = await counts(app.appId);
    // The reset before it was written (one audit row more, no more); the completion was not.
    expect(after).toEqual({ ...before, audit: before.audit + 1 });
    expect((await auditOf(app, userId))[0].action).toBe('user.mission_reset');
    const claim = await client.post('/v1/missions/ranked-wins/claim');
    expect(claim.status).toBe(409);
    expect(await gold(client)).toBe(75);
    // The completions count toward the grants' day total too: 11 is past it, 10 is not.
    expect(await (await grantTo(support, app, userId, { currency: 'gold', amount: 11 })).json()).toMatchObject({ error: 'grant_limit_exceeded', remaining: 10 });
    expect((await grantTo(support, app, userId, { currency: 'gold', amount: 10 })).status).toBe(200);
    // Another support member has their own day.
    expect((await resetAndComplete(support2, app, userId)).status).toBe(200);
  });

  it('support: a reward above the per-grant limit cannot be completed; a mission without a currency reward is not counted', async () => {
    const app = await createTestApp(server, {
      campaigns: [],
      missions: [
        ...catalog().missions,
        { id: 'badge-win', title: 'Win once', criteria: { eventName: 'match_won', count: 1, window: 'lifetime' as const }, reward: { kind: 'badge' as const, badgeId: 'winner' } },
      ],
    });
    expect((await adminCall(server, 'PATCH', `/api/admin/apps/${app.appId}`, { grantLimits: { gold: { perGrant: 20, perStaffPerDay: 1000 } } })).status).toBe(200);
    const userId = await seenPlayer(app);
    const res = await post(support, `${usersPath(app, userId)}/missions/ranked-wins/complete`, { reason: 'ticket 12' });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: 'grant_limit_exceeded', limit: 20, remaining: 1000 });
    const badge = await post(support, `${usersPath(app, userId)}/missions/badge-win/complete`, { reason: 'ticket 12' });
    expect(badge.status).toBe(200);
    expect((await auditOf(app, userId))[0].after).not.toHaveProperty('charged');
  });

  it('admins have no limit: their completion past it is applied and audited with overLimit: true', async () => {
    const app = await createTestApp(server, catalog());
    expect((await adminCall(server, 'PATCH', `/api/admin/apps/${app.appId}`, { grantLimits: { gold: { perGrant: 10, perStaffPerDay: 10 } } })).status).toBe(200);
    const { userId, client } = await claimedPlayer(app);
    expect((await resetAndComplete(admin, app, userId)).status).toBe(200);
    expect((await auditOf(app, userId))[0].after).toMatchObject({ charged: { currency: 'gold', amount: 25 }, overLimit: true });
    expect((await client.post('/v1/missions/ranked-wins/claim')).status).toBe(200);
    expect(await gold(client)).toBe(50);
  });
});

describe('a player’s erasure', () => {
  it('does not reset a support member’s day: what they gave the erased player (grants, completed rewards) still counts', async () => {
    const app = await createTestApp(server, catalog());
    expect((await adminCall(server, 'PATCH', `/api/admin/apps/${app.appId}`, { grantLimits: { gold: { perGrant: 100, perStaffPerDay: 60 } } })).status).toBe(200);
    const [erased, other] = [await seenPlayer(app), await seenPlayer(app)];
    expect((await grantTo(support, app, erased, { currency: 'gold', amount: 35 })).status).toBe(200);
    expect((await post(support, `${usersPath(app, erased)}/missions/ranked-wins/complete`, { reason: 'ticket 12' })).status).toBe(200);
    expect(await (await grantTo(support, app, other, { currency: 'gold', amount: 1 })).json()).toMatchObject({ error: 'grant_limit_exceeded', remaining: 0 });

    expect((await asStaff(server, admin.cookie, 'DELETE', usersPath(app, erased), { reason: 'GDPR request 78' })).status).toBe(200);
    // The erased player's audit entries lost their data (as before); the day's total did not.
    expect((await auditOf(app, erased)).filter((e) => e.action !== 'user.erase').map((e) => e.after)).toEqual([null, null]);
    const res = await grantTo(support, app, other, { currency: 'gold', amount: 1 });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: 'grant_limit_exceeded', limit: 60, remaining: 0 });
    // Another support member's day is their own.
    expect((await grantTo(support2, app, other, { currency: 'gold', amount: 60 })).status).toBe(200);
  });
});
