// Claims refused by a campaign's budget, counted over real HTTP (embedded
// default, or PostgreSQL + Redis when DATABASE_URL/REDIS_URL are set): each
// refusal once (a retry under the same Idempotency-Key is the same claim),
// per campaign and currency with its first and last time (campaign reads),
// per minute (analytics), on /api/metrics, and on the player's mission in the
// inspector until it is claimed; concurrent claims racing a nearly spent
// budget: refused = claims − granted, exactly; the user's refusal rows are in
// their data export and go with a data erasure.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { claimRefusals } from '@/db/schema';
import type { Analytics } from '@/lib/contract/analytics';
import type { CampaignRecord } from '@/lib/contract/catalog-admin';
import type { Inspection } from '@/lib/contract/inspector';
import { campaign, mission, newUser, type TestUser } from '@/lib/testing/fixtures';
import { createTestApp, putCatalog, startTestServer, type TestApp, type TestServer } from '@/lib/testing/test-server';
import type { CatalogInput } from '@/lib/testing/types';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const admin = (method: string, route: string, body?: unknown) =>
  fetch(server.url + route, {
    method,
    headers: { Authorization: `Bearer ${server.adminKey}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function adminJson<T>(route: string): Promise<T> {
  const res = await admin('GET', route);
  expect(res.status, route).toBe(200);
  return (await res.json()) as T;
}

const refusalsOf = async (app: TestApp, id: string) => (await adminJson<{ campaign: CampaignRecord }>(`/api/admin/apps/${app.appId}/campaigns/${id}`)).campaign.budgetRefusals;
const analytics = (app: TestApp) => adminJson<Analytics>(`/api/admin/apps/${app.appId}/analytics`);
const inspected = async (app: TestApp, user: TestUser, missionId: string) =>
  (await adminJson<Inspection>(`/api/admin/apps/${app.appId}/users/${user.userId}`)).missions.find((m) => m.mission.id === missionId)!;

async function metricValue(labels: string): Promise<number> {
  const text = await (await admin('GET', '/api/metrics')).text();
  const line = text.split('\n').find((l) => l.startsWith(`questline_claims_refused_total{${labels}}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

/** An app whose campaign "winter" holds mission "m" (reward `amount` gems) under a gems budget of `budget`. */
async function budgetApp(budget: number, amount: number, extra: Partial<CatalogInput> = {}): Promise<TestApp> {
  return createTestApp(server, {
    campaigns: [campaign('winter', { title: 'Winter festival', budget: [{ currency: 'gems', amount: budget }] }), ...(extra.campaigns ?? [])],
    missions: [mission('m', { campaignId: 'winter', reward: { kind: 'currency', currency: 'gems', amount } }), ...(extra.missions ?? [])],
  });
}

async function completedUsers(app: TestApp, n: number): Promise<TestUser[]> {
  const users: TestUser[] = [];
  for (let i = 0; i < n; i++) {
    const user = await newUser(server, app);
    expect((await user.event('play')).status).toBe(200);
    users.push(user);
  }
  return users;
}

const refused = async (res: Response) => {
  expect(res.status).toBe(409);
  expect(((await res.json()) as { error: string }).error).toBe('budget_exhausted');
};

describe('a claim refused by the campaign budget', () => {
  it('is counted once per claim (not again for a retry under the same key): campaign, analytics, metric, inspector', async () => {
    const app = await budgetApp(30, 30, { missions: [mission('free', { reward: { kind: 'currency', currency: 'gems', amount: 5 } })] });
    const labels = `app="${app.appId}",campaign="winter",currency="gems"`;
    const [a, b, c] = await completedUsers(app, 3);
    expect((await a.claim('m')).status).toBe(200);
    expect(await refusalsOf(app, 'winter')).toEqual([]);
    expect((await inspected(app, b, 'm')).claimRefusal).toBeNull();

    const beforeFirst = Date.now();
    await refused(await b.claim('m', 'key-1'));
    const afterFirst = Date.now();
    // The same key again (and again, at once): the same claim, still refused, counted once.
    await refused(await b.claim('m', 'key-1'));
    await Promise.all([b.claim('m', 'key-1'), b.claim('m', 'key-1')].map(async (r) => refused(await r)));
    let [row] = (await refusalsOf(app, 'winter')) ?? [];
    expect(row).toMatchObject({ currency: 'gems', count: 1 });
    expect(row.firstAt).toBeGreaterThanOrEqual(beforeFirst);
    expect(row.firstAt).toBeLessThanOrEqual(afterFirst);
    expect(row.lastAt).toBe(row.firstAt);

    // Another key, no key (each a new claim), another user: counted.
    await refused(await b.claim('m', 'key-2'));
    await refused(await b.claim('m'));
    await refused(await c.claim('m'));
    [row] = (await refusalsOf(app, 'winter')) ?? [];
    expect(row).toMatchObject({ currency: 'gems', count: 4, firstAt: row.firstAt });
    expect(row.lastAt).toBeGreaterThanOrEqual(row.firstAt);
    // A claim outside the campaign is not a refusal of it.
    expect((await c.claim('free')).status).toBe(200);

    const stats = await analytics(app);
    expect(stats.totals.claimsRefused).toBe(4);
    expect(stats.refusals).toEqual([{ campaignId: 'winter', currency: 'gems', count: 4 }]);
    expect(stats.totals.claims).toBe(2);
    expect(await metricValue(labels)).toBe(4);

    // The inspector: the refused player's mission says so, with the time; the granted one does not.
    const seen = await inspected(app, c, 'm');
    expect(seen.status).toBe('completed');
    expect(seen.claimRefusal).toMatchObject({ campaignId: 'winter', currency: 'gems', amount: 30, budget: 30 });
    expect(seen.claimRefusal!.at).toBeLessThanOrEqual(row.lastAt);
    expect((await inspected(app, a, 'm')).claimRefusal).toBeNull();
    expect((await inspected(app, c, 'free')).claimRefusal).toBeNull();

    // Raised budget: b's claim is granted, its refusal no longer shown; the counts stay.
    const doc = (await (await admin('GET', `/api/admin/apps/${app.appId}/catalog`)).json()) as CatalogInput;
    doc.campaigns![0].budget = [{ currency: 'gems', amount: 60 }];
    expect((await putCatalog(server, app.appId, doc)).status).toBe(200);
    expect((await b.claim('m', 'key-1')).status).toBe(200);
    const claimed = await inspected(app, b, 'm');
    expect(claimed.status).toBe('claimed');
    expect(claimed.claimRefusal).toBeNull();
    expect((await refusalsOf(app, 'winter'))?.[0]).toMatchObject({ count: 4 });
    expect(await metricValue(labels)).toBe(4);

    // The player's data export holds their refusal; a data erasure takes it, the campaign's counters stay.
    const exported = await adminJson<{ claimRefusals: Array<Record<string, unknown>> }>(`/api/admin/apps/${app.appId}/users/${c.userId}/export`);
    expect(exported.claimRefusals).toEqual([{ missionId: 'm', campaignId: 'winter', currency: 'gems', amount: 30, budget: 30, idempotencyKey: null, at: seen.claimRefusal!.at }]);
    const db = await getDb();
    const rows = () => db.select().from(claimRefusals).where(and(eq(claimRefusals.appId, app.appId), eq(claimRefusals.userId, c.userId)));
    expect(await rows()).toHaveLength(1);
    const erased = await admin('DELETE', `/api/admin/apps/${app.appId}/users/${c.userId}`, { reason: 'GDPR request' });
    expect(erased.status).toBe(200);
    expect(await rows()).toEqual([]);
    expect((await refusalsOf(app, 'winter'))?.[0]).toMatchObject({ count: 4 });
  });
});

describe('a player retrying a refused claim under alternating keys', () => {
  it('counts each distinct key once (A, B, A, B, A: 2), campaign, analytics and metric alike; the export shows the last counted key', async () => {
    const app = await budgetApp(30, 30);
    const labels = `app="${app.appId}",campaign="winter",currency="gems"`;
    const [a, b] = await completedUsers(app, 2);
    expect((await a.claim('m')).status).toBe(200);
    for (const key of ['key-a', 'key-b', 'key-a', 'key-b', 'key-a']) await refused(await b.claim('m', key));
    expect((await refusalsOf(app, 'winter'))?.[0]).toMatchObject({ currency: 'gems', count: 2 });
    const stats = await analytics(app);
    expect(stats.totals.claimsRefused).toBe(2);
    expect(stats.refusals).toEqual([{ campaignId: 'winter', currency: 'gems', count: 2 }]);
    expect(await metricValue(labels)).toBe(2);
    // A third key is a third claim.
    await refused(await b.claim('m', 'key-c'));
    await refused(await b.claim('m', 'key-b'));
    expect((await refusalsOf(app, 'winter'))?.[0]).toMatchObject({ count: 3 });
    const exported = await adminJson<{ claimRefusals: Array<Record<string, unknown>> }>(`/api/admin/apps/${app.appId}/users/${b.userId}/export`);
    expect(exported.claimRefusals).toEqual([expect.objectContaining({ missionId: 'm', idempotencyKey: 'claim:key-c' })]);
  });
});

describe('concurrent claims racing a nearly spent budget', () => {
  it('count refused = claims − granted, exactly, on every place (a claim tried twice at once under its key counts once)', async () => {
    const app = await budgetApp(100, 10);
    const labels = `app="${app.appId}",campaign="winter",currency="gems"`;
    const users = await completedUsers(app, 40);
    for (const u of users.slice(0, 7)) expect((await u.claim('m')).status).toBe(200); // 70 of 100: room for 3
    const racers = users.slice(7);
    // Each racer's one claim, sent twice at once under its key (a client's retry racing its first try).
    const responses = await Promise.all(racers.flatMap((u, i) => [u.claim('m', `race-${i}`), u.claim('m', `race-${i}`)]));
    const answers = await Promise.all(responses.map(async (r) => (r.status === 200 ? 'granted' : ((await r.json()) as { error: string }).error)));
    const claims = racers.map((_, i) => answers.slice(2 * i, 2 * i + 2));
    // Both tries of a claim answer alike: granted (one grant, its twin the replay) or refused.
    for (const tries of claims) expect(tries[0], tries.join()).toBe(tries[1]);
    const granted = claims.filter((t) => t[0] === 'granted').length;
    expect(granted).toBe(3);
    expect(claims.filter((t) => t[0] === 'budget_exhausted')).toHaveLength(racers.length - granted);
    const expected = racers.length - granted;
    const [row] = (await refusalsOf(app, 'winter')) ?? [];
    expect(row).toMatchObject({ currency: 'gems', count: expected });
    const stats = await analytics(app);
    expect(stats.totals.claimsRefused).toBe(expected);
    expect(stats.refusals).toEqual([{ campaignId: 'winter', currency: 'gems', count: expected }]);
    expect(await metricValue(labels)).toBe(expected);
  });
});
