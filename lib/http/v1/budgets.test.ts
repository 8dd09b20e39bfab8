// Campaign payout budgets over real HTTP (embedded default, or PostgreSQL +
// Redis when DATABASE_URL/REDIS_URL are set): a claim past the budget answers
// 409 budget_exhausted and changes nothing; 50 concurrent claims against a
// budget with room for 10 grant exactly 10; the 80 % and 100 % alerts are
// recorded once each (campaign, audit log, metric); budgetSpent on the admin
// reads; the budget in the catalog document and not in /v1.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { balances, campaignBudgetSpent, ledger, progress } from '@/db/schema';
import type { CampaignRecord } from '@/lib/contract/catalog-admin';
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

async function campaignRead(app: TestApp, id: string): Promise<CampaignRecord> {
  const res = await admin('GET', `/api/admin/apps/${app.appId}/campaigns/${id}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { campaign: CampaignRecord }).campaign;
}

async function auditAlerts(app: TestApp, campaignId: string) {
  const res = await admin('GET', `/api/admin/audit?appId=${app.appId}&target=campaign:${campaignId}`);
  expect(res.status).toBe(200);
  const { entries } = (await res.json()) as { entries: Array<{ action: string; actor: string; after: Record<string, unknown> }> };
  return entries.filter((e) => e.action === 'budget.alert').reverse();
}

async function metricValue(labels: string): Promise<number> {
  const text = await (await admin('GET', '/api/metrics')).text();
  const line = text.split('\n').find((l) => l.startsWith(`questline_budget_alerts_total{${labels}}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

async function userRows(app: TestApp, userId: string) {
  const db = await getDb();
  const [l, b, p] = [
    await db.select().from(ledger).where(and(eq(ledger.appId, app.appId), eq(ledger.userId, userId))),
    await db.select().from(balances).where(and(eq(balances.appId, app.appId), eq(balances.userId, userId))),
    await db.select().from(progress).where(and(eq(progress.appId, app.appId), eq(progress.userId, userId))),
  ];
  return { ledger: l, balances: b, progress: p.map((r) => ({ missionId: r.missionId, status: r.status })) };
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

describe('a claim past the campaign budget', () => {
  it('answers 409 budget_exhausted naming the campaign and changes nothing (balance, ledger, mission status)', async () => {
    const app = await budgetApp(100, 30);
    const users = await completedUsers(app, 4);
    for (const u of users.slice(0, 3)) expect((await u.claim('m')).status).toBe(200);
    const before = await userRows(app, users[3].userId);
    const refused = await users[3].claim('m', 'key-1');
    expect(refused.status).toBe(409);
    const body = (await refused.json()) as { error: string; message: string };
    expect(body.error).toBe('budget_exhausted');
    expect(body.message).toContain('Winter festival');
    expect(body.message).toContain('winter');
    expect(await userRows(app, users[3].userId)).toEqual(before);
    expect(before.ledger).toEqual([]);
    expect(before.progress).toEqual([{ missionId: 'm', status: 'completed' }]);
    const read = await users[3].getJson<{ progress: { status: string } }>('/v1/missions/m');
    expect(read.body.progress.status).toBe('completed');
    expect((await campaignRead(app, 'winter')).budgetSpent).toEqual({ gems: 90 });
    // The same key again is not a replay of a refusal: still refused, still nothing written.
    expect((await users[3].claim('m', 'key-1')).status).toBe(409);
    expect(await userRows(app, users[3].userId)).toEqual(before);

    // Raising the budget lets the same claim through; the spent amount is exact.
    const doc = (await (await admin('GET', `/api/admin/apps/${app.appId}/catalog`)).json()) as CatalogInput;
    expect(doc.campaigns?.[0]?.budget).toEqual([{ currency: 'gems', amount: 100 }]);
    doc.campaigns![0].budget = [{ currency: 'gems', amount: 120 }];
    expect((await putCatalog(server, app.appId, doc)).status).toBe(200);
    expect((await users[3].claim('m', 'key-1')).status).toBe(200);
    expect((await campaignRead(app, 'winter')).budgetSpent).toEqual({ gems: 120 });
  });

  it('a budget lowered below what was spent refuses every further grant; what was spent stays', async () => {
    const app = await budgetApp(100, 30);
    const users = await completedUsers(app, 3);
    for (const u of users.slice(0, 2)) expect((await u.claim('m')).status).toBe(200);
    const doc = (await (await admin('GET', `/api/admin/apps/${app.appId}/catalog`)).json()) as CatalogInput;
    doc.campaigns![0].budget = [{ currency: 'gems', amount: 50 }];
    expect((await putCatalog(server, app.appId, doc)).status).toBe(200);
    const refused = await users[2].claim('m');
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: string }).error).toBe('budget_exhausted');
    const read = await campaignRead(app, 'winter');
    expect(read.budget).toEqual([{ currency: 'gems', amount: 50 }]);
    expect(read.budgetSpent).toEqual({ gems: 60 });
  });

  it('item and badge rewards and other currencies are neither limited nor counted; missions outside a campaign are not counted', async () => {
    const app = await budgetApp(10, 10, {
      missions: [
        mission('item', { campaignId: 'winter', reward: { kind: 'item', itemId: 'sled', quantity: 1 } }),
        mission('badge', { campaignId: 'winter', reward: { kind: 'badge', badgeId: 'snow' } }),
        mission('coins', { campaignId: 'winter', reward: { kind: 'currency', currency: 'coins', amount: 500 } }),
        mission('free', { reward: { kind: 'currency', currency: 'gems', amount: 1000 } }),
      ],
    });
    const [a, b] = await completedUsers(app, 2);
    expect((await a.claim('m')).status).toBe(200);
    expect((await b.claim('m')).status).toBe(409);
    for (const id of ['item', 'badge', 'coins', 'free']) expect((await b.claim(id)).status, id).toBe(200);
    expect((await campaignRead(app, 'winter')).budgetSpent).toEqual({ coins: 500, gems: 10 });
  });
});

