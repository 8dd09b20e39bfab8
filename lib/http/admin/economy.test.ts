// Currencies and items defined per app (issue 39 §1), over real HTTP (embedded,
// or PostgreSQL/Redis with DATABASE_URL/REDIS_URL): a document carrying a
// section must name its ids (400 naming the path and the nearest id, nothing
// written); ids differing only in case are refused; an app without sections
// keeps working and lists what it names (the derived migration); maxBalance
// refuses a grant or a claim (409 balance_limit, nothing written) and never a
// spend; /v1 shows the definitions' names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { adminCall, asStaff, signedInStaff, type TestStaff } from '@/lib/testing/staff';
import { createTestApp, issueToken, startTestServer, uniqueId, userClient, type TestApp, type TestServer } from '@/lib/testing/test-server';

let server: TestServer;
let support: TestStaff;

beforeAll(async () => {
  server = await startTestServer();
  support = await signedInStaff(server, 'support');
});
afterAll(async () => server?.close());

const mission = (id: string, reward: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  id,
  title: `Mission ${id}`,
  criteria: { eventName: 'match_won', count: 1, window: 'lifetime' as const },
  reward,
  ...extra,
});
const gems = (amount: number) => ({ kind: 'currency', currency: 'gems', amount });
const CURRENCIES = [
  { id: 'gems', name: 'Gems', iconUrl: 'https://cdn.example.com/gems.png', maxBalance: 150 },
  { id: 'coins', name: 'Coins' },
];
const ITEMS = [{ id: 'winter-badge', name: 'Winter badge', kind: 'badge' }];

async function counts(appId: string) {
  const db = await (await import('@/db/client')).getDb();
  const result = await db.execute(sql`select
    (select count(*) from missions where app_id = ${appId})::int as missions,
    (select count(*) from campaigns where app_id = ${appId})::int as campaigns,
    (select count(*) from catalog_economy where app_id = ${appId})::int as economy,
    (select count(*) from catalog_drafts where app_id = ${appId})::int as drafts,
    (select count(*) from catalog_releases where app_id = ${appId})::int as releases,
    (select count(*) from balances where app_id = ${appId})::int as balances,
    (select coalesce(sum(amount), 0) from balances where app_id = ${appId})::int as held,
    (select count(*) from ledger where app_id = ${appId})::int as ledger,
    (select count(*) from progress where app_id = ${appId} and status = 'claimed')::int as claimed,
    (select count(*) from audit_log where app_id = ${appId})::int as audit`);
  return (result as unknown as { rows: Array<Record<string, number>> }).rows[0];
}

const putCatalog = (app: TestApp, body: unknown) => adminCall(server, 'PUT', `/api/admin/apps/${app.appId}/catalog`, body);

async function player(app: TestApp) {
  const userId = uniqueId('p');
  const client = userClient(server, await issueToken(server, app, userId));
  // Seen by the app (its first event), so staff grants find them.
  expect((await client.post('/v1/events', { userId, name: 'login_seen', payload: {}, timestamp: Date.now() })).status).toBe(200);
  return { userId, client, win: async () => expect((await client.post('/v1/events', { userId, name: 'match_won', payload: {}, timestamp: Date.now() })).status).toBe(200) };
}

