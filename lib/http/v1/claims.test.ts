// POST /v1/missions/:id/claim over real HTTP: the answer, the refusals that
// change nothing, idempotency, exactly-once under concurrency, the ledger as
// the truth of balances, and the claims rate limit.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { getKv } from '@/lib/kv';
import { idempotencyCacheKey } from '@/lib/idempotency/run-idempotent';
import { balances, ledger, progress } from '@/db/schema';
import { createTestApp, issueToken, startTestServer, userClient, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { mission, newUser, type TestUser } from '@/lib/testing/fixtures';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

interface ClaimBody {
  progress: { userId: string; missionId: string; status: string; progress: number; currentCount: number; targetCount: number; updatedAt: number };
  balance: { userId: string; currency: string; amount: number; updatedAt: number } | null;
  reward: Record<string, unknown>;
}

async function ledgerRows(app: TestApp, userId: string) {
  const db = await getDb();
  return db.select().from(ledger).where(and(eq(ledger.appId, app.appId), eq(ledger.userId, userId)));
}

async function balanceRows(app: TestApp, userId: string) {
  const db = await getDb();
  return db.select().from(balances).where(and(eq(balances.appId, app.appId), eq(balances.userId, userId)));
}

async function progressRows(app: TestApp, userId: string) {
  const db = await getDb();
  return db.select().from(progress).where(and(eq(progress.appId, app.appId), eq(progress.userId, userId)));
}

/** Every balance equals the sum of its ledger rows and is never negative. */
async function expectBalancesMatchLedger(app: TestApp, userId: string): Promise<void> {
  const rows = await ledgerRows(app, userId);
  const sums = new Map<string, number>();
  for (const r of rows) if (r.kind === 'currency') sums.set(r.currency!, (sums.get(r.currency!) ?? 0) + r.amount!);
  const bal = await balanceRows(app, userId);
  expect(new Map(bal.map((b) => [b.currency, b.amount]))).toEqual(sums);
  for (const b of bal) expect(b.amount).toBeGreaterThanOrEqual(0);
}

/** Several tokens of one user: the claims limit is per JWT, so concurrency tests spread over them. */
async function clientsOf(app: TestApp, user: TestUser, n: number) {
  return Promise.all(Array.from({ length: n }, async () => userClient(server, await issueToken(server, app, user.userId))));
}

describe('a successful claim', () => {
  it('answers progress claimed (progress 1, currentCount = targetCount), the credited balance and the reward', async () => {
    const app = await createTestApp(server, { missions: [mission('m', { criteria: { eventName: 'play', count: 3 }, reward: { kind: 'currency', currency: 'gems', amount: 25 } })] });
    const user = await newUser(server, app);
    for (let i = 0; i < 3; i++) await user.event('play');
    const res = await user.claim('m');
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Idempotent-Replay')).toBeNull();
    const body = (await res.json()) as ClaimBody;
    expect(body.progress).toEqual({ userId: user.userId, missionId: 'm', status: 'claimed', progress: 1, currentCount: 3, targetCount: 3, updatedAt: expect.any(Number) });
    expect(body.balance).toEqual({ userId: user.userId, currency: 'gems', amount: 25, updatedAt: expect.any(Number) });
    expect(body.reward).toEqual({ kind: 'currency', currency: 'gems', amount: 25 });
    expect((await user.getJson<{ progress: { status: string } }>('/v1/missions/m')).body.progress.status).toBe('claimed');
    const rows = await ledgerRows(app, user.userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'currency', currency: 'gems', amount: 25, missionId: 'm', balanceAfter: 25 });
    await expectBalancesMatchLedger(app, user.userId);
  });

  it('answers balance null for item and badge rewards, writes a ledger row and changes no balance', async () => {
    const app = await createTestApp(server, {
      missions: [
        mission('item', { reward: { kind: 'item', itemId: 'sword', quantity: 2 } }),
        mission('badge', { reward: { kind: 'badge', badgeId: 'hero' } }),
      ],
    });
    const user = await newUser(server, app);
    await user.event('play');
    const item = (await (await user.claim('item')).json()) as ClaimBody;
    expect(item.balance).toBeNull();
    expect(item.reward).toEqual({ kind: 'item', itemId: 'sword', quantity: 2 });
    expect(item.progress.status).toBe('claimed');
    const badge = (await (await user.claim('badge')).json()) as ClaimBody;
    expect(badge.balance).toBeNull();
    expect(badge.reward).toEqual({ kind: 'badge', badgeId: 'hero' });
    const rows = await ledgerRows(app, user.userId);
    expect(rows.map((r) => ({ kind: r.kind, itemId: r.itemId, quantity: r.quantity, badgeId: r.badgeId })).sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { kind: 'badge', itemId: null, quantity: null, badgeId: 'hero' },
      { kind: 'item', itemId: 'sword', quantity: 2, badgeId: null },
    ]);
    expect(await balanceRows(app, user.userId)).toEqual([]);
    expect((await user.getJson<{ balances: unknown[] }>('/v1/balance')).body.balances).toEqual([]);
  });
});

