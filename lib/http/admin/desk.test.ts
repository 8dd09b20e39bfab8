// The support desk over real HTTP (embedded, or PostgreSQL/Redis with
// DATABASE_URL/REDIS_URL): grants and corrections (never below zero, even 50
// at once), mission reset and completion, notes, the dry run, the audit by
// player and the player search, each with its roles, bad input and replays.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { Inspection } from '@/lib/contract/inspector';
import { openSse } from '@/lib/testing/sse-client';
import { asStaff, signedInStaff, type TestStaff } from '@/lib/testing/staff';
import { createTestApp, issueToken, startTestServer, uniqueId, userClient, type TestApp, type TestServer } from '@/lib/testing/test-server';

let server: TestServer;
let support: TestStaff;
let editor: TestStaff;

beforeAll(async () => {
  server = await startTestServer();
  support = await signedInStaff(server, 'support');
  editor = await signedInStaff(server, 'editor');
});
afterAll(async () => server?.close());

const catalog = () => ({
  campaigns: [],
  missions: [
    {
      id: 'ranked-wins',
      title: 'Win 2 ranked matches',
      criteria: { eventName: 'match_won', count: 2, window: 'lifetime' as const, filter: { mode: 'ranked' } },
      reward: { kind: 'currency' as const, currency: 'gold', amount: 25 },
    },
  ],
});

const usersPath = (app: TestApp, userId: string) => `/api/admin/apps/${app.appId}/users/${encodeURIComponent(userId)}`;
const post = (cookie: string, route: string, body: unknown, key?: string) => asStaff(server, cookie, 'POST', route, body, key ? { 'Idempotency-Key': key } : {});

async function dbOf() {
  return (await import('@/db/client')).getDb();
}

/** The app has seen the user (as its first event would record them): staff writes on a never-seen user are refused. */
async function seen(app: TestApp, userId: string) {
  const db = await dbOf();
  await db.execute(sql`insert into app_users (app_id, user_id, first_seen_at, last_seen_at, events) values (${app.appId}, ${userId}, 1, 1, 1)`);
}

