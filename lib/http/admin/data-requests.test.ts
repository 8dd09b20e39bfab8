// Data requests over real HTTP (embedded, or PostgreSQL/Redis): the export
// holds everything stored about the user; the erasure removes it in one go,
// revokes the user's tokens and drops their stream log, keeps the dashboard's
// counters and an audit entry of the erasure without the data, and a later
// event for the same id starts a new, empty user. Admins only.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { asStaff, signedInStaff, type TestStaff } from '@/lib/testing/staff';
import { createTestApp, issueToken, startTestServer, uniqueId, userClient, type TestApp, type TestServer } from '@/lib/testing/test-server';

let server: TestServer;
let support: TestStaff;
let admin: TestStaff;

beforeAll(async () => {
  server = await startTestServer();
  support = await signedInStaff(server, 'support');
  admin = await signedInStaff(server, 'admin');
});
afterAll(async () => server?.close());

const catalog = {
  campaigns: [],
  missions: [
    {
      id: 'two-wins',
      title: 'Win twice',
      criteria: { eventName: 'match_won', count: 2, window: 'lifetime' as const },
      reward: { kind: 'currency' as const, currency: 'gold', amount: 25 },
    },
  ],
};

const userPath = (app: TestApp, userId: string) => `/api/admin/apps/${app.appId}/users/${encodeURIComponent(userId)}`;

/** A player with events, a claimed reward, a staff grant, a note and stream messages. */
async function busyPlayer(app: TestApp) {
  const userId = uniqueId('player');
  const token = await issueToken(server, app, userId);
  const client = userClient(server, token);
  for (let i = 0; i < 2; i++) {
    const keyed: Record<string, string> = i === 0 ? { 'Idempotency-Key': `win-${i}` } : {};
    expect((await client.post('/v1/events', { userId, name: 'match_won', payload: { map: 'dust' }, timestamp: Date.now() }, keyed)).status).toBe(200);
  }
  expect((await client.post('/v1/missions/two-wins/claim')).status).toBe(200);
  expect((await asStaff(server, support.cookie, 'POST', `${userPath(app, userId)}/grants`, { currency: 'gold', amount: 5, reason: 'ticket 12: goodwill' })).status).toBe(200);
  expect((await asStaff(server, support.cookie, 'POST', `${userPath(app, userId)}/notes`, { text: 'asked for their data' })).status).toBe(200);
  return { userId, token };
}

async function rollupTotals(appId: string) {
  const { getDb } = await import('@/db/client');
  const result = await (await getDb()).execute(sql`select kind, sum(count)::int as count, sum(amount)::int as amount from analytics_rollups where app_id = ${appId} group by kind order by kind`);
  return (result as unknown as { rows: unknown[] }).rows;
}

