// GET /api/admin/apps/:appId/analytics over real HTTP: events and claims sent
// through /v1 (with idempotent replays, a recurring mission completed and
// claimed twice, a refused event), then the endpoint's totals checked against
// what the database stores: events, progress (cycles) and the ledger. Plus
// the query's validation, its bounds, and rollup retention.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, sql } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { analyticsRollups, events, ledger, progress } from '@/db/schema';
import { deleteRollupsOlderThan, writeRollups } from '@/lib/analytics/rollups';
import type { Analytics } from '@/lib/contract/analytics';
import { DAY, mission, newUser, type TestUser } from '@/lib/testing/fixtures';
import { moveRecordsBack } from '@/lib/testing/records';
import { createTestApp, startTestServer, uniqueId, type TestApp, type TestServer } from '@/lib/testing/test-server';

let server: TestServer;
let app: TestApp;
beforeAll(async () => {
  server = await startTestServer();
  app = await createTestApp(server, {
    missions: [
      mission('play-2', { criteria: { eventName: 'play', count: 2 }, reward: { kind: 'currency', currency: 'gems', amount: 10 } }),
      mission('win-1', { criteria: { eventName: 'win', count: 1, filter: { mode: 'ranked' } }, reward: { kind: 'currency', currency: 'coins', amount: 5 } }),
      mission('daily-login', { criteria: { eventName: 'login', count: 1, window: 'daily' }, reward: { kind: 'currency', currency: 'gems', amount: 3 } }),
      mission('badge-1', { criteria: { eventName: 'win', count: 1 }, reward: { kind: 'badge', badgeId: 'champion' } }),
    ],
  });
});
afterAll(async () => server?.close());

const getAnalytics = (appId: string, query: string, auth: string | null = server.adminKey) =>
  fetch(`${server.url}/api/admin/apps/${encodeURIComponent(appId)}/analytics${query}`, { headers: auth ? { Authorization: `Bearer ${auth}` } : {} });

async function analytics(appId: string, query: string): Promise<Analytics> {
  const res = await getAnalytics(appId, query);
  expect(res.status).toBe(200);
  return (await res.json()) as Analytics;
}

const eventWithKey = (u: TestUser, name: string, key: string, payload: Record<string, unknown> = {}, timestamp = Date.now()) =>
  u.client.post('/v1/events', { userId: u.userId, name, payload, timestamp }, { 'Idempotency-Key': key });