describe('POST /api/admin/apps/:appId/users/:userId/grants', () => {
  it('credits with a ledger row naming the staff member and reason, shows in /v1/balance and on the player’s stream', async () => {
    const app = await createTestApp(server, catalog());
    const userId = uniqueId('player');
    await seen(app, userId);
    const token = await issueToken(server, app, userId);
    const stream = await openSse(`${server.url}/v1/sse/updates`, { Authorization: `Bearer ${token}` });
    try {
      await stream.waitFor((s) => s.raw.startsWith(': connected'), 'the connected comment');
      const res = await post(support.cookie, `${usersPath(app, userId)}/grants`, { currency: 'gold', amount: 50, reason: 'Ticket 1: lost win' });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.balance).toMatchObject({ userId, currency: 'gold', amount: 50 });
      expect(body.entry).toMatchObject({ kind: 'currency', currency: 'gold', amount: 50, balanceAfter: 50, actor: `staff:${support.email}`, reason: 'Ticket 1: lost win' });
      await stream.waitForMessages(1);
      expect(stream.updates[0]).toMatchObject({ type: 'balance.changed', data: { userId, currency: 'gold', amount: 50 } });
    } finally {
      await stream.close();
    }
    const balance = await (await userClient(server, token).get('/v1/balance?currency=gold')).json();
    expect(balance.balance.amount).toBe(50);
    const view = (await (await asStaff(server, support.cookie, 'GET', usersPath(app, userId))).json()) as Inspection;
    expect(view.ledger[0]).toMatchObject({ amount: 50, actor: `staff:${support.email}`, reason: 'Ticket 1: lost win' });
  });

  it('a correction below zero answers 409 insufficient_balance and changes nothing', async () => {
    const app = await createTestApp(server, catalog());
    const userId = uniqueId('player');
    await seen(app, userId);
    expect((await post(support.cookie, `${usersPath(app, userId)}/grants`, { currency: 'gold', amount: 10, reason: 'start' })).status).toBe(200);
    const res = await post(support.cookie, `${usersPath(app, userId)}/grants`, { currency: 'gold', amount: -11, reason: 'too much' });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: 'insufficient_balance' });
    const never = await post(support.cookie, `${usersPath(app, userId)}/grants`, { currency: 'gems', amount: -1, reason: 'no gems at all' });
    expect(never.status).toBe(409);
    const view = (await (await asStaff(server, support.cookie, 'GET', usersPath(app, userId))).json()) as Inspection;
    expect(view.balances).toEqual([expect.objectContaining({ currency: 'gold', amount: 10 })]);
    expect(view.ledger).toHaveLength(1);
  });

  it('50 concurrent corrections that together would go below zero: the balance never goes negative and equals the sum of the ledger', async () => {
    const app = await createTestApp(server, catalog());
    const userId = uniqueId('player');
    await seen(app, userId);
    expect((await post(support.cookie, `${usersPath(app, userId)}/grants`, { currency: 'gold', amount: 100, reason: 'start' })).status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => post(support.cookie, `${usersPath(app, userId)}/grants`, { currency: 'gold', amount: -7, reason: `correction ${i}` })),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(14);
    expect(statuses.filter((s) => s === 409)).toHaveLength(36);
    const db = await dbOf();
    const [sums] = (
      (await db.execute(sql`select (select amount from balances where app_id = ${app.appId} and user_id = ${userId} and currency = 'gold')::int as balance,
        (select sum(amount) from ledger where app_id = ${app.appId} and user_id = ${userId} and currency = 'gold')::int as ledger,
        (select min(balance_after) from ledger where app_id = ${app.appId} and user_id = ${userId})::int as lowest`)) as unknown as { rows: Array<Record<string, number>> }
    ).rows;
    expect(sums).toEqual({ balance: 2, ledger: 2, lowest: 2 });
  });

  it('replays under the same Idempotency-Key (once applied), refuses the key with another body (422)', async () => {
    const app = await createTestApp(server, catalog());
    const userId = uniqueId('player');
    await seen(app, userId);
    const route = `${usersPath(app, userId)}/grants`;
    const first = await post(support.cookie, route, { currency: 'gold', amount: 5, reason: 'ticket 7' }, 'k-1');
    const again = await post(support.cookie, route, { currency: 'gold', amount: 5, reason: 'ticket 7' }, 'k-1');
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers.get('x-idempotent-replay')).toMatch(/hit/);
    expect(await again.json()).toEqual(await first.json());
    const misuse = await post(support.cookie, route, { currency: 'gold', amount: 6, reason: 'ticket 7' }, 'k-1');
    expect(misuse.status).toBe(422);
    const view = (await (await asStaff(server, support.cookie, 'GET', usersPath(app, userId))).json()) as Inspection;
    expect(view.balances[0].amount).toBe(5);
    expect(view.ledger).toHaveLength(1);
  });

  it('refuses editors (403), bad input with a clear message (400), an unknown app (404); audits with the reason, filterable by player', async () => {
    const app = await createTestApp(server, catalog());
    const userId = uniqueId('player');
    await seen(app, userId);
    const route = `${usersPath(app, userId)}/grants`;
    expect((await post(editor.cookie, route, { currency: 'gold', amount: 5, reason: 'editor tries' })).status).toBe(403);
    const zero = await post(support.cookie, route, { currency: 'gold', amount: 0, reason: 'nothing' });
    expect(zero.status).toBe(400);
    expect(await zero.json()).toEqual({ error: 'validation_error', message: 'amount: must not be 0' });
    const noReason = await post(support.cookie, route, { currency: 'gold', amount: 5 });
    expect(noReason.status).toBe(400);
    expect((await noReason.json()).message).toMatch(/^reason:/);
    expect((await post(support.cookie, `/api/admin/apps/nope-${userId}/users/u/grants`, { currency: 'gold', amount: 5, reason: 'no app' })).status).toBe(404);
    expect((await post(support.cookie, route, { currency: 'gold', amount: 5, reason: 'goodwill' })).status).toBe(200);
    const audit = await (await asStaff(server, support.cookie, 'GET', `/api/admin/audit?appId=${app.appId}&userId=${encodeURIComponent(userId)}`)).json();
    expect(audit.entries).toHaveLength(1);
    expect(audit.entries[0]).toMatchObject({ actor: `staff:${support.email}`, action: 'user.grant', target: `user:${userId}`, after: { currency: 'gold', amount: 5, change: 5, reason: 'goodwill' } });
  });
});