describe('a catalog carrying currencies and items', () => {
  it('refuses a reward naming an undefined currency with its path and the nearest id; nothing is written', async () => {
    const app = await createTestApp(server);
    const before = await counts(app.appId);
    const res = await putCatalog(app, {
      currencies: CURRENCIES,
      missions: [mission('a', gems(5)), mission('b', { kind: 'currency', currency: 'Gems', amount: 5 })],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'validation_error', message: 'missions[1].reward.currency: "Gems" is not a currency of this app; did you mean "gems"?' });
    const budget = await putCatalog(app, {
      currencies: CURRENCIES,
      campaigns: [{ id: 'spring', title: 'Spring', startAt: 0, endAt: 4102444800000, budget: [{ currency: 'coins', amount: 10 }, { currency: 'coin', amount: 5 }] }],
    });
    expect(budget.status).toBe(400);
    expect(budget.body.message).toBe('campaigns[0].budget[1].currency: "coin" is not a currency of this app; did you mean "coins"?');
    const badge = await putCatalog(app, { items: ITEMS, missions: [mission('c', { kind: 'badge', badgeId: 'winter_badge' })] });
    expect(badge.status).toBe(400);
    expect(badge.body.message).toBe('missions[0].reward.badgeId: "winter_badge" is not a badge of this app; did you mean "winter-badge"?');
    const item = await putCatalog(app, { items: ITEMS, missions: [mission('c', { kind: 'item', itemId: 'winter-badge', quantity: 1 })] });
    expect(item.status).toBe(400);
    expect(item.body.message).toMatch(/^missions\[0\]\.reward\.itemId: "winter-badge" is not an item of this app/);
    expect(await counts(app.appId)).toEqual(before);
  });

  it('refuses two ids differing only in case, in the catalog and in the draft; nothing is written', async () => {
    const app = await createTestApp(server);
    const before = await counts(app.appId);
    const res = await putCatalog(app, { currencies: [{ id: 'gems', name: 'Gems' }, { id: 'Gems', name: 'Gems again' }] });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^currencies\[1\] \(id "Gems"\): differs from "gems" only in case/);
    const draft = await adminCall(server, 'PUT', `/api/admin/apps/${app.appId}/draft/economy`, { items: [{ id: 'Sword', name: 'Sword', kind: 'item' }, { id: 'sword', name: 'sword', kind: 'item' }] });
    expect(draft.status).toBe(400);
    expect(draft.body.message).toMatch(/^items\[1\] \(id "sword"\): differs from "Sword" only in case/);
    expect(await counts(app.appId)).toEqual(before);
  });

  it('goes through the draft: the economy section is validated against the draft, shown as changes, published, and /v1 shows the names', async () => {
    const app = await createTestApp(server, { campaigns: [], missions: [mission('a', gems(5)), mission('b', { kind: 'badge', badgeId: 'winter-badge' })] } as never);
    const before = await counts(app.appId);
    const wrong = await adminCall(server, 'PUT', `/api/admin/apps/${app.appId}/draft/economy`, { currencies: [{ id: 'coins', name: 'Coins' }] });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('missions[0].reward.currency: "gems" is not a currency of this app (defined: "coins")');
    expect(await counts(app.appId)).toEqual(before);

    const put = await adminCall<{ changes: unknown[]; catalog: { currencies: unknown[]; items: unknown[] } }>(server, 'PUT', `/api/admin/apps/${app.appId}/draft/economy`, {
      currencies: CURRENCIES,
      items: ITEMS,
    });
    expect(put.status).toBe(200);
    expect(put.body.changes).toEqual([
      { kind: 'currency', id: 'coins', change: 'added' },
      { kind: 'currency', id: 'gems', change: 'added' },
      { kind: 'item', id: 'winter-badge', change: 'added' },
    ]);
    // A mission edit in the draft keeps the sections.
    const edit = await adminCall<{ catalog: { currencies?: unknown[] } }>(server, 'PUT', `/api/admin/apps/${app.appId}/draft/missions/c`, mission('c', { kind: 'currency', currency: 'coins', amount: 1 }));
    expect(edit.status).toBe(200);
    expect(edit.body.catalog.currencies).toHaveLength(2);
    const bad = await adminCall(server, 'PUT', `/api/admin/apps/${app.appId}/draft/missions/d`, mission('d', { kind: 'currency', currency: 'Coins', amount: 1 }));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/reward\.currency: "Coins" is not a currency of this app; did you mean "coins"\?$/);

    expect((await adminCall(server, 'POST', `/api/admin/apps/${app.appId}/draft/publish`, {})).status).toBe(200);
    const live = await adminCall<{ currencies: unknown[]; items: unknown[] }>(server, 'GET', `/api/admin/apps/${app.appId}/catalog`);
    expect(live.body.currencies).toEqual([CURRENCIES[1], CURRENCIES[0]]);
    expect(live.body.items).toEqual(ITEMS);

    const p = await player(app);
    const list = await (await p.client.get('/v1/missions')).json();
    const rewards = Object.fromEntries((list.missions as Array<{ id: string; reward: unknown }>).map((m) => [m.id, m.reward]));
    expect(rewards.a).toEqual({ kind: 'currency', currency: 'gems', amount: 5, name: 'Gems', iconUrl: 'https://cdn.example.com/gems.png' });
    expect(rewards.b).toEqual({ kind: 'badge', badgeId: 'winter-badge', name: 'Winter badge' });
    await p.win();
    const claim = await p.client.post('/v1/missions/a/claim');
    expect(claim.status).toBe(200);
    expect((await claim.json()).reward).toMatchObject({ currency: 'gems', name: 'Gems' });
    const balance = await (await p.client.get('/v1/balance')).json();
    expect(balance.balances).toEqual([expect.objectContaining({ currency: 'gems', amount: 5, name: 'Gems' })]);
  });
});

