// Tenancy and user isolation over real HTTP: a user never sees or changes
// another user's progress, and a token of one app never sees another app's
// missions or data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  issueToken,
  startTestServer,
  uniqueId,
  userClient,
  type TestApp,
  type TestServer,
} from '@/lib/testing/test-server';

type Client = ReturnType<typeof userClient>;
interface Progress {
  userId: string;
  missionId: string;
  status: string;
  currentCount: number;
}

let server: TestServer;
let appA: TestApp;
let appB: TestApp;

const reward = { kind: 'currency' as const, currency: 'gold', amount: 10 };
const ONE = { id: 'm-one', title: 'One win', criteria: { eventName: 'win', count: 1 }, reward };
const THREE = { id: 'm-three', title: 'Three wins', criteria: { eventName: 'win', count: 3 }, reward };
const ONLY_A = { id: 'm-only-a', title: 'Only in A', criteria: { eventName: 'win', count: 1 }, reward };
const ONLY_B = { id: 'm-only-b', title: 'Only in B', criteria: { eventName: 'win', count: 1 }, reward };
// Same id in both apps, different definitions.
const SHARED_A = { id: 'm-shared', title: 'Shared (A)', criteria: { eventName: 'win', count: 2 }, reward };
const SHARED_B = { id: 'm-shared', title: 'Shared (B)', criteria: { eventName: 'win', count: 5 }, reward };

beforeAll(async () => {
  server = await startTestServer();
  appA = await createTestApp(server, { missions: [ONE, THREE, ONLY_A, SHARED_A] });
  appB = await createTestApp(server, { missions: [ONLY_B, SHARED_B] });
});
afterAll(async () => {
  await server?.close();
});

async function user(app: TestApp, userId = uniqueId('user')): Promise<{ userId: string; client: Client }> {
  return { userId, client: userClient(server, await issueToken(server, app, userId)) };
}
const win = (userId: string) => ({ userId, name: 'win', payload: {}, timestamp: Date.now() });