describe('POST …/missions/:missionId/complete and …/reset', () => {
  it('completes a mission the player can then claim (mission.completed on the stream), and resets it to no progress', async () => {
    const app = await createTestApp(server, catalog());
    const userId = uniqueId('player');
    await seen(app, userId);
    const token = await issueToken(server, app, userId);
    const stream = await openSse(`${server.url}/v1/sse/updates`, { Authorization: `Bearer ${token}` });
    try {
      await stream.waitFor((s) => s.raw.startsWith(': connected'), 'the connected comment');
      const done = await post(support.cookie, `${usersPath(app, userId)}/missions/ranked-wins/complete`, { reason: 'ranked win lost in the outage' });
      expect(done.status).toBe(200);
      expect((await done.json()).progress).toMatchObject({ status: 'completed', currentCount: 2, targetCount: 2 });
      await stream.waitForMessages(1);
      expect(stream.updates[0]).toMatchObject({ type: 'mission.completed', data: { missionId: 'ranked-wins', status: 'completed' } });
    } finally {
      await stream.close();
    }
    const again = await post(support.cookie, `${usersPath(app, userId)}/missions/ranked-wins/complete`, { reason: 'twice' });
    expect(again.status).toBe(409);
    const claim = await userClient(server, token).post('/v1/missions/ranked-wins/claim');
    expect(claim.status).toBe(200);
    expect((await claim.json()).balance.amount).toBe(25);

    const reset = await post(support.cookie, `${usersPath(app, userId)}/missions/ranked-wins/reset`, { reason: 'let them play it again' }, 'r-1');
    expect(reset.status).toBe(200);
    expect((await reset.json()).progress).toMatchObject({ status: 'active', currentCount: 0 });
    const replay = await post(support.cookie, `${usersPath(app, userId)}/missions/ranked-wins/reset`, { reason: 'let them play it again' }, 'r-1');
    expect(replay.headers.get('x-idempotent-replay')).toMatch(/hit/);
    // The claimed reward stays; the mission can be earned and claimed again (a new cycle, a new grant key).
    const mission = await (await userClient(server, token).get('/v1/missions/ranked-wins')).json();
    expect(mission.progress).toMatchObject({ status: 'active', currentCount: 0 });
    expect((await post(support.cookie, `${usersPath(app, userId)}/missions/ranked-wins/complete`, { reason: 'again' })).status).toBe(200);
    const second = await userClient(server, token).post('/v1/missions/ranked-wins/claim');
    expect(second.status).toBe(200);
    expect((await second.json()).balance.amount).toBe(50);
  });

  it('refuses an unknown mission (404), a missing reason (400) and editors (403)', async () => {
    const app = await createTestApp(server, catalog());
    expect((await post(support.cookie, `${usersPath(app, 'u1')}/missions/nope/reset`, { reason: 'no such mission' })).status).toBe(404);
    const bad = await post(support.cookie, `${usersPath(app, 'u1')}/missions/ranked-wins/reset`, {});
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/^reason:/);
    expect((await post(editor.cookie, `${usersPath(app, 'u1')}/missions/ranked-wins/complete`, { reason: 'editor tries' })).status).toBe(403);
  });
});

describe('notes', () => {
  it('adds notes with author and time, lists them newest first; editors may not', async () => {
    const app = await createTestApp(server, catalog());
    const userId = uniqueId('player');
    const route = `${usersPath(app, userId)}/notes`;
    expect((await post(support.cookie, route, { text: 'first' })).status).toBe(200);
    const second = await post(support.cookie, route, { text: 'second' }, 'n-1');
    const replay = await post(support.cookie, route, { text: 'second' }, 'n-1');
    expect(await replay.json()).toEqual(await second.json());
    const list = await (await asStaff(server, support.cookie, 'GET', route)).json();
    expect(list.notes.map((n: { text: string }) => n.text)).toEqual(['second', 'first']);
    expect(list.notes[0]).toMatchObject({ author: `staff:${support.email}`, createdAt: expect.any(Number) });
    expect((await post(support.cookie, route, { text: '' })).status).toBe(400);
    expect((await post(editor.cookie, route, { text: 'editor' })).status).toBe(403);
    expect((await asStaff(server, editor.cookie, 'GET', route)).status).toBe(403);
  });
});