describe('an app without the sections (every client before issue 39)', () => {
  it('keeps working: the catalog keeps its shape, its free-text currencies are listed as implied, grants stay free; a first section keeps what players hold', async () => {
    const app = await createTestApp(server, {
      missions: [mission('a', { kind: 'currency', currency: 'gold', amount: 5 }), mission('b', { kind: 'item', itemId: 'sword', quantity: 1 })],
      campaigns: [{ id: 'spring', title: 'Spring', startAt: 0, endAt: 4102444800000, budget: [{ currency: 'tickets', amount: 100 }] }],
    } as never);
    const p = await player(app);
    const grant = await asStaff(server, support.cookie, 'POST', `/api/admin/apps/${app.appId}/users/${p.userId}/grants`, { currency: 'Gold Coins', amount: 3, reason: 'legacy' });
    expect(grant.status).toBe(200);

    const doc = await adminCall<Record<string, unknown>>(server, 'GET', `/api/admin/apps/${app.appId}/catalog`);
    expect(Object.keys(doc.body).sort()).toEqual(['campaigns', 'missions']);
    const economy = await adminCall(server, 'GET', `/api/admin/apps/${app.appId}/economy`);
    expect(economy.body).toEqual({
      currencies: [
        { id: 'Gold Coins', name: 'Gold Coins', implied: true },
        { id: 'gold', name: 'gold', implied: true },
        { id: 'tickets', name: 'tickets', implied: true },
      ],
      items: [{ id: 'sword', name: 'sword', kind: 'item', implied: true }],
      defined: { currencies: false, items: false },
    });

    // A first currencies section (by PUT …/catalog, naming only what its own missions use) keeps the rest as implied definitions.
    const put = await putCatalog(app, { currencies: [{ id: 'gems', name: 'Gems' }], missions: [mission('c', gems(1))] });
    expect(put.status).toBe(200);
    expect((put.body.currencies as Array<{ id: string; name: string }>).map((c) => [c.id, c.name])).toEqual([
      ['Gold Coins', 'Gold Coins'],
      ['gems', 'Gems'],
      ['gold', 'gold'],
      ['tickets', 'tickets'],
    ]);
    expect(put.body.items).toBeUndefined();
    // Now defined: a grant of a currency the app does not define is refused with the nearest id, nothing written.
    const before = await counts(app.appId);
    const typo = await asStaff(server, support.cookie, 'POST', `/api/admin/apps/${app.appId}/users/${p.userId}/grants`, { currency: 'Gems', amount: 3, reason: 'typo' });
    expect(typo.status).toBe(400);
    expect(await typo.json()).toEqual({ error: 'validation_error', message: 'currency: "Gems" is not a currency of this app; did you mean "gems"?' });
    expect(await counts(app.appId)).toEqual(before);
    // A later PUT without the section adds what it names, name = id.
    expect((await putCatalog(app, { missions: [mission('d', { kind: 'currency', currency: 'stars', amount: 1 })] })).status).toBe(200);
    const after = await adminCall<{ currencies: Array<{ id: string }> }>(server, 'GET', `/api/admin/apps/${app.appId}/economy`);
    expect(after.body.currencies.find((c) => c.id === 'stars')).toEqual({ id: 'stars', name: 'stars', implied: false });
  });
});

describe('maxBalance', () => {
  it('refuses a grant or a claim past it (409 balance_limit, nothing written); a correction and a spend below it pass', async () => {
    const app = await createTestApp(server, { currencies: CURRENCIES, campaigns: [], missions: [mission('big', gems(100)), mission('small', gems(10), { criteria: { eventName: 'login', count: 1, window: 'lifetime' } })] } as never);
    const p = await player(app);
    const grantTo = (amount: number) => asStaff(server, support.cookie, 'POST', `/api/admin/apps/${app.appId}/users/${p.userId}/grants`, { currency: 'gems', amount, reason: 'ticket' });
    expect((await grantTo(100)).status).toBe(200);

    let before = await counts(app.appId);
    const past = await grantTo(51);
    expect(past.status).toBe(409);
    expect(await past.json()).toEqual({ error: 'balance_limit', message: 'A gems balance may hold at most 150 (the balance is 100); adding 51 would take it past that', limit: 150 });
    expect(await counts(app.appId)).toEqual(before);

    await p.win();
    before = await counts(app.appId);
    const claim = await p.client.post('/v1/missions/big/claim', undefined, { 'Idempotency-Key': uniqueId('k') });
    expect(claim.status).toBe(409);
    expect(await claim.json()).toMatchObject({ error: 'balance_limit', limit: 150 });
    expect(await counts(app.appId)).toEqual(before);

    // A correction lowers it; then the claim fits (exactly 150).
    expect((await grantTo(-50)).status).toBe(200);
    const fits = await p.client.post('/v1/missions/big/claim');
    expect(fits.status).toBe(200);
    expect((await fits.json()).balance).toMatchObject({ amount: 150 });

    // The limit lowered below the balance: a spend (which lowers it) still passes.
    expect((await putCatalog(app, { currencies: [{ ...CURRENCIES[0], maxBalance: 20 }] })).status).toBe(200);
    const spend = await fetch(`${server.url}/v1/balance/spend`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': uniqueId('k'), Authorization: `Basic ${Buffer.from(`${app.appId}:${app.appSecret}`).toString('base64')}` },
      body: JSON.stringify({ userId: p.userId, currency: 'gems', amount: 40 }),
    });
    expect(spend.status).toBe(200);
    expect((await spend.json()).balance.amount).toBe(110);
    expect((await grantTo(1)).status).toBe(409);
  });
});