describe('GET /api/admin/apps/:appId/users/:userId/export', () => {
  it('answers one document with events, progress, balances, ledger, notes and the audit entries naming the user; admins only', async () => {
    const app = await createTestApp(server, catalog);
    const { userId } = await busyPlayer(app);
    const res = await asStaff(server, admin.cookie, 'GET', `${userPath(app, userId)}/export`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('attachment');
    const doc = await res.json();
    expect(doc).toMatchObject({ appId: app.appId, userId, user: { userId, events: 2 } });
    expect(doc.events.map((e: { name: string; payload: unknown }) => [e.name, e.payload])).toEqual([
      ['match_won', { map: 'dust' }],
      ['match_won', { map: 'dust' }],
    ]);
    expect(doc.progress).toEqual([expect.objectContaining({ missionId: 'two-wins', status: 'claimed' })]);
    expect(doc.balances).toEqual([expect.objectContaining({ currency: 'gold', amount: 30 })]);
    expect(doc.ledger.map((l: { amount: number; reason: string | null }) => [l.amount, l.reason])).toEqual([
      [25, null],
      [5, 'ticket 12: goodwill'],
    ]);
    expect(doc.notes).toEqual([expect.objectContaining({ text: 'asked for their data', author: `staff:${support.email}` })]);
    expect(doc.audit.map((a: { action: string }) => a.action)).toEqual(['user.grant', 'user.note']);
    expect((await asStaff(server, support.cookie, 'GET', `${userPath(app, userId)}/export`)).status).toBe(403);
    const never = await (await asStaff(server, admin.cookie, 'GET', `${userPath(app, 'never-seen')}/export`)).json();
    expect(never).toMatchObject({ user: null, events: [], ledger: [] });
  });
});

describe('DELETE /api/admin/apps/:appId/users/:userId', () => {
  it('erases the user in one go: tokens revoked, data and stream log gone, counters kept, the erasure audited without the data; a later event starts a new user', async () => {
    const app = await createTestApp(server, catalog);
    const { userId, token } = await busyPlayer(app);
    const other = await busyPlayer(app);
    const countersBefore = await rollupTotals(app.appId);
    const { getUpdateLog, userLogKey } = await import('@/lib/updates/log');
    expect((await getUpdateLog().readAfter(userLogKey(app.appId, userId), null)).length).toBeGreaterThan(0);

    expect((await asStaff(server, support.cookie, 'DELETE', userPath(app, userId), { reason: 'GDPR request 77' })).status).toBe(403);
    const noReason = await asStaff(server, admin.cookie, 'DELETE', userPath(app, userId), {});
    expect(noReason.status).toBe(400);
    expect((await noReason.json()).message).toMatch(/^reason:/);

    const res = await asStaff(server, admin.cookie, 'DELETE', userPath(app, userId), { reason: 'GDPR request 77' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ erased: true, userId, removed: { events: 2, progress: 1, balances: 1, ledger: 2, notes: 1, idempotencyKeys: 1 } });

    // The old token is refused; the stream log holds nothing of theirs.
    expect((await userClient(server, token).get('/v1/balance')).status).toBe(401);
    expect(await getUpdateLog().readAfter(userLogKey(app.appId, userId), null)).toEqual([]);
    // Nothing of theirs is left to export or find; the other player is untouched.
    const doc = await (await asStaff(server, admin.cookie, 'GET', `${userPath(app, userId)}/export`)).json();
    expect(doc).toMatchObject({ user: null, events: [], progress: [], balances: [], ledger: [], notes: [] });
    const found = await (await asStaff(server, support.cookie, 'GET', `/api/admin/apps/${app.appId}/users?query=${encodeURIComponent(userId)}`)).json();
    expect(found.users).toEqual([]);
    const otherDoc = await (await asStaff(server, admin.cookie, 'GET', `${userPath(app, other.userId)}/export`)).json();
    expect(otherDoc.events).toHaveLength(2);
    // The dashboard's counters stay.
    expect(await rollupTotals(app.appId)).toEqual(countersBefore);
    // The audit log keeps who did what and when, and the erasure with its reason, not the data.
    const audit = await (await asStaff(server, admin.cookie, 'GET', `/api/admin/audit?appId=${app.appId}&userId=${encodeURIComponent(userId)}`)).json();
    expect(audit.entries.map((e: { action: string }) => e.action)).toEqual(['user.erase', 'user.note', 'user.grant']);
    expect(audit.entries[0]).toMatchObject({ actor: `staff:${admin.email}`, after: { reason: 'GDPR request 77' } });
    expect(audit.entries.slice(1).map((e: { before: unknown; after: unknown }) => [e.before, e.after])).toEqual([
      [null, null],
      [null, null],
    ]);

    // A new token for the same id: a new, empty user, who progresses from zero.
    const fresh = userClient(server, await issueToken(server, app, userId));
    expect(await (await fresh.get('/v1/balance')).json()).toEqual({ balances: [] });
    expect((await fresh.post('/v1/events', { userId, name: 'match_won', payload: {}, timestamp: Date.now() })).status).toBe(200);
    const mission = await (await fresh.get('/v1/missions/two-wins')).json();
    expect(mission.progress).toMatchObject({ status: 'active', currentCount: 1 });
    const { getDb } = await import('@/db/client');
    const { appUsers } = await import('@/db/schema');
    const [row] = await (await getDb()).select().from(appUsers).where(and(eq(appUsers.appId, app.appId), eq(appUsers.userId, userId)));
    expect(row.events).toBe(1);
  });

  it('the inspection of an erased player says when, by whom and why (not "never seen"); a player never erased has no erasure', async () => {
    const app = await createTestApp(server, catalog);
    const { userId } = await busyPlayer(app);
    const before = await (await asStaff(server, support.cookie, 'GET', userPath(app, userId))).json();
    expect(before.erasure).toBeNull();
    expect(before.seen).toMatchObject({ events: 2, firstSeenAt: expect.any(Number), lastSeenAt: expect.any(Number) });
    const erasedFrom = Date.now();
    expect((await asStaff(server, admin.cookie, 'DELETE', userPath(app, userId), { reason: 'request #881' })).status).toBe(200);

    const view = await (await asStaff(server, support.cookie, 'GET', userPath(app, userId))).json();
    expect(view.seen).toBeNull();
    expect(view.events).toEqual([]);
    expect(view.erasure).toEqual({ erasedAt: expect.any(Number), actor: `staff:${admin.email}`, reason: 'request #881' });
    expect(view.erasure.erasedAt).toBeGreaterThanOrEqual(erasedFrom);
    // A later event starts a new user; the erasure of the id stays on record.
    const fresh = userClient(server, await issueToken(server, app, userId));
    expect((await fresh.post('/v1/events', { userId, name: 'match_won', payload: {}, timestamp: Date.now() })).status).toBe(200);
    const again = await (await asStaff(server, support.cookie, 'GET', userPath(app, userId))).json();
    expect(again.seen).toMatchObject({ events: 1 });
    expect(again.erasure).toMatchObject({ reason: 'request #881' });
  });

  it('leaves no cached answer of the user in the key-value store: a replayed claim key after the erasure is a new claim, and no key naming the user holds data', async () => {
    const app = await createTestApp(server, catalog);
    const userId = uniqueId('player');
    const client = userClient(server, await issueToken(server, app, userId));
    for (let i = 0; i < 2; i++) {
      expect((await client.post('/v1/events', { userId, name: 'match_won', payload: { map: 'secret-map' }, timestamp: Date.now() - i }, { 'Idempotency-Key': `win-${i}` })).status).toBe(200);
    }
    const claim = await client.post('/v1/missions/two-wins/claim', undefined, { 'Idempotency-Key': 'claim-1' });
    expect(await claim.json()).toMatchObject({ balance: { currency: 'gold', amount: 25 } });
    // That first claim refreshes (and caches) the recommendations in the background: let it finish (cached, then pushed).
    const { getKv } = await import('@/lib/kv');
    const { recommendationCacheKey } = await import('@/lib/recommendations/recommend');
    const { getUpdateLog, userLogKey } = await import('@/lib/updates/log');
    await vi.waitFor(async () => expect(await getKv().get(recommendationCacheKey(app.appId, userId))).not.toBeNull(), { timeout: 30_000, interval: 20 });
    const pushed = async () => (await getUpdateLog().readAfter(userLogKey(app.appId, userId), null)).some((e) => e.update.includes('"recommendation"'));
    await vi.waitFor(async () => expect(await pushed()).toBe(true), { timeout: 30_000, interval: 20 });
    const grant = await asStaff(server, support.cookie, 'POST', `${userPath(app, userId)}/grants`, { currency: 'gold', amount: 5, reason: 'ticket 13: goodwill' }, { 'Idempotency-Key': 'grant-1' });
    expect(grant.status).toBe(200);
    // Replays are answered from the cache before the erasure.
    expect((await client.post('/v1/missions/two-wins/claim', undefined, { 'Idempotency-Key': 'claim-1' })).headers.get('x-idempotent-replay')).toBe('hit');

    expect((await asStaff(server, admin.cookie, 'DELETE', userPath(app, userId), { reason: 'GDPR request 78' })).status).toBe(200);

    // The same id with a new token: the old claim key is not replayed (there is nothing to claim).
    const again = userClient(server, await issueToken(server, app, userId));
    const replay = await again.post('/v1/missions/two-wins/claim', undefined, { 'Idempotency-Key': 'claim-1' });
    expect([replay.status, replay.headers.get('x-idempotent-replay'), (await replay.json()).error]).toEqual([409, null, 'claim_not_ready']);

    const { idempotencyCacheKey } = await import('@/lib/idempotency/run-idempotent');
    const kv = getKv();
    for (const key of ['event:win-0', 'event:win-1', 'claim:claim-1', 'desk:grant:grant-1']) expect(await kv.get(idempotencyCacheKey(app.appId, userId, key)), key).toBeNull();
    expect(await kv.get(recommendationCacheKey(app.appId, userId))).toBeNull();
    if (kv.kind === 'redis') {
      const { Redis } = await import('ioredis');
      const redis = new Redis(process.env.REDIS_URL!);
      // Every key naming the user, whatever its kind: only the revocation and the stream's state (an emptied log, counters) stay, and no value holds their data.
      const named = `:${encodeURIComponent(app.appId)}:${encodeURIComponent(userId)}`;
      const keys: string[] = [];
      let cursor = '0';
      do {
        const [next, batch] = await redis.scan(cursor, 'MATCH', `*${named}*`, 'COUNT', 1000);
        keys.push(...batch);
        cursor = next;
      } while (cursor !== '0');
      const kinds = [...new Set(keys.map((k) => k.split(':')[0]))].sort();
      expect(kinds.every((kind) => ['revoked-before', 'streams', 'updlog', 'updseq'].includes(kind)), kinds.join(', ')).toBe(true);
      for (const key of keys) {
        const type = await redis.type(key);
        const value = type === 'string' ? await redis.get(key) : type === 'hash' ? await redis.hgetall(key) : type === 'zset' ? await redis.zrange(key, 0, -1) : type === 'stream' ? await redis.xrange(key, '-', '+') : type;
        expect(JSON.stringify(value), key).not.toMatch(/secret-map|gold|two-wins|ticket 13/);
      }
      redis.disconnect();
    }
  });
});