describe('POST …/users/:userId/events?dryRun=1', () => {
  it('answers the verdicts and stores, sends and audits nothing', async () => {
    const app = await createTestApp(server, catalog());
    const userId = uniqueId('player');
    const res = await post(support.cookie, `${usersPath(app, userId)}/events?dryRun=1`, { name: 'match_won', payload: { mode: 'casual' } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ dryRun: true, missionsUpdated: [] });
    expect(body.verdicts).toEqual([{ missionId: 'ranked-wins', counted: false, code: 'filter_mismatch', key: 'mode', condition: 'ranked', missing: false, seen: 'casual' }]);
    const counted = await (await post(support.cookie, `${usersPath(app, userId)}/events?dryRun=1`, { name: 'match_won', payload: { mode: 'ranked' } })).json();
    expect(counted.missionsUpdated).toEqual(['ranked-wins']);
    const view = (await (await asStaff(server, support.cookie, 'GET', usersPath(app, userId))).json()) as Inspection;
    expect(view.events).toEqual([]);
    expect(view.missions[0].progress).toBeNull();
    const db = await dbOf();
    const { auditLog } = await import('@/db/schema');
    expect(await db.select().from(auditLog).where(and(eq(auditLog.appId, app.appId), eq(auditLog.target, `user:${userId}`)))).toEqual([]);
    expect((await post(support.cookie, `${usersPath(app, userId)}/events?dryRun=maybe`, { name: 'match_won' })).status).toBe(400);
  });
});

describe('GET /api/admin/apps/:appId/users (find a player)', () => {
  it('finds users by a part of their id, most recently seen first, a page at a time', async () => {
    const app = await createTestApp(server, catalog());
    const prefix = uniqueId('p');
    const ids = [`${prefix}-alice`, `${prefix}-albert`, `${prefix}-bob`];
    for (const userId of ids) {
      const token = await issueToken(server, app, userId);
      expect((await userClient(server, token).post('/v1/events', { userId, name: 'match_won', payload: {}, timestamp: Date.now() })).status).toBe(200);
    }
    const token = await issueToken(server, app, ids[0]);
    await userClient(server, token).post('/v1/events', { userId: ids[0], name: 'match_won', payload: {}, timestamp: Date.now() });

    const all = await (await asStaff(server, support.cookie, 'GET', `/api/admin/apps/${app.appId}/users`)).json();
    expect(all.users.map((u: { userId: string }) => u.userId)).toEqual([ids[0], ids[2], ids[1]]);
    expect(all.users[0]).toMatchObject({ events: 2, firstSeenAt: expect.any(Number), lastSeenAt: expect.any(Number) });

    const al = await (await asStaff(server, support.cookie, 'GET', `/api/admin/apps/${app.appId}/users?query=${prefix}-al&limit=1`)).json();
    expect(al.users.map((u: { userId: string }) => u.userId)).toEqual([ids[0]]);
    const next = await (await asStaff(server, support.cookie, 'GET', `/api/admin/apps/${app.appId}/users?query=${prefix}-al&limit=1&cursor=${al.nextCursor}`)).json();
    expect(next.users.map((u: { userId: string }) => u.userId)).toEqual([ids[1]]);
    expect(next.nextCursor).toBeNull();

    // LIKE's wildcards are text, not patterns.
    const none = await (await asStaff(server, support.cookie, 'GET', `/api/admin/apps/${app.appId}/users?query=${encodeURIComponent('%')}`)).json();
    expect(none.users).toEqual([]);
    const bad = await asStaff(server, support.cookie, 'GET', `/api/admin/apps/${app.appId}/users?cursor=nonsense`);
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/^query\.cursor/);
    expect((await asStaff(server, editor.cookie, 'GET', `/api/admin/apps/${app.appId}/users`)).status).toBe(403);
  });
  it('finds a player from any part of the id, in any case: 7f3a, 7F3A21C9 and P-7F3A all find p-7f3a21c9', async () => {
    const app = await createTestApp(server, catalog());
    for (const userId of ['p-7f3a21c9', 'p-0b1d2e3f', 'q-47f3b000']) {
      const token = await issueToken(server, app, userId);
      expect((await userClient(server, token).post('/v1/events', { userId, name: 'match_won', payload: {}, timestamp: Date.now() })).status).toBe(200);
    }
    const found = async (query: string) => {
      const res = await asStaff(server, support.cookie, 'GET', `/api/admin/apps/${app.appId}/users?query=${encodeURIComponent(query)}`);
      expect(res.status).toBe(200);
      return ((await res.json()) as { users: Array<{ userId: string }> }).users.map((u) => u.userId);
    };
    for (const query of ['7f3a', '7F3A21C9', 'P-7F3A', '3a21', 'a21C9']) expect(await found(query), query).toEqual(['p-7f3a21c9']);
    // Under three characters (no trigram): the same answer, most recently seen first.
    expect(await found('F3')).toEqual(['q-47f3b000', 'p-7f3a21c9']);
    expect(await found('7f3a_')).toEqual([]);
  });
});