describe('GET /api/admin/apps/:appId/analytics', () => {
  it('counts what /v1 recorded, as the stored events, progress and ledger show; replays are not counted twice', async () => {
    const start = Date.now();
    const [a, b, c] = await Promise.all([newUser(server, app), newUser(server, app), newUser(server, app)]);

    // a: completes play-2 (3 plays), win-1 and badge-1; a replayed keyed event.
    for (const name of ['play', 'play', 'play']) expect((await a.event(name)).status).toBe(200);
    const winAt = Date.now();
    const keyed = await eventWithKey(a, 'win', 'win-key-1', { mode: 'ranked' }, winAt);
    expect(keyed.status).toBe(200);
    const replayed = await eventWithKey(a, 'win', 'win-key-1', { mode: 'ranked' }, winAt);
    expect(replayed.status).toBe(200);
    expect(replayed.headers.get('x-idempotent-replay')).not.toBeNull();
    // b: one play (not completed), a casual win (badge-1 only, the filter of win-1 fails), an event no mission reads.
    expect((await b.event('play')).status).toBe(200);
    expect((await b.event('win', { mode: 'casual' })).status).toBe(200);
    expect((await b.event('shop_open')).status).toBe(200);
    // c: the recurring mission, completed and claimed yesterday and again today (two cycles).
    expect((await c.event('login')).status).toBe(200);
    expect((await c.claim('daily-login', 'login-claim-1')).status).toBe(200);
    await moveRecordsBack(app.appId, c.userId, DAY); // that was yesterday
    expect((await c.event('login')).status).toBe(200);
    expect((await c.claim('daily-login')).status).toBe(200);
    // a refused event stores nothing and counts nothing.
    expect((await a.client.post('/v1/events', { userId: a.userId, name: '', payload: {}, timestamp: Date.now() })).status).toBe(400);

    // Claims, one replayed under its key and one refused (already claimed).
    expect((await a.claim('play-2', 'claim-key-1')).status).toBe(200);
    const claimReplay = await a.claim('play-2', 'claim-key-1');
    expect(claimReplay.status).toBe(200);
    expect(claimReplay.headers.get('x-idempotent-replay')).not.toBeNull();
    expect((await a.claim('play-2')).status).toBe(409);
    expect((await a.claim('win-1')).status).toBe(200);
    expect((await a.claim('badge-1')).status).toBe(200);
    // c replays its first claim after the second cycle's claim: still one ledger row per cycle.
    expect((await c.claim('daily-login', 'login-claim-1')).status).toBe(200);

    const body = await analytics(app.appId, `?from=${start - 60_000}&to=${Date.now() + 60_000}`);

    // What the database holds, computed independently of the rollups.
    const db = await getDb();
    const storedEvents = await db
      .select({ name: events.name, n: count() })
      .from(events)
      .where(and(eq(events.appId, app.appId), sql`${events.receivedAt} >= ${body.from} and ${events.receivedAt} < ${body.to}`))
      .groupBy(events.name);
    const progressRows = await db.select().from(progress).where(eq(progress.appId, app.appId));
    const ledgerRows = await db.select().from(ledger).where(eq(ledger.appId, app.appId));
    const completionsFromProgress = new Map<string, number>();
    // Each cycle before the current one was completed (and claimed); the current one counts if it is done.
    for (const r of progressRows) {
      completionsFromProgress.set(r.missionId, (completionsFromProgress.get(r.missionId) ?? 0) + (r.cycle - 1) + (r.status === 'active' ? 0 : 1));
    }
    const claimsFromLedger = new Map<string, number>();
    const currencyFromLedger = new Map<string, { amount: number; grants: number }>();
    for (const r of ledgerRows) {
      claimsFromLedger.set(r.missionId!, (claimsFromLedger.get(r.missionId!) ?? 0) + 1);
      if (r.kind === 'currency') {
        const seen = currencyFromLedger.get(r.currency!) ?? { amount: 0, grants: 0 };
        currencyFromLedger.set(r.currency!, { amount: seen.amount + r.amount!, grants: seen.grants + 1 });
      }
    }

    const totalStored = storedEvents.reduce((acc, r) => acc + Number(r.n), 0);
    expect(body.totals.events).toBe(totalStored);
    expect(Object.fromEntries(body.eventNames.map((e) => [e.name, e.count]))).toEqual(Object.fromEntries(storedEvents.map((r) => [r.name, Number(r.n)])));
    expect(Object.fromEntries(body.missions.map((m) => [m.missionId, m.completions]))).toEqual(Object.fromEntries(completionsFromProgress));
    expect(Object.fromEntries(body.missions.filter((m) => m.claims > 0).map((m) => [m.missionId, m.claims]))).toEqual(Object.fromEntries(claimsFromLedger));
    expect(Object.fromEntries(body.currencies.map((x) => [x.currency, { amount: x.amount, grants: x.grants }]))).toEqual(Object.fromEntries(currencyFromLedger));

    // And the numbers themselves, from what the test sent (replays and the refused event excluded).
    expect(body.totals).toEqual({ events: 9, completions: 6, claims: 5, claimsRefused: 0 });
    expect(Object.fromEntries(body.eventNames.map((e) => [e.name, e.count]))).toEqual({ play: 4, win: 2, login: 2, shop_open: 1 });
    expect(body.missions).toEqual([
      { missionId: 'daily-login', completions: 2, claims: 2 },
      { missionId: 'badge-1', completions: 2, claims: 1 },
      { missionId: 'play-2', completions: 1, claims: 1 },
      { missionId: 'win-1', completions: 1, claims: 1 },
    ]);
    expect(body.currencies).toEqual([
      { currency: 'gems', amount: 16, grants: 3 },
      { currency: 'coins', amount: 5, grants: 1 },
    ]);

    // The series: one zero-filled bucket per minute of the range, summing to the totals.
    expect(body.bucket).toBe('minute');
    expect(body.series).toHaveLength((body.to - body.from) / 60_000);
    expect(body.series.every((s, i) => s.start === body.from + i * 60_000)).toBe(true);
    const sums = body.series.reduce(
      (acc, s) => ({ events: acc.events + s.events, completions: acc.completions + s.completions, claims: acc.claims + s.claims, claimsRefused: acc.claimsRefused + s.claimsRefused }),
      { events: 0, completions: 0, claims: 0, claimsRefused: 0 },
    );
    expect(sums).toEqual(body.totals);

    // The same range by the hour and by the day: the same totals, fewer buckets.
    for (const bucket of ['hour', 'day'] as const) {
      const coarse = await analytics(app.appId, `?from=${start - 60_000}&to=${Date.now() + 60_000}&bucket=${bucket}`);
      expect(coarse.totals).toEqual(body.totals);
      expect(coarse.series.length).toBeLessThanOrEqual(2);
    }
    // A range before anything happened: zeros.
    const minute = start - (start % 60_000);
    const before = await analytics(app.appId, `?from=${minute - 3 * 3_600_000}&to=${minute - 2 * 3_600_000}`);
    expect(before.totals).toEqual({ events: 0, completions: 0, claims: 0, claimsRefused: 0 });
    expect(before.series).toHaveLength(60);
    expect([before.eventNames, before.missions, before.currencies]).toEqual([[], [], []]);
    // Another app sees none of it.
    const other = await createTestApp(server);
    expect((await analytics(other.appId, '')).totals).toEqual({ events: 0, completions: 0, claims: 0, claimsRefused: 0 });
  });

  it('defaults to the last hour by the minute, rounded to whole minutes', async () => {
    const body = await analytics(app.appId, '');
    expect(body.bucket).toBe('minute');
    expect(body.from % 60_000).toBe(0);
    expect(body.to % 60_000).toBe(0);
    expect([60, 61]).toContain(body.series.length);
  });

  it.each([
    ['a bucket it does not know', '?bucket=week', /^bucket: /],
    ['from after to', '?from=2000&to=1000', /^from: must be before to/],
    ['a range over 31 days', `?from=0&to=${32 * DAY}&bucket=day`, /at most 31 days/],
    ['more than 1,500 buckets', `?from=0&to=${7 * DAY}&bucket=minute`, /choose a larger bucket/],
    ['a time that is not a number', '?from=yesterday', /^from: expected Unix milliseconds/],
    ['a parameter it does not know', '?since=5', /since/],
  ])('answers 400 validation_error for %s', async (_what, query, message) => {
    const res = await getAnalytics(app.appId, query);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; message: string };
    expect(body.error).toBe('validation_error');
    expect(body.message).toMatch(message);
  });

  it('answers 404 app_not_found for an unknown app and 401 without credentials', async () => {
    const missing = await getAnalytics('no-such-app', '');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: string }).error).toBe('app_not_found');
    const anonymous = await getAnalytics(app.appId, '', null);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: string }).error).toBe('unauthorized');
  });
});

describe('rollup retention', () => {
  it('deleteRollupsOlderThan removes the minutes before the cutoff, in batches, and keeps the rest', async () => {
    const appId = uniqueId('retention');
    const now = Date.now();
    const db = await getDb();
    await db.transaction(async (tx) => {
      for (const [age, user] of [[40, 'u1'], [35, 'u2'], [31, 'u3'], [1, 'u4']] as const) {
        await writeRollups(tx, { appId, userId: user, at: now - age * DAY, deltas: [{ kind: 'event', key: 'play', count: 1, amount: 0 }] });
      }
    });
    const left = async () => Number((await db.select({ n: count() }).from(analyticsRollups).where(eq(analyticsRollups.appId, appId)))[0].n);
    expect(await left()).toBe(4);
    // Other apps' old rows may go too (retention is for every app): count only ours.
    let deleted = 0;
    do deleted = await deleteRollupsOlderThan(db, 30, now, 1);
    while (deleted === 1 && (await left()) > 1);
    expect(await left()).toBe(1);
    await expect(deleteRollupsOlderThan(db, 0)).rejects.toThrow(/days must be positive/);
  });
});
