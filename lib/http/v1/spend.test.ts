// POST /v1/balance/spend over real HTTP (embedded, or PostgreSQL + Redis when
// DATABASE_URL/REDIS_URL are set): the game backend spends with the app
// secret or the webhook signature, never a player token; ledger and balance
// move together, the stream and the outbound endpoints hear of it; refusals
// write nothing; a replay answers the same; 50 concurrent spends and claims on
// one player keep balance = Σ ledger and never below zero (split over two
// server processes when the stores are shared); and the SDK's spend().
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { balances, ledger } from '@/db/schema';
import { spend as sdkSpend } from '@/lib/sdk/backend';
import { InsufficientBalanceError, UserNotFoundError, ValidationError } from '@/lib/sdk/errors';
import { campaign, mission, newUser } from '@/lib/testing/fixtures';
import { sharedStores, startInstance, type Instance } from '@/lib/testing/instance';
import { startReceiver, type Receiver } from '@/lib/testing/receiver';
import { appRowCounts } from '@/lib/testing/row-counts';
import { openSse } from '@/lib/testing/sse-client';
import { createTestApp, startTestServer, uniqueId, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { sign } from '@/lib/testing/webhook';

let server: TestServer;
let receiver: Receiver;
const saved = process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE;
beforeAll(async () => {
  // The receiver listens on 127.0.0.1.
  process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE = '1';
  server = await startTestServer();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await server?.close();
  if (saved === undefined) delete process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE;
  else process.env.OUTBOUND_WEBHOOK_ALLOW_PRIVATE = saved;
});

const catalog = {
  campaigns: [campaign('winter', { budget: [{ currency: 'tickets', amount: 1000 }] })],
  missions: [
    mission('gems-a', { reward: { kind: 'currency', currency: 'gems', amount: 100 } }),
    mission('coins', { reward: { kind: 'currency', currency: 'coins', amount: 5 } }),
    mission('in-winter', { campaignId: 'winter', reward: { kind: 'badge', badgeId: 'snow' } }),
  ],
};

const basic = (app: TestApp) => `Basic ${Buffer.from(`${app.appId}:${app.appSecret}`).toString('base64')}`;

/** A spend's answer: the success fields, or an error's. */
interface SpendAnswer {
  balance: { userId: string; currency: string; amount: number; updatedAt: number };
  ledgerEntry: Record<string, unknown>;
  error?: string;
  message?: string;
}

interface SpendBody {
  userId: string;
  currency: string;
  amount: number;
  reason?: string;
  idempotencyKey?: string;
}

async function spendWith(base: string, app: TestApp, body: SpendBody | string, key: string | null, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/v1/balance/spend`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: basic(app), ...(key === null ? {} : { 'Idempotency-Key': key }), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as SpendAnswer };
}
const spendReq = (app: TestApp, body: SpendBody | string, key: string | null, headers: Record<string, string> = {}) => spendWith(server.url, app, body, key, headers);

/** A player with `gems` from one claim (100). */
async function playerWithGems(app: TestApp) {
  const user = await newUser(server, app);
  expect((await user.event('play')).status).toBe(200);
  expect((await user.claim('gems-a')).status).toBe(200);
  return user;
}

async function ledgerOf(appId: string, userId: string) {
  const db = await getDb();
  return db.select().from(ledger).where(and(eq(ledger.appId, appId), eq(ledger.userId, userId))).orderBy(asc(ledger.id));
}
async function balanceOf(appId: string, userId: string, currency: string) {
  const db = await getDb();
  const [row] = await db.select().from(balances).where(and(eq(balances.appId, appId), eq(balances.userId, userId), eq(balances.currency, currency)));
  return row?.amount ?? null;
}

describe('POST /v1/balance/spend', () => {
  it('takes the amount: 200 {balance, ledgerEntry} with actor backend and the reason; the ledger and balance agree; the stream and the endpoint get balance.changed', async () => {
    const app = await createTestApp(server, catalog);
    const endpoint = await fetch(`${server.url}/api/admin/apps/${app.appId}/endpoints`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.adminKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, events: ['balance.changed'] }),
    });
    expect(endpoint.status).toBe(201);
    const user = await playerWithGems(app);
    const stream = await openSse(`${server.url}/v1/sse/updates`, { Authorization: `Bearer ${user.token}` });
    await stream.waitFor((s) => s.raw.startsWith(': connected\n\n'), 'the connected comment');

    const res = await spendReq(app, { userId: user.userId, currency: 'gems', amount: 30, reason: 'shop: skin-ember' }, uniqueId('k'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.balance).toEqual({ userId: user.userId, currency: 'gems', amount: 70, updatedAt: expect.any(Number) });
    expect(res.body.ledgerEntry).toMatchObject({ kind: 'currency', currency: 'gems', amount: -30, balanceAfter: 70, actor: 'backend', reason: 'shop: skin-ember', missionId: null });

    const rows = await ledgerOf(app.appId, user.userId);
    expect(rows.map((r) => r.amount)).toEqual([100, -30]);
    expect(await balanceOf(app.appId, user.userId, 'gems')).toBe(70);

    await stream.waitFor((s) => s.updates.some((u) => u.type === 'balance.changed' && u.data.amount === 70), 'balance.changed 70');
    await stream.close();
    const mine = () => receiver.received.map((x) => JSON.parse(x.body) as { type: string; data: Record<string, unknown> }).filter((n) => n.data.userId === user.userId);
    await receiver.until(() => mine().some((n) => n.data.amount === 70), 15_000, 'the spend’s balance.changed');
    expect(mine().find((n) => n.data.amount === 70)).toMatchObject({ type: 'balance.changed', data: { currency: 'gems', amount: 70 } });
  });

  it('409 insufficient_balance writes nothing (rows counted), also for a currency the player holds none of', async () => {
    const app = await createTestApp(server, catalog);
    const user = await playerWithGems(app);
    const before = await appRowCounts([app.appId]);
    const res = await spendReq(app, { userId: user.userId, currency: 'gems', amount: 101 }, uniqueId('k'));
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('insufficient_balance');
    expect(res.body.message).toMatch(/100/);
    const none = await spendReq(app, { userId: user.userId, currency: 'coins', amount: 1 }, uniqueId('k'));
    expect([none.status, none.body.error]).toEqual([409, 'insufficient_balance']);
    expect(await appRowCounts([app.appId])).toEqual(before);
    expect(await balanceOf(app.appId, user.userId, 'gems')).toBe(100);
  });

  it('404 user_not_found for a user the app has never seen (even one another app knows)', async () => {
    const app = await createTestApp(server, catalog);
    const other = await createTestApp(server, catalog);
    const known = await playerWithGems(other);
    const before = await appRowCounts([app.appId]);
    for (const userId of [uniqueId('ghost'), known.userId]) {
      const res = await spendReq(app, { userId, currency: 'gems', amount: 1 }, uniqueId('k'));
      expect([res.status, res.body.error]).toEqual([404, 'user_not_found']);
    }
    expect(await appRowCounts([app.appId])).toEqual(before);
  });

  it('400 validation_error naming currency for a currency the app does not define, suggesting the nearest; a catalog budget or a held balance defines one', async () => {
    const app = await createTestApp(server, catalog);
    const user = await playerWithGems(app);
    const res = await spendReq(app, { userId: user.userId, currency: 'gem', amount: 1 }, uniqueId('k'));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('validation_error');
    expect(res.body.message).toBe('currency: "gem" is not a currency of this app (did you mean "gems"?)');
    const far = await spendReq(app, { userId: user.userId, currency: 'diamonds', amount: 1 }, uniqueId('k'));
    expect([far.status, far.body.error]).toEqual([400, 'validation_error']);
    expect(far.body.message).toMatch(/^currency: "diamonds" is not a currency of this app/);
    // Named by a campaign budget only: defined (the player holds none: 409, not 400).
    const budget = await spendReq(app, { userId: user.userId, currency: 'tickets', amount: 1 }, uniqueId('k'));
    expect([budget.status, budget.body.error]).toEqual([409, 'insufficient_balance']);
  });

  it('refuses a player token (401 unauthorized, clear message), no credentials, and a wrong secret (401 invalid_credentials); nothing written', async () => {
    const app = await createTestApp(server, catalog);
    const user = await playerWithGems(app);
    const before = await appRowCounts([app.appId]);
    const body = { userId: user.userId, currency: 'gems', amount: 1 };
    const player = await spendReq(app, body, uniqueId('k'), { Authorization: `Bearer ${user.token}` });
    expect(player.status).toBe(401);
    expect(player.body.error).toBe('unauthorized');
    expect(player.body.message).toMatch(/^A player token cannot spend/);
    const bare = await fetch(`${server.url}/v1/balance/spend`, { method: 'POST', headers: { 'Idempotency-Key': 'k1' }, body: JSON.stringify(body) });
    expect([bare.status, ((await bare.json()) as { error: string }).error]).toEqual([401, 'unauthorized']);
    const wrong = await spendReq(app, body, uniqueId('k'), { Authorization: basic({ ...app, appSecret: 'not-the-secret' }) });
    expect([wrong.status, wrong.body.error]).toEqual([401, 'invalid_credentials']);
    expect(await appRowCounts([app.appId])).toEqual(before);
  });

  it('accepts the webhook signature with the key inside the signed body; a captured request re-sent under another key is refused', async () => {
    const app = await createTestApp(server, catalog);
    const user = await playerWithGems(app);
    const key = uniqueId('k');
    const text = JSON.stringify({ userId: user.userId, currency: 'gems', amount: 10, idempotencyKey: key });
    const timestamp = String(Date.now());
    const signed = { Authorization: '', 'X-App-Id': app.appId, 'X-Webhook-Timestamp': timestamp, 'X-Webhook-Signature': sign(app.webhookSecret, timestamp, text) };
    const send = (k: string | null, headers = signed, body = text) =>
      fetch(`${server.url}/v1/balance/spend`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== '')), ...(k === null ? {} : { 'Idempotency-Key': k }) },
        body,
      });
    const ok = await send(key);
    expect(ok.status, await ok.clone().text()).toBe(200);
    expect(((await ok.json()) as { balance: { amount: number } }).balance.amount).toBe(90);
    // The same signed request again: the first answer (the key is in the body, the header may be left out).
    const again = await send(null);
    expect(again.status).toBe(200);
    expect(again.headers.get('x-idempotent-replay')).toBeTruthy();
    // The captured bytes under another header key: the header disagrees with the signed key.
    expect((await send(uniqueId('k'))).status).toBe(400);
    // A signed body without the key is refused, and a tampered body does not match.
    const bare = JSON.stringify({ userId: user.userId, currency: 'gems', amount: 10 });
    const bareSigned = { ...signed, 'X-Webhook-Signature': sign(app.webhookSecret, timestamp, bare) };
    expect((await send(uniqueId('k'), bareSigned, bare)).status).toBe(400);
    const tampered = await send(key, signed, text.replace('"amount":10', '"amount":90'));
    expect([tampered.status, ((await tampered.json()) as { error: string }).error]).toEqual([401, 'invalid_signature']);
    expect(await balanceOf(app.appId, user.userId, 'gems')).toBe(90);
  });

  it('requires the Idempotency-Key; a replay answers the same, once; the same key with another body is 422', async () => {
    const app = await createTestApp(server, catalog);
    const user = await playerWithGems(app);
    const body = { userId: user.userId, currency: 'gems', amount: 25, reason: 'potion' };
    const missing = await spendReq(app, body, null);
    expect([missing.status, missing.body.error]).toEqual([400, 'validation_error']);
    expect(missing.body.message).toMatch(/Idempotency-Key/);
    const key = uniqueId('k');
    const first = await spendReq(app, body, key);
    expect(first.status).toBe(200);
    const replay = await spendReq(app, body, key);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('x-idempotent-replay')).toMatch(/^(hit|db-hit)$/);
    const other = await spendReq(app, { ...body, amount: 26 }, key);
    expect([other.status, other.body.error]).toEqual([422, 'idempotency_key_reused']);
    expect((await ledgerOf(app.appId, user.userId)).map((r) => r.amount)).toEqual([100, -25]);
    expect(await balanceOf(app.appId, user.userId, 'gems')).toBe(75);
  });

  it('the SDK’s spend() against the real server: with the app secret, signed, and its typed errors', async () => {
    const app = await createTestApp(server, catalog);
    const user = await playerWithGems(app);
    const viaSecret = await sdkSpend({ baseUrl: server.url, appId: app.appId, appSecret: app.appSecret }, { userId: user.userId, currency: 'gems', amount: 40, reason: 'sdk' }, uniqueId('k'));
    expect(viaSecret.balance.amount).toBe(60);
    expect(viaSecret.ledgerEntry).toMatchObject({ amount: -40, actor: 'backend', reason: 'sdk' });
    const viaSignature = await sdkSpend({ baseUrl: server.url, appId: app.appId, webhookSecret: app.webhookSecret }, { userId: user.userId, currency: 'gems', amount: 10 }, uniqueId('k'));
    expect(viaSignature.balance.amount).toBe(50);
    const options = { baseUrl: server.url, appId: app.appId, appSecret: app.appSecret };
    await expect(sdkSpend(options, { userId: user.userId, currency: 'gems', amount: 51 }, uniqueId('k'))).rejects.toBeInstanceOf(InsufficientBalanceError);
    await expect(sdkSpend(options, { userId: uniqueId('ghost'), currency: 'gems', amount: 1 }, uniqueId('k'))).rejects.toBeInstanceOf(UserNotFoundError);
    await expect(sdkSpend(options, { userId: user.userId, currency: 'gem', amount: 1 }, uniqueId('k'))).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('50 concurrent spends and claims on one player' + (sharedStores ? ' over two instances' : ''), () => {
  let second: Instance | null = null;
  beforeAll(async () => {
    if (sharedStores) second = await startInstance('spend-B');
  }, 240_000);
  afterAll(async () => {
    await second?.close();
  });

  it('balance = Σ ledger after every row, never below zero; each spend either wrote a row or was refused 409', async () => {
    const claims = 25;
    const app = await createTestApp(server, {
      campaigns: [],
      missions: Array.from({ length: claims }, (_, i) => mission(`m${String(i).padStart(2, '0')}`, { reward: { kind: 'currency', currency: 'gems', amount: 10 } })),
    });
    const user = await newUser(server, app);
    expect((await user.event('play')).status).toBe(200);
    const bases = [server.url, second?.url ?? server.url];
    const racers = [
      ...Array.from({ length: claims }, (_, i) => async () => {
        const base = bases[i % 2];
        const res = await fetch(`${base}/v1/missions/m${String(i).padStart(2, '0')}/claim`, { method: 'POST', headers: { Authorization: `Bearer ${user.token}` } });
        return { kind: 'claim' as const, status: res.status, body: (await res.json()) as { error?: string } };
      }),
      ...Array.from({ length: 25 }, (_, i) => async () => {
        const res = await spendWith(bases[(i + 1) % 2], app, { userId: user.userId, currency: 'gems', amount: 15 }, uniqueId('race'));
        return { kind: 'spend' as const, status: res.status, body: res.body };
      }),
    ];
    const results = await Promise.all(racers.map((run) => run()));
    expect(results.filter((r) => r.kind === 'claim').map((r) => r.status)).toEqual(Array(claims).fill(200));
    const spends = results.filter((r) => r.kind === 'spend');
    for (const s of spends) {
      expect([200, 409]).toContain(s.status);
      if (s.status === 409) expect(s.body.error).toBe('insufficient_balance');
    }
    const spent = spends.filter((s) => s.status === 200).length;

    const rows = await ledgerOf(app.appId, user.userId);
    expect(rows).toHaveLength(claims + spent);
    let running = 0;
    for (const row of rows) {
      running += row.amount ?? 0;
      expect(running).toBeGreaterThanOrEqual(0);
      expect(row.balanceAfter).toBe(running);
    }
    expect(await balanceOf(app.appId, user.userId, 'gems')).toBe(running);
    expect(running).toBe(claims * 10 - spent * 15);
  }, 120_000);
});