describe('exact under concurrency', () => {
  it('50 concurrent claims (different users) against a budget with room for 10 grant exactly 10', async () => {
    const app = await budgetApp(150, 10);
    const users = await completedUsers(app, 55);
    for (const u of users.slice(0, 5)) expect((await u.claim('m')).status).toBe(200);
    const racers = users.slice(5);
    const responses = await Promise.all(racers.map((u) => u.claim('m')));
    const statuses = responses.map((r) => r.status);
    const bodies = (await Promise.all(responses.map((r) => r.json()))) as Array<{ error?: string }>;
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(40);
    for (const [i, b] of bodies.entries()) if (statuses[i] === 409) expect(b.error).toBe('budget_exhausted');
    const db = await getDb();
    const grants = await db.select().from(ledger).where(and(eq(ledger.appId, app.appId), eq(ledger.missionId, 'm')));
    expect(grants).toHaveLength(15);
    const [spent] = await db.select().from(campaignBudgetSpent).where(eq(campaignBudgetSpent.appId, app.appId));
    expect(spent).toMatchObject({ campaignId: 'winter', currency: 'gems', spent: 150, cap: 150 });
    // Every refused user still holds a completed, unclaimed mission and no balance.
    for (const [i, u] of racers.entries()) {
      if (statuses[i] !== 409) continue;
      const rows = await userRows(app, u.userId);
      expect(rows.progress).toEqual([{ missionId: 'm', status: 'completed' }]);
      expect(rows.balances).toEqual([]);
    }
    const read = await campaignRead(app, 'winter');
    expect(read.budgetAlerts?.map((a) => a.threshold)).toEqual([80, 100]);
    expect((await auditAlerts(app, 'winter')).map((e) => e.after.threshold)).toEqual([80, 100]);
  });
});