describe('claims that are refused', () => {
  it('409 claim_not_ready with no record, while active, and when already claimed, changing nothing', async () => {
    const app = await createTestApp(server, { missions: [mission('none', { criteria: { eventName: 'never', count: 1 } }), mission('busy', { criteria: { eventName: 'step', count: 2 } }), mission('done')] });
    const user = await newUser(server, app);
    await user.event('step');
    await user.event('play');
    expect((await user.claim('done')).status).toBe(200);
    const ledgerBefore = await ledgerRows(app, user.userId);
    const balancesBefore = await balanceRows(app, user.userId);
    const progressBefore = await progressRows(app, user.userId);

    for (const id of ['none', 'busy', 'done']) {
      const res = await user.claim(id);
      expect(res.status, id).toBe(409);
      expect(((await res.json()) as { error: string }).error).toBe('claim_not_ready');
    }
    expect(await ledgerRows(app, user.userId)).toEqual(ledgerBefore);
    expect(await balanceRows(app, user.userId)).toEqual(balancesBefore);
    expect(await progressRows(app, user.userId)).toEqual(progressBefore);
    expect(progressBefore.find((p) => p.missionId === 'busy')).toMatchObject({ status: 'active', currentCount: 1 });
  });

  it('a second claim of a claimed mission says it is already claimed (code still claim_not_ready); an unfinished one says it is not completed', async () => {
    const app = await createTestApp(server, { missions: [mission('done'), mission('busy', { criteria: { eventName: 'step', count: 2 } })] });
    const user = await newUser(server, app);
    await user.event('play');
    await user.event('step');
    expect((await user.claim('done')).status).toBe(200);
    const again = await user.claim('done');
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: 'claim_not_ready', message: 'Mission "done" is already claimed' });
    const busy = await user.claim('busy');
    expect(await busy.json()).toEqual({ error: 'claim_not_ready', message: 'Mission "busy" is not completed' });
  });

  it('404 mission_not_found for an unknown mission', async () => {
    const app = await createTestApp(server, { missions: [mission('m')] });
    const user = await newUser(server, app);
    const res = await user.claim('ghost');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: string }).error).toBe('mission_not_found');
  });

  it('a 409 under an idempotency key stores nothing: the same key claims once the mission is completed', async () => {
    const app = await createTestApp(server, { missions: [mission('m')] });
    const user = await newUser(server, app);
    expect((await user.claim('m', 'k-early')).status).toBe(409);
    await user.event('play');
    const res = await user.claim('m', 'k-early');
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Idempotent-Replay')).toBeNull();
  });
});

describe('idempotent claims', () => {
  it('a replay with the same Idempotency-Key answers the same body with X-Idempotent-Replay: hit and grants nothing more', async () => {
    const app = await createTestApp(server, { missions: [mission('m')] });
    const user = await newUser(server, app);
    await user.event('play');
    const first = await user.claim('m', 'key-1');
    expect(first.status).toBe(200);
    const firstBody = await first.json();
    const replay = await user.claim('m', 'key-1');
    expect(replay.status).toBe(200);
    expect(replay.headers.get('X-Idempotent-Replay')).toBe('hit');
    expect(await replay.json()).toEqual(firstBody);
    expect(await ledgerRows(app, user.userId)).toHaveLength(1);
    expect((await balanceRows(app, user.userId))[0].amount).toBe(10);
  });

  it('after the response cache is gone, a replay answers the same bytes from the database with X-Idempotent-Replay: db-hit', async () => {
    const app = await createTestApp(server, { missions: [mission('m')] });
    const user = await newUser(server, app);
    await user.event('play');
    const first = await user.claim('m', 'key-db');
    expect(first.status).toBe(200);
    const firstText = await first.text();
    await getKv().del(idempotencyCacheKey(app.appId, user.userId, 'claim:key-db'));
    const replay = await user.claim('m', 'key-db');
    expect(replay.status).toBe(200);
    expect(replay.headers.get('X-Idempotent-Replay')).toBe('db-hit');
    expect(await replay.text()).toBe(firstText);
    expect(await ledgerRows(app, user.userId)).toHaveLength(1);
  });

  it('the same key used for another mission answers 422 idempotency_key_reused and changes nothing', async () => {
    const app = await createTestApp(server, { missions: [mission('a'), mission('b')] });
    const user = await newUser(server, app);
    await user.event('play');
    expect((await user.claim('a', 'shared')).status).toBe(200);
    const res = await user.claim('b', 'shared');
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: string }).error).toBe('idempotency_key_reused');
    expect((await progressRows(app, user.userId)).find((p) => p.missionId === 'b')?.status).toBe('completed');
    expect(await ledgerRows(app, user.userId)).toHaveLength(1);
  });

  it('keys are per user: another user may use the same key for their own claim', async () => {
    const app = await createTestApp(server, { missions: [mission('m')] });
    const alice = await newUser(server, app);
    const bob = await newUser(server, app);
    await alice.event('play');
    await bob.event('play');
    expect((await alice.claim('m', 'same')).status).toBe(200);
    const res = await bob.claim('m', 'same');
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Idempotent-Replay')).toBeNull();
    expect(((await res.json()) as ClaimBody).progress.userId).toBe(bob.userId);
  });
});

