// GET /v1/balance over real HTTP: all balances of the caller, or one currency.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, startTestServer, type TestServer } from '@/lib/testing/test-server';
import { mission, newUser } from '@/lib/testing/fixtures';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const catalog = {
  missions: [
    mission('gems-a', { reward: { kind: 'currency', currency: 'gems', amount: 5 } }),
    mission('gems-b', { reward: { kind: 'currency', currency: 'gems', amount: 7 } }),
    mission('coins', { reward: { kind: 'currency', currency: 'coins', amount: 100 } }),
    mission('badge', { reward: { kind: 'badge', badgeId: 'b' } }),
  ],
};

describe('GET /v1/balance', () => {
  it('answers {balances: []} before any claim', async () => {
    const app = await createTestApp(server, catalog);
    const user = await newUser(server, app);
    const { status, body } = await user.getJson('/v1/balance');
    expect(status).toBe(200);
    expect(body).toEqual({ balances: [] });
  });

  it('lists every currency of the caller, sorted by currency, with the summed amounts', async () => {
    const app = await createTestApp(server, catalog);
    const user = await newUser(server, app);
    const other = await newUser(server, app);
    await user.event('play');
    await other.event('play');
    for (const id of ['gems-a', 'coins', 'gems-b', 'badge']) expect((await user.claim(id)).status).toBe(200);
    expect((await other.claim('coins')).status).toBe(200);
    const { body } = await user.getJson<{ balances: Record<string, unknown>[] }>('/v1/balance');
    expect(body.balances).toEqual([
      { userId: user.userId, currency: 'coins', amount: 100, updatedAt: expect.any(Number) },
      { userId: user.userId, currency: 'gems', amount: 12, updatedAt: expect.any(Number) },
    ]);
  });

  it('answers {balance} for ?currency=gems', async () => {
    const app = await createTestApp(server, catalog);
    const user = await newUser(server, app);
    await user.event('play');
    await user.claim('gems-a');
    const { status, body } = await user.getJson('/v1/balance?currency=gems');
    expect(status).toBe(200);
    expect(body).toEqual({ balance: { userId: user.userId, currency: 'gems', amount: 5, updatedAt: expect.any(Number) } });
  });

  it('answers 404 balance_not_found for a currency the caller has no balance in', async () => {
    const app = await createTestApp(server, catalog);
    const user = await newUser(server, app);
    const other = await newUser(server, app);
    await other.event('play');
    await other.claim('gems-a');
    const { status, body } = await user.getJson<{ error: string }>('/v1/balance?currency=gems');
    expect(status).toBe(404);
    expect(body.error).toBe('balance_not_found');
  });

  it('answers 400 validation_error naming currency for an empty currency', async () => {
    const app = await createTestApp(server, catalog);
    const user = await newUser(server, app);
    const { status, body } = await user.getJson<{ error: string; message: string }>('/v1/balance?currency=');
    expect(status).toBe(400);
    expect(body.error).toBe('validation_error');
    expect(body.message).toMatch(/currency/);
  });
});