describe('budget alerts', () => {
  it('are recorded once per threshold, by the grant that reached it: campaign, audit log and metric', async () => {
    const app = await budgetApp(100, 20, { missions: [mission('m2', { campaignId: 'winter', reward: { kind: 'currency', currency: 'gems', amount: 20 } })] });
    const labels = `app="${app.appId}",campaign="winter",currency="gems"`;
    const users = await completedUsers(app, 3);
    const alerts = async () => (await campaignRead(app, 'winter')).budgetAlerts ?? [];
    expect((await users[0].claim('m')).status).toBe(200); // 20
    expect((await users[1].claim('m')).status).toBe(200); // 40
    expect((await users[2].claim('m')).status).toBe(200); // 60
    expect(await alerts()).toEqual([]);
    expect((await users[0].claim('m2')).status).toBe(200); // 80: the 80 % alert
    expect(await alerts()).toEqual([expect.objectContaining({ type: 'budget.alert', campaignId: 'winter', currency: 'gems', threshold: 80, spent: 80, budget: 100, missionId: 'm2' })]);
    expect(await metricValue(`${labels},threshold="80"`)).toBe(1);
    // Raising the budget moves spent below 80 % again; reaching it again records nothing new.
    const doc = (await (await admin('GET', `/api/admin/apps/${app.appId}/catalog`)).json()) as CatalogInput;
    doc.campaigns![0].budget = [{ currency: 'gems', amount: 100 + 20 }];
    expect((await putCatalog(server, app.appId, doc)).status).toBe(200);
    expect((await users[1].claim('m2')).status).toBe(200); // 100 of 120: past 80 % again
    expect((await users[2].claim('m2')).status).toBe(200); // 120 of 120: the 100 % alert
    expect((await alerts()).map((a) => [a.threshold, a.spent, a.budget])).toEqual([
      [80, 80, 100],
      [100, 120, 120],
    ]);
    const audited = await auditAlerts(app, 'winter');
    expect(audited.map((e) => [e.actor, e.after.threshold, e.after.spent])).toEqual([
      ['system', 80, 80],
      ['system', 100, 120],
    ]);
    expect(await metricValue(`${labels},threshold="80"`)).toBe(1);
    expect(await metricValue(`${labels},threshold="100"`)).toBe(1);
    // The list answers the same, for every campaign.
    const list = (await (await admin('GET', `/api/admin/apps/${app.appId}/campaigns`)).json()) as { campaigns: CampaignRecord[] };
    expect(list.campaigns.map((c) => [c.id, c.budgetSpent, c.budgetAlerts?.length])).toEqual([['winter', { gems: 120 }, 2]]);
  });
});

describe('the budget field', () => {
  it('is validated, kept by the campaign routes, and not shown by /v1', async () => {
    const app = await createTestApp(server, { campaigns: [campaign('c')], missions: [mission('m', { campaignId: 'c' })] });
    const base = `/api/admin/apps/${app.appId}/campaigns`;
    for (const budget of [[{ currency: 'gems', amount: 0 }], [{ currency: 'gems', amount: 1.5 }], [{ currency: 'gems', amount: 5 }, { currency: 'gems', amount: 6 }]]) {
      const bad = await admin('POST', base, campaign('c2', { budget }));
      expect(bad.status, JSON.stringify(budget)).toBe(400);
      expect(((await bad.json()) as { error: string; message: string }).message).toMatch(/budget/);
    }
    const created = await admin('POST', base, campaign('c2', { budget: [{ currency: 'gems', amount: 500 }] }));
    expect(created.status).toBe(201);
    const read = await campaignRead(app, 'c2');
    expect(read).toMatchObject({ budget: [{ currency: 'gems', amount: 500 }], budgetSpent: {}, budgetAlerts: [] });
    const put = await admin('PUT', `${base}/c2`, { ...read, budget: [{ currency: 'gems', amount: 700 }, { currency: 'coins', amount: 9 }] });
    expect(put.status).toBe(200);
    expect((await campaignRead(app, 'c2')).budget).toEqual([{ currency: 'gems', amount: 700 }, { currency: 'coins', amount: 9 }]);
    const user = await newUser(server, app);
    const v1 = await user.getJson<{ campaigns: Array<Record<string, unknown>> }>('/v1/campaigns');
    expect(v1.status).toBe(200);
    for (const c of v1.body.campaigns) expect(c).not.toHaveProperty('budget');
  });
});