describe('exactly once under concurrency', () => {
  it('50 concurrent claims of one completed mission: exactly one 200, the others 409, the balance credited once', async () => {
    const app = await createTestApp(server, { missions: [mission('m', { reward: { kind: 'currency', currency: 'gems', amount: 100 } })] });
    const user = await newUser(server, app);
    await user.event('play');
    const clients = await clientsOf(app, user, 5);
    const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => clients[i % 5].post('/v1/missions/m/claim')));
    const statuses = responses.map((r) => r.status);
    const bodies = await Promise.all(responses.map((r) => r.json() as Promise<Record<string, unknown>>));
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    for (const [i, b] of bodies.entries()) if (statuses[i] === 409) expect(b.error).toBe('claim_not_ready');
    expect((await balanceRows(app, user.userId)).map((b) => b.amount)).toEqual([100]);
    expect(await ledgerRows(app, user.userId)).toHaveLength(1);
    await expectBalancesMatchLedger(app, user.userId);
  });

  it('50 concurrent claims with the same Idempotency-Key: one grant and 50 identical 200 bodies', async () => {
    const app = await createTestApp(server, { missions: [mission('m', { reward: { kind: 'currency', currency: 'gems', amount: 100 } })] });
    const user = await newUser(server, app);
    await user.event('play');
    const clients = await clientsOf(app, user, 5);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => clients[i % 5].post('/v1/missions/m/claim', undefined, { 'Idempotency-Key': 'race' })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(200));
    // Byte for byte, whether replayed from the cache (hit) or from the database (db-hit).
    const bodies = await Promise.all(responses.map((r) => r.text()));
    expect(new Set(bodies).size).toBe(1);
    const replays = responses.map((r) => r.headers.get('X-Idempotent-Replay'));
    expect(replays.filter((h) => h === null)).toHaveLength(1);
    for (const h of replays) if (h !== null) expect(['hit', 'db-hit']).toContain(h);
    expect(await ledgerRows(app, user.userId)).toHaveLength(1);
    expect((await balanceRows(app, user.userId)).map((b) => b.amount)).toEqual([100]);
  });

  it('balances always equal the sum of their ledger rows across many claims and currencies', async () => {
    const app = await createTestApp(server, {
      missions: [
        mission('g1', { reward: { kind: 'currency', currency: 'gems', amount: 3 } }),
        mission('g2', { reward: { kind: 'currency', currency: 'gems', amount: 4 } }),
        mission('c1', { reward: { kind: 'currency', currency: 'coins', amount: 50 } }),
        mission('i1', { reward: { kind: 'item', itemId: 'x', quantity: 1 } }),
      ],
    });
    const user = await newUser(server, app);
    await user.event('play');
    await Promise.all(['g1', 'g2', 'c1', 'i1', 'g1', 'c1'].map((id) => user.claim(id)));
    const bal = await balanceRows(app, user.userId);
    expect(new Map(bal.map((b) => [b.currency, b.amount]))).toEqual(new Map([['gems', 7], ['coins', 50]]));
    await expectBalancesMatchLedger(app, user.userId);
    // The ledger's balanceAfter is the running sum per currency.
    const gems = (await ledgerRows(app, user.userId)).filter((r) => r.currency === 'gems').sort((a, b) => a.id - b.id);
    expect(gems.map((r) => r.balanceAfter)).toEqual([gems[0].amount, 7]);
  });
});

describe('claims rate limit', () => {
  it('allows 30 claims per 60 s per JWT (409s count too); the 31st gets 429 rate_limited with Retry-After', async () => {
    const app = await createTestApp(server, { missions: [mission('never', { criteria: { eventName: 'never', count: 1 } })] });
    const user = await newUser(server, app);
    // The sliding window weighs the previous 60 s window by the time left in it
    // and rounds down, so a run that crosses a window boundary may see one
    // request counted as none: 30 or 31 answers before the 429, never fewer or more.
    let accepted = 0;
    let res = await user.claim('never');
    while (res.status !== 429) {
      expect(res.status).toBe(409);
      expect(res.headers.get('RateLimit-Limit')).toBe('30');
      const remaining = Number(res.headers.get('RateLimit-Remaining'));
      expect(remaining).toBeGreaterThanOrEqual(Math.max(0, 29 - accepted));
      expect(remaining).toBeLessThanOrEqual(30 - accepted);
      accepted++;
      expect(accepted).toBeLessThanOrEqual(31);
      res = await user.claim('never');
    }
    expect(accepted).toBeGreaterThanOrEqual(30);
    const body = (await res.json()) as { error: string; retryAfterMs: number };
    expect(body.error).toBe('rate_limited');
    expect(body.retryAfterMs).toBeGreaterThan(0);
    expect(body.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(Number(res.headers.get('Retry-After'))).toBe(Math.ceil(body.retryAfterMs / 1000));
    // Per JWT: a fresh token of the same user is not limited.
    const fresh = userClient(server, await issueToken(server, app, user.userId));
    expect((await fresh.post('/v1/missions/never/claim')).status).toBe(409);
  });
});