async function fire(u: { userId: string; client: Client }, times = 1): Promise<void> {
  for (let i = 0; i < times; i++) expect((await u.client.post('/v1/events', win(u.userId))).status).toBe(200);
}
async function progressOf(client: Client, missionId: string): Promise<Progress | null> {
  const res = await client.get(`/v1/missions/${missionId}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { progress: Progress | null }).progress;
}
async function listProgress(client: Client): Promise<Record<string, Progress>> {
  const res = await client.get('/v1/missions');
  expect(res.status).toBe(200);
  return ((await res.json()) as { progress: Record<string, Progress> }).progress;
}

describe('user isolation', () => {
  it("a user does not see another user's progress (single mission and list)", async () => {
    const alice = await user(appA);
    const bob = await user(appA);
    await fire(alice, 2);
    expect((await progressOf(alice.client, THREE.id))?.currentCount).toBe(2);
    expect(await progressOf(bob.client, THREE.id)).toBeNull();
    expect(await progressOf(bob.client, ONE.id)).toBeNull();
    expect(await listProgress(bob.client)).toEqual({});
    const aliceList = await listProgress(alice.client);
    expect(Object.values(aliceList).every((p) => p.userId === alice.userId)).toBe(true);
  });

  it("a user cannot claim a mission another user completed (409 claim_not_ready), and the owner's reward stays claimable", async () => {
    const alice = await user(appA);
    const bob = await user(appA);
    await fire(alice);
    expect((await progressOf(alice.client, ONE.id))?.status).toBe('completed');

    const stolen = await bob.client.post(`/v1/missions/${ONE.id}/claim`);
    expect(stolen.status).toBe(409);
    expect(((await stolen.json()) as { error: string }).error).toBe('claim_not_ready');
    expect(((await (await bob.client.get('/v1/balance')).json()) as { balances: unknown[] }).balances).toEqual([]);
    expect((await progressOf(alice.client, ONE.id))?.status).toBe('completed');

    const claimed = await alice.client.post(`/v1/missions/${ONE.id}/claim`);
    expect(claimed.status).toBe(200);
    const body = (await claimed.json()) as { progress: Progress; balance: { userId: string; amount: number } };
    expect(body.progress.userId).toBe(alice.userId);
    expect(body.balance).toMatchObject({ userId: alice.userId, amount: 10 });
    expect(((await (await bob.client.get('/v1/balance')).json()) as { balances: unknown[] }).balances).toEqual([]);
  });

  it("events of user A never change user B's progress", async () => {
    const alice = await user(appA);
    const bob = await user(appA);
    await fire(bob);
    await fire(alice, 3);
    expect((await progressOf(bob.client, THREE.id))?.currentCount).toBe(1);
    expect((await progressOf(bob.client, SHARED_A.id))?.currentCount).toBe(1);
    expect((await progressOf(alice.client, THREE.id))?.currentCount).toBe(3);
    expect((await progressOf(alice.client, THREE.id))?.status).toBe('completed');
    expect((await progressOf(bob.client, THREE.id))?.status).toBe('active');
  });

  it("a user cannot post events as another user (403 user_mismatch) and the other's progress is untouched", async () => {
    const alice = await user(appA);
    const bob = await user(appA);
    const res = await alice.client.post('/v1/events', win(bob.userId));
    expect(res.status).toBe(403);
    expect(await progressOf(bob.client, ONE.id)).toBeNull();
  });
});

describe('app isolation', () => {
  it("GET /v1/missions/:id of another app's mission answers 404 mission_not_found", async () => {
    const a = await user(appA);
    const b = await user(appB);
    for (const [client, id] of [
      [a.client, ONLY_B.id],
      [b.client, ONLY_A.id],
      [b.client, THREE.id],
    ] as const) {
      const res = await client.get(`/v1/missions/${id}`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: string }).error).toBe('mission_not_found');
    }
  });

  it("lists only the token's own app's missions, with that app's definition of a shared id", async () => {
    const a = await user(appA);
    const b = await user(appB);
    const listA = (await (await a.client.get('/v1/missions')).json()) as { missions: { id: string; title: string }[] };
    const listB = (await (await b.client.get('/v1/missions')).json()) as { missions: { id: string; title: string }[] };
    expect(listA.missions.map((m) => m.id).sort()).toEqual([ONE.id, THREE.id, ONLY_A.id, SHARED_A.id].sort());
    expect(listB.missions.map((m) => m.id).sort()).toEqual([ONLY_B.id, SHARED_B.id].sort());
    expect(listA.missions.find((m) => m.id === 'm-shared')?.title).toBe('Shared (A)');
    expect(listB.missions.find((m) => m.id === 'm-shared')?.title).toBe('Shared (B)');
  });

  it("a claim of another app's mission answers 404 mission_not_found", async () => {
    const b = await user(appB);
    await fire(b);
    const res = await b.client.post(`/v1/missions/${ONLY_A.id}/claim`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: string }).error).toBe('mission_not_found');
  });

  it("the same userId in two apps has separate progress and balances: one app's events and claims never change the other's", async () => {
    const userId = uniqueId('same-user');
    const inA = await user(appA, userId);
    const inB = await user(appB, userId);
    await fire(inB, 2);
    expect((await progressOf(inB.client, SHARED_B.id))?.currentCount).toBe(2);
    expect(await progressOf(inA.client, SHARED_A.id)).toBeNull();
    expect(await listProgress(inA.client)).toEqual({});

    expect((await inB.client.post(`/v1/missions/${ONLY_B.id}/claim`)).status).toBe(200);
    expect(((await (await inA.client.get('/v1/balance')).json()) as { balances: unknown[] }).balances).toEqual([]);
    // A's mission with the same id as B's completed one is not claimable in A.
    const res = await inA.client.post(`/v1/missions/${SHARED_A.id}/claim`);
    expect(res.status).toBe(409);

    await fire(inA);
    expect((await progressOf(inA.client, SHARED_A.id))?.currentCount).toBe(1);
    expect((await progressOf(inB.client, SHARED_B.id))?.currentCount).toBe(2);
  });

  it("revoking a token in one app does not affect the same user's token in another app", async () => {
    const userId = uniqueId('same-user');
    const inA = await user(appA, userId);
    const inB = await user(appB, userId);
    expect((await inA.client.post('/v1/auth/revoke')).status).toBe(200);
    expect((await inA.client.get('/v1/missions')).status).toBe(401);
    expect((await inB.client.get('/v1/missions')).status).toBe(200);
  });
});

describe('tenancy: ids containing the key separator', () => {
  // App "X" with user "steam:1" and app "X:steam" with user "1" once shared
  // every key-value key (idempotency cache, revocations, update channel).
  async function appWithId(id: string): Promise<TestApp> {
    const headers = { Authorization: `Bearer ${server.adminKey}`, 'Content-Type': 'application/json' };
    const created = await fetch(`${server.url}/api/admin/apps`, { method: 'POST', headers, body: JSON.stringify({ id, name: id }) });
    expect(created.status).toBe(201);
    const { appSecret, webhookSecret } = (await created.json()) as { appSecret: string; webhookSecret: string };
    const put = await fetch(`${server.url}/api/admin/apps/${encodeURIComponent(id)}/catalog`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ missions: [ONE] }),
    });
    expect(put.status).toBe(200);
    return { appId: id, appSecret, webhookSecret };
  }

  it('a claim replay of one app never answers another app’s user with the same joined key', async () => {
    const base = uniqueId('X');
    const first = await appWithId(base);
    const second = await appWithId(`${base}:steam`);
    const a = userClient(server, await issueToken(server, first, 'steam:1'));
    const b = userClient(server, await issueToken(server, second, '1'));
    for (const [client, userId] of [[a, 'steam:1'], [b, '1']] as const) {
      const res = await client.post('/v1/events', { userId, name: 'win', payload: {}, timestamp: Date.now() });
      expect(res.status).toBe(200);
    }
    const claimA = await a.post('/v1/missions/m-one/claim', undefined, { 'Idempotency-Key': 'k' });
    expect(claimA.status).toBe(200);
    const claimB = await b.post('/v1/missions/m-one/claim', undefined, { 'Idempotency-Key': 'k' });
    expect(claimB.status).toBe(200);
    expect(claimB.headers.get('x-idempotent-replay')).toBeNull();
    expect(((await claimB.json()) as { progress: { userId: string } }).progress.userId).toBe('1');
  });

  it('an event key "claim:x" and a claim key "x" of one user are different keys', async () => {
    const { userId, client } = await user(appA);
    expect((await client.post('/v1/events', { userId, name: 'win', payload: {}, timestamp: Date.now() }, { 'Idempotency-Key': 'claim:x' })).status).toBe(200);
    const claim = await client.post('/v1/missions/m-one/claim', undefined, { 'Idempotency-Key': 'x' });
    expect(claim.status).toBe(200);
    expect(claim.headers.get('x-idempotent-replay')).toBeNull();
  });
});
