// Reward bundles (issue 39 §2) over real HTTP (embedded by default, or
// PostgreSQL + Redis when DATABASE_URL/REDIS_URL are set): a claim grants the
// whole bundle in its one statement (a ledger row per reward, a balance per
// currency), all or nothing under a campaign budget race and a maxBalance
// (rows counted before and after), the validation of `rewards` beside
// `reward`, one reward.granted notification per reward under the claim's key,
// and the budgets, analytics, impact and draft review counting every reward.
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { analyticsRollups, balances, campaignBudgetSpent, claimRefusals, idempotencyKeys, ledger, progress, webhookDeliveries } from '@/db/schema';
import type { Analytics } from '@/lib/contract/analytics';
import type { CampaignRecord } from '@/lib/contract/catalog-admin';
import type { MissionInput } from '@/lib/contract/mission';
import { verifyWebhook } from '@/lib/sdk/backend';
import { campaign, mission, newUser, type TestUser } from '@/lib/testing/fixtures';
import { startReceiver, type Receiver } from '@/lib/testing/receiver';
import { createTestApp, putCatalog, startTestServer, type TestApp, type TestServer } from '@/lib/testing/test-server';

let server: TestServer;
let receiver: Receiver;
const savedAllow = process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE;
beforeAll(async () => {
  process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE = '1'; // the receiver listens on 127.0.0.1
  server = await startTestServer();
  receiver = await startReceiver();
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
  if (savedAllow === undefined) delete process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE;
  else process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE = savedAllow;
});

async function admin<T = Record<string, unknown>>(method: string, route: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(server.url + route, {
    method,
    headers: { Authorization: `Bearer ${server.adminKey}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

const coins = (amount: number) => ({ kind: 'currency' as const, currency: 'coins', amount });
const gems = (amount: number) => ({ kind: 'currency' as const, currency: 'gems', amount });
const WINTER_BADGE = { kind: 'badge' as const, badgeId: 'winter' };
const SLED = { kind: 'item' as const, itemId: 'sled', quantity: 2 };
/** A mission body with `rewards` and no `reward` (typed as the input allows it). */
const bundle = (id: string, rewards: unknown[], overrides: Partial<MissionInput> = {}): MissionInput =>
  ({ ...mission(id, overrides), reward: undefined, rewards }) as unknown as MissionInput;

/** Every row a claim can write, for the app (or one user of it): counted before and after a refusal. */
async function rowCounts(appId: string, userId?: string) {
  const db = await getDb();
  const n = async (table: typeof ledger | typeof balances | typeof webhookDeliveries | typeof idempotencyKeys) => {
    const [row] = await db
      .select({ n: count() })
      .from(table)
      .where(userId === undefined ? eq(table.appId, appId) : and(eq(table.appId, appId), eq(table.userId, userId)));
    return Number(row.n);
  };
  const [spent] = await db.select({ n: count() }).from(campaignBudgetSpent).where(eq(campaignBudgetSpent.appId, appId));
  const spentRows = await db.select().from(campaignBudgetSpent).where(eq(campaignBudgetSpent.appId, appId));
  const rollups = await db.select().from(analyticsRollups).where(and(eq(analyticsRollups.appId, appId), eq(analyticsRollups.kind, 'currency')));
  const claimed = await db.select({ n: count() }).from(progress).where(and(eq(progress.appId, appId), eq(progress.status, 'claimed')));
  return {
    ledger: await n(ledger),
    balances: await n(balances),
    balanceAmounts: (await db.select().from(balances).where(eq(balances.appId, appId))).map((b) => `${b.userId}/${b.currency}=${b.amount}`).sort(),
    deliveries: await n(webhookDeliveries),
    keys: await n(idempotencyKeys),
    spentRows: Number(spent.n),
    spent: spentRows.map((r) => `${r.currency}=${r.spent}`).sort(),
    currencyRollups: rollups.reduce((sum, r) => sum + Number(r.amount), 0),
    claimed: Number(claimed[0].n),
  };
}

/** Σ ledger = balance for every (user, currency) of the app. */
async function ledgerMatchesBalances(appId: string): Promise<void> {
  const db = await getDb();
  const rows = await db.select().from(ledger).where(and(eq(ledger.appId, appId), eq(ledger.kind, 'currency')));
  const sums = new Map<string, number>();
  for (const r of rows) sums.set(`${r.userId}/${r.currency}`, (sums.get(`${r.userId}/${r.currency}`) ?? 0) + Number(r.amount));
  const held = new Map((await db.select().from(balances).where(eq(balances.appId, appId))).map((b) => [`${b.userId}/${b.currency}`, Number(b.amount)]));
  expect(Object.fromEntries(held)).toEqual(Object.fromEntries(sums));
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

describe('a claim of a bundle', () => {
  it('grants every reward in one answer: a ledger row per reward, a balance per currency; reward and balance are the first; a replay grants nothing more', async () => {
    const app = await createTestApp(server, { missions: [bundle('feast', [coins(100), WINTER_BADGE, gems(5), SLED])], campaigns: [] });
    const [user] = await completedUsers(app, 1);
    const listed = await user.getJson<{ missions: Array<Record<string, unknown>> }>('/v1/missions');
    expect(listed.body.missions[0]).toMatchObject({ reward: coins(100), rewards: [coins(100), WINTER_BADGE, gems(5), SLED] });

    const res = await user.claim('feast', 'feast-1');
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      progress: { status: 'claimed' },
      reward: coins(100),
      rewards: [coins(100), WINTER_BADGE, gems(5), SLED],
      balance: { userId: user.userId, currency: 'coins', amount: 100 },
      balances: [
        { userId: user.userId, currency: 'coins', amount: 100 },
        { userId: user.userId, currency: 'gems', amount: 5 },
      ],
    });
    const db = await getDb();
    const rows = await db.select().from(ledger).where(and(eq(ledger.appId, app.appId), eq(ledger.userId, user.userId)));
    expect(rows.map((r) => [r.kind, r.currency ?? r.itemId ?? r.badgeId, r.amount ?? r.quantity, r.balanceAfter]).sort()).toEqual(
      [
        ['badge', 'winter', null, null],
        ['currency', 'coins', 100, 100],
        ['currency', 'gems', 5, 5],
        ['item', 'sled', 2, null],
      ].sort(),
    );
    const before = await rowCounts(app.appId);
    const replay = await user.claim('feast', 'feast-1');
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual(body);
    expect(await rowCounts(app.appId)).toEqual(before);
    await ledgerMatchesBalances(app.appId);
  });

  it('a mission of one reward answers as before, plus `rewards` of one and `balances` on /v1', async () => {
    const app = await createTestApp(server, { missions: [mission('one', { reward: WINTER_BADGE })], campaigns: [] });
    const [user] = await completedUsers(app, 1);
    const res = await user.claim('one');
    expect(await res.json()).toMatchObject({ balance: null, reward: WINTER_BADGE, rewards: [WINTER_BADGE], balances: [] });
    // The admin read and the catalog document keep `reward` alone for it.
    const doc = await admin<{ missions: Array<Record<string, unknown>> }>('GET', `/api/admin/apps/${app.appId}/catalog`);
    expect(doc.body.missions[0].reward).toEqual(WINTER_BADGE);
    expect(doc.body.missions[0]).not.toHaveProperty('rewards');
  });
});

describe('all or nothing', () => {
  it('20 concurrent claims of a bundle under two budgets: the smaller one decides, each grant is whole, Σ ledger = balances, refusals write nothing', async () => {
    // coins: room for 10 grants of 10; gems: room for 5 grants of 10, so exactly 5 bundles fit.
    const app = await createTestApp(server, {
      campaigns: [campaign('winter', { title: 'Winter festival', budget: [{ currency: 'coins', amount: 100 }, { currency: 'gems', amount: 50 }] })],
      missions: [bundle('m', [coins(10), gems(10), WINTER_BADGE], { campaignId: 'winter' })],
    });
    const users = await completedUsers(app, 20);
    const responses = await Promise.all(users.map((u, i) => u.claim('m', `race-${i}`)));
    const statuses = responses.map((r) => r.status);
    const bodies = (await Promise.all(responses.map((r) => r.json()))) as Array<{ error?: string; message?: string }>;
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(15);
    for (const [i, b] of bodies.entries()) if (statuses[i] === 409) expect([b.error, b.message]).toEqual(['budget_exhausted', expect.stringContaining('gems')]);

    const db = await getDb();
    for (const [i, u] of users.entries()) {
      const rows = await db.select().from(ledger).where(and(eq(ledger.appId, app.appId), eq(ledger.userId, u.userId)));
      // A granted claim wrote its three rewards; a refused one nothing, and its mission is still completed.
      expect(rows.length, u.userId).toBe(statuses[i] === 200 ? 3 : 0);
      const [p] = await db.select().from(progress).where(and(eq(progress.appId, app.appId), eq(progress.userId, u.userId)));
      expect(p.status).toBe(statuses[i] === 200 ? 'claimed' : 'completed');
    }
    const counts = await rowCounts(app.appId);
    expect(counts).toMatchObject({ ledger: 15, balances: 10, spent: ['coins=50', 'gems=50'], keys: 5, currencyRollups: 100, claimed: 5 });
    await ledgerMatchesBalances(app.appId);
    const read = await admin<{ campaign: CampaignRecord }>('GET', `/api/admin/apps/${app.appId}/campaigns/winter`);
    expect(read.body.campaign.budgetSpent).toEqual({ coins: 50, gems: 50 });
    // The refusals are counted against the exhausted currency.
    const refused = await db.select().from(claimRefusals).where(eq(claimRefusals.appId, app.appId));
    expect(refused).toHaveLength(15);
    expect(new Set(refused.map((r) => r.currency))).toEqual(new Set(['gems']));

    // One more refusal, rows counted before and after: nothing written anywhere.
    const [late] = await completedUsers(app, 1);
    const before = await rowCounts(app.appId);
    const res = await late.claim('m', 'late-1');
    expect(res.status).toBe(409);
    const after = await rowCounts(app.appId);
    expect(after).toEqual(before);
  });

  it('a bundle one of whose currencies would pass its maxBalance is refused whole (409 balance_limit), nothing written', async () => {
    const app = await createTestApp(server, {
      currencies: [
        { id: 'coins', name: 'Coins' },
        { id: 'gems', name: 'Gems', maxBalance: 20 },
      ],
      items: [{ id: 'winter', name: 'Winter badge', kind: 'badge' }],
      missions: [bundle('m', [coins(100), WINTER_BADGE, gems(15)]), mission('g', { criteria: { eventName: 'gem', count: 1 }, reward: gems(10) })],
      campaigns: [],
    } as never);
    const [user] = await completedUsers(app, 1);
    expect((await user.event('gem')).status).toBe(200);
    expect((await user.claim('g')).status).toBe(200); // gems 10: the bundle's 15 would make 25
    const before = await rowCounts(app.appId, user.userId);
    const res = await user.claim('m', 'over');
    expect(res.status).toBe(409);
    const body = (await res.json()) as { error: string; message: string; limit: number };
    expect(body).toMatchObject({ error: 'balance_limit', limit: 20 });
    expect(body.message).toContain('gems');
    expect(await rowCounts(app.appId, user.userId)).toEqual(before);
    expect(before.balanceAmounts).toEqual([`${user.userId}/gems=10`]);
    const read = await user.getJson<{ progress: { status: string } }>('/v1/missions/m');
    expect(read.body.progress.status).toBe('completed');
  });
});

describe('validation of rewards', () => {
  const put = (appId: string, missions: unknown[], extra: Record<string, unknown> = {}) =>
    putCatalog(server, appId, { missions, campaigns: [], ...extra } as never).then(async (r) => ({ status: r.status, body: (await r.json()) as { error?: string; message?: string } }));

  it('1 to 10 rewards, each currency, item or badge once; `reward` beside `rewards` must be its first', async () => {
    const app = await createTestApp(server);
    const tooMany = Array.from({ length: 11 }, (_, i) => ({ kind: 'badge', badgeId: `b${i}` }));
    for (const [missions, hint] of [
      [[bundle('m', [])], 'rewards'],
      [[bundle('m', tooMany)], 'rewards'],
      [[{ ...mission('m'), reward: undefined }], 'reward'],
      [[{ ...mission('m', { reward: coins(5) }), rewards: [coins(6), WINTER_BADGE] }], 'reward'],
      [[bundle('m', [coins(5), WINTER_BADGE, coins(6)])], 'rewards[2]'],
    ] as Array<[unknown[], string]>) {
      const res = await put(app.appId, missions);
      expect(res.status, JSON.stringify(missions)).toBe(400);
      expect(res.body.error).toBe('validation_error');
      expect(res.body.message).toContain(`missions[0] (id "m"): ${hint}: `);
    }
    // Ten is fine; both fields agreeing is fine (a mission read and written back); the document keeps both.
    expect((await put(app.appId, [bundle('m', tooMany.slice(0, 10))])).status).toBe(200);
    expect((await put(app.appId, [{ ...mission('m', { reward: coins(5) }), rewards: [coins(5), WINTER_BADGE] }])).status).toBe(200);
    const doc = await admin<{ missions: Array<Record<string, unknown>> }>('GET', `/api/admin/apps/${app.appId}/catalog`);
    expect(doc.body.missions[0]).toMatchObject({ reward: coins(5), rewards: [coins(5), WINTER_BADGE] });
    // A bundle of one is the mission's reward.
    expect((await put(app.appId, [bundle('m', [gems(3)])])).status).toBe(200);
    const one = await admin<{ missions: Array<Record<string, unknown>> }>('GET', `/api/admin/apps/${app.appId}/catalog`);
    expect(one.body.missions[0].reward).toEqual(gems(3));
    expect(one.body.missions[0]).not.toHaveProperty('rewards');
  });

  it('with a currencies section, each reward of a bundle must name a defined id: the path names the reward', async () => {
    const app = await createTestApp(server);
    const missions = [mission('a'), mission('b'), mission('c'), bundle('d', [gems(1), { kind: 'currency', currency: 'Coins', amount: 5 }])];
    const res = await put(app.appId, missions, { currencies: [{ id: 'gems', name: 'Gems' }, { id: 'coins', name: 'Coins' }] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('missions[3].rewards[1].currency: "Coins" is not a currency of this app; did you mean "coins"?');
    const badge = await put(app.appId, [bundle('d', [gems(1), { kind: 'badge', badgeId: 'wintr' }])], {
      currencies: [{ id: 'gems', name: 'Gems' }],
      items: [{ id: 'winter', name: 'Winter badge', kind: 'badge' }],
    });
    expect(badge.body.message).toBe('missions[0].rewards[1].badgeId: "wintr" is not a badge of this app; did you mean "winter"?');
    // Without the section, every id a bundle names is added to the app's list.
    expect((await put(app.appId, [bundle('d', [gems(1), coins(2), WINTER_BADGE])])).status).toBe(200);
    const economy = await admin<{ currencies: Array<{ id: string }>; items: Array<{ id: string }> }>('GET', `/api/admin/apps/${app.appId}/economy`);
    expect(economy.body.currencies.map((c) => c.id)).toEqual(expect.arrayContaining(['coins', 'gems']));
    expect(economy.body.items.map((c) => c.id)).toContain('winter');
  });
});

describe('outbound notifications', () => {
  it('one reward.granted per reward under the claim’s key, one balance.changed per currency', async () => {
    const app = await createTestApp(server, { missions: [bundle('feast', [coins(100), WINTER_BADGE, gems(5)])], campaigns: [] });
    const created = await admin<{ id: string; secret: string }>('POST', `/api/admin/apps/${app.appId}/endpoints`, { url: receiver.url, events: ['reward.granted', 'balance.changed'] });
    expect(created.status).toBe(201);
    const [user] = await completedUsers(app, 1);
    expect((await user.claim('feast', 'feast-key')).status).toBe(200);
    const mine = () => receiver.received.filter((x) => x.body.includes(`"userId":"${user.userId}"`));
    await receiver.until(() => mine().length >= 5, 15_000, 'five notifications');
    const got = await Promise.all(mine().map((x) => verifyWebhook(created.body.secret, x.headers as Record<string, string>, x.body)));
    const granted = got.filter((n) => n.type === 'reward.granted').map((n) => n.data as { reward: unknown; idempotencyKey: string; missionId: string });
    expect(granted.map((d) => d.reward)).toEqual(expect.arrayContaining([coins(100), WINTER_BADGE, gems(5)]));
    expect(granted).toHaveLength(3);
    for (const d of granted) expect(d).toMatchObject({ missionId: 'feast', idempotencyKey: 'feast-key' });
    const changed = got.filter((n) => n.type === 'balance.changed').map((n) => n.data as { currency: string; amount: number });
    expect(changed.map((d) => `${d.currency}=${d.amount}`).sort()).toEqual(['coins=100', 'gems=5']);
    const db = await getDb();
    const [rows] = await db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.appId, app.appId));
    expect(Number(rows.n)).toBe(5);
  });
});

describe('every reward is counted', () => {
  it('analytics, the impact of a draft and the draft review count each reward of a bundle', async () => {
    const start = Date.now();
    const app = await createTestApp(server, { missions: [bundle('feast', [coins(100), gems(5)]), mission('plain', { criteria: { eventName: 'other', count: 1 } })], campaigns: [] });
    const users = await completedUsers(app, 2);
    for (const u of users) expect((await u.claim('feast')).status).toBe(200);
    const analytics = await admin<Analytics>('GET', `/api/admin/apps/${app.appId}/analytics?from=${start - 60_000}&to=${Date.now() + 60_000}`);
    expect(analytics.status).toBe(200);
    const byCurrency = Object.fromEntries(analytics.body.currencies.map((c) => [c.currency, c.amount]));
    expect(byCurrency).toEqual({ coins: 200, gems: 10 });

    // The draft multiplies the bundle's gems by 100 and adds a badge to it.
    const live = await admin<{ missions: Array<Record<string, unknown>> }>('GET', `/api/admin/apps/${app.appId}/catalog`);
    const feast = live.body.missions.find((m) => m.id === 'feast')!;
    const { reward: _r, ...withoutReward } = feast;
    const draft = await admin<{ warnings: Array<{ code: string; path: string; factor?: number }>; changeDetails: Array<{ id: string; fields: Array<{ path: string; before: unknown; after: unknown }> }> }>(
      'PUT',
      `/api/admin/apps/${app.appId}/draft`,
      { missions: [{ ...withoutReward, rewards: [coins(100), gems(500), WINTER_BADGE] }, live.body.missions.find((m) => m.id === 'plain')], campaigns: [] },
    );
    expect(draft.status).toBe(200);
    expect(draft.body.changeDetails.find((d) => d.id === 'feast')?.fields).toEqual([{ path: 'rewards', before: [coins(100), gems(5)], after: [coins(100), gems(500), WINTER_BADGE] }]);
    expect(draft.body.warnings.map((w) => [w.code, w.path, w.factor ?? null])).toEqual([
      ['reward_multiplied', 'rewards[1]', 100],
      ['reward_added_to_completed', 'rewards[2]', null],
    ]);
    const impact = await admin<{ missions: Array<{ missionId: string; payout: { live: Record<string, number>; draft: Record<string, number> } }> }>('POST', `/api/admin/apps/${app.appId}/draft/impact`, { days: 1 });
    expect(impact.status).toBe(200);
    expect(impact.body.missions.find((m) => m.missionId === 'feast')?.payout).toEqual({ live: { coins: 200, gems: 10 }, draft: { coins: 200, gems: 1000 } });
  });
});
