// Every support-desk route over real HTTP (embedded, or PostgreSQL/Redis with
// DATABASE_URL/REDIS_URL), route by route: who may call it (admin and support
// for the desk, admin alone for export and erasure, never an editor), what bad
// input answers (400 in the spec's { error, message } shape, the field named),
// and what a replay does (the first answer again under the same
// Idempotency-Key, 422 under the same key with another body). The behaviour of
// each route is in desk.test.ts and data-requests.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asStaff, signedInStaff, type TestStaff } from '@/lib/testing/staff';
import { createTestApp, issueToken, startTestServer, uniqueId, userClient, type TestApp, type TestServer } from '@/lib/testing/test-server';

let server: TestServer;
let staff: Record<'admin' | 'support' | 'editor', TestStaff>;
let app: TestApp;

const CATALOG = {
  campaigns: [],
  missions: [
    {
      id: 'ranked-wins',
      title: 'Win 2 ranked matches',
      criteria: { eventName: 'match_won', count: 2, window: 'lifetime' as const, filter: { mode: 'ranked' } },
      reward: { kind: 'currency' as const, currency: 'gold', amount: 25 },
    },
  ],
};

beforeAll(async () => {
  server = await startTestServer();
  staff = {
    admin: await signedInStaff(server, 'admin'),
    support: await signedInStaff(server, 'support'),
    editor: await signedInStaff(server, 'editor'),
  };
  app = await createTestApp(server, CATALOG);
});
afterAll(async () => server?.close());

const userPath = (userId: string) => `/api/admin/apps/${app.appId}/users/${encodeURIComponent(userId)}`;
const call = (role: keyof typeof staff, method: string, route: string, body?: unknown, headers: Record<string, string> = {}) =>
  asStaff(server, staff[role].cookie, method, route, body, headers);

/** A player with one counted event and 10 gold, so every route has something to act on. */
async function player(): Promise<string> {
  const userId = uniqueId('desk');
  const token = await issueToken(server, app, userId);
  expect((await userClient(server, token).post('/v1/events', { userId, name: 'match_won', payload: { mode: 'ranked' }, timestamp: Date.now() })).status).toBe(200);
  expect((await call('support', 'POST', `${userPath(userId)}/grants`, { currency: 'gold', amount: 10, reason: 'setup' })).status).toBe(200);
  return userId;
}

interface Route {
  name: string;
  method: string;
  path(userId: string): string;
  body?: unknown;
  /** The roles answered 200; every other one gets 403 forbidden. */
  allowed: Array<keyof typeof staff>;
}

const ROUTES: Route[] = [
  { name: 'find players', method: 'GET', path: () => `/api/admin/apps/${app.appId}/users?query=desk`, allowed: ['admin', 'support'] },
  { name: 'grant', method: 'POST', path: (u) => `${userPath(u)}/grants`, body: { currency: 'gold', amount: 5, reason: 'role check' }, allowed: ['admin', 'support'] },
  { name: 'correct', method: 'POST', path: (u) => `${userPath(u)}/grants`, body: { currency: 'gold', amount: -5, reason: 'role check' }, allowed: ['admin', 'support'] },
  { name: 'reset a mission', method: 'POST', path: (u) => `${userPath(u)}/missions/ranked-wins/reset`, body: { reason: 'role check' }, allowed: ['admin', 'support'] },
  { name: 'complete a mission', method: 'POST', path: (u) => `${userPath(u)}/missions/ranked-wins/complete`, body: { reason: 'role check' }, allowed: ['admin', 'support'] },
  { name: 'list notes', method: 'GET', path: (u) => `${userPath(u)}/notes`, allowed: ['admin', 'support'] },
  { name: 'add a note', method: 'POST', path: (u) => `${userPath(u)}/notes`, body: { text: 'role check' }, allowed: ['admin', 'support'] },
  { name: 'dry run', method: 'POST', path: (u) => `${userPath(u)}/events?dryRun=1`, body: { name: 'match_won', payload: { mode: 'ranked' } }, allowed: ['admin', 'support'] },
  { name: 'export', method: 'GET', path: (u) => `${userPath(u)}/export`, allowed: ['admin'] },
  { name: 'erase', method: 'DELETE', path: (u) => userPath(u), body: { reason: 'role check' }, allowed: ['admin'] },
];

describe('roles: support and admins run the desk, admins alone export and erase, editors none of it', () => {
  for (const route of ROUTES) {
    it(`${route.method} ${route.name}`, async () => {
      for (const role of ['editor', 'support', 'admin'] as const) {
        // A fresh player per role: a completion or an erasure happens once.
        const userId = await player();
        const res = await call(role, route.method, route.path(userId), route.body);
        if (route.allowed.includes(role)) {
          expect(res.status, `${role} ${route.name}: ${await res.clone().text()}`).toBe(200);
        } else {
          expect(res.status, `${role} ${route.name}`).toBe(403);
          expect(await res.json()).toMatchObject({ error: 'forbidden', message: expect.any(String) });
        }
      }
    });
  }

  it('a staff write is audited under the member who made it, admin or support', async () => {
    const userId = await player();
    expect((await call('admin', 'POST', `${userPath(userId)}/notes`, { text: 'by the admin' })).status).toBe(200);
    const audit = await (await call('support', 'GET', `/api/admin/audit?appId=${app.appId}&userId=${encodeURIComponent(userId)}`)).json();
    expect(audit.entries.map((e: { actor: string; action: string }) => [e.action, e.actor])).toEqual([
      ['user.note', `staff:${staff.admin.email}`],
      ['user.grant', `staff:${staff.support.email}`],
    ]);
  });
});

describe('bad input: 400 with the field named, nothing changed', () => {
  const cases: Array<{ name: string; method: string; path(userId: string): string; body?: unknown; raw?: string; error?: string; message: RegExp }> = [
    { name: 'search: limit over 100', method: 'GET', path: () => `/api/admin/apps/${app.appId}/users?limit=101`, message: /^query\.limit/ },
    { name: 'search: unknown parameter', method: 'GET', path: () => `/api/admin/apps/${app.appId}/users?q=x`, message: /^query/ },
    { name: 'search: a query over 256 characters', method: 'GET', path: () => `/api/admin/apps/${app.appId}/users?query=${'x'.repeat(257)}`, message: /^query\.query/ },
    { name: 'grant: amount not an integer', method: 'POST', path: (u) => `${userPath(u)}/grants`, body: { currency: 'gold', amount: 1.5, reason: 'half' }, message: /^amount/ },
    { name: 'grant: amount a string', method: 'POST', path: (u) => `${userPath(u)}/grants`, body: { currency: 'gold', amount: '5', reason: 'text' }, message: /^amount/ },
    { name: 'grant: no currency', method: 'POST', path: (u) => `${userPath(u)}/grants`, body: { amount: 5, reason: 'no currency' }, message: /^currency/ },
    { name: 'grant: a reason of 2 characters', method: 'POST', path: (u) => `${userPath(u)}/grants`, body: { currency: 'gold', amount: 5, reason: ' ok ' }, message: /^reason: say why/ },
    { name: 'grant: a reason over 500 characters', method: 'POST', path: (u) => `${userPath(u)}/grants`, body: { currency: 'gold', amount: 5, reason: 'x'.repeat(501) }, message: /^reason/ },
    { name: 'grant: not JSON', method: 'POST', path: (u) => `${userPath(u)}/grants`, raw: '{"currency":', message: /JSON/i },
    { name: 'grant: a JSON array', method: 'POST', path: (u) => `${userPath(u)}/grants`, body: [1], message: /./ },
    { name: 'reset: no reason', method: 'POST', path: (u) => `${userPath(u)}/missions/ranked-wins/reset`, body: {}, message: /^reason/ },
    { name: 'complete: reason not a string', method: 'POST', path: (u) => `${userPath(u)}/missions/ranked-wins/complete`, body: { reason: 42 }, message: /^reason/ },
    { name: 'note: empty text', method: 'POST', path: (u) => `${userPath(u)}/notes`, body: { text: '' }, message: /^text/ },
    { name: 'note: text over 2000 characters', method: 'POST', path: (u) => `${userPath(u)}/notes`, body: { text: 'x'.repeat(2001) }, message: /^text/ },
    { name: 'dry run: no event name', method: 'POST', path: (u) => `${userPath(u)}/events?dryRun=1`, body: { payload: {} }, message: /name/ },
    { name: 'dry run: dryRun=maybe', method: 'POST', path: (u) => `${userPath(u)}/events?dryRun=maybe`, body: { name: 'match_won' }, message: /dryRun/ },
    { name: 'erase: a reason of 2 characters', method: 'DELETE', path: (u) => userPath(u), body: { reason: 'no' }, message: /^reason: say why/ },
    { name: 'export: a user id over 256 characters', method: 'GET', path: () => `${userPath('u'.repeat(257))}/export`, message: /^userId/ },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const userId = await player();
      const res = c.raw
        ? await fetch(server.url + c.path(userId), { method: c.method, headers: { Cookie: staff.admin.cookie, Origin: server.url, 'Content-Type': 'application/json' }, body: c.raw })
        : await call('admin', c.method, c.path(userId), c.body);
      expect(res.status, await res.clone().text()).toBe(400);
      const body = await res.json();
      expect(Object.keys(body).sort()).toEqual(['error', 'message']);
      expect(body.error).toMatch(/^(validation_error|invalid_json)$/);
      expect(body.message).toMatch(c.message);
      // Nothing changed: the player still has their one event, 10 gold and no note.
      const doc = await (await call('admin', 'GET', `${userPath(userId)}/export`)).json();
      expect(doc.events).toHaveLength(1);
      expect(doc.balances).toEqual([expect.objectContaining({ currency: 'gold', amount: 10 })]);
      expect(doc.notes).toEqual([]);
    });
  }

  it('an unknown app answers 404 app_not_found and an unknown mission 404 mission_not_found', async () => {
    const userId = await player();
    const noApp = await call('support', 'POST', `/api/admin/apps/no-such-app-${uniqueId('x')}/users/${userId}/missions/ranked-wins/reset`, { reason: 'nowhere' });
    expect(noApp.status).toBe(404);
    expect(await noApp.json()).toMatchObject({ error: 'app_not_found' });
    const noMission = await call('support', 'POST', `${userPath(userId)}/missions/no-such-mission/complete`, { reason: 'nothing' });
    expect(noMission.status).toBe(404);
    expect(await noMission.json()).toMatchObject({ error: 'mission_not_found', message: expect.stringContaining('no-such-mission') });
  });
});

describe('replays under an Idempotency-Key: the first answer again, applied once; the key with another body 422', () => {
  const writes: Array<{ name: string; path(userId: string): string; body: unknown; other: unknown }> = [
    { name: 'grant', path: (u) => `${userPath(u)}/grants`, body: { currency: 'gold', amount: 3, reason: 'ticket 9' }, other: { currency: 'gold', amount: 4, reason: 'ticket 9' } },
    { name: 'correction', path: (u) => `${userPath(u)}/grants`, body: { currency: 'gold', amount: -3, reason: 'ticket 9' }, other: { currency: 'gold', amount: -4, reason: 'ticket 9' } },
    { name: 'reset', path: (u) => `${userPath(u)}/missions/ranked-wins/reset`, body: { reason: 'ticket 9' }, other: { reason: 'ticket 10' } },
    { name: 'complete', path: (u) => `${userPath(u)}/missions/ranked-wins/complete`, body: { reason: 'ticket 9' }, other: { reason: 'ticket 10' } },
    { name: 'note', path: (u) => `${userPath(u)}/notes`, body: { text: 'ticket 9' }, other: { text: 'ticket 10' } },
  ];
  for (const w of writes) {
    it(w.name, async () => {
      const userId = await player();
      const key = uniqueId('key');
      const first = await call('support', 'POST', w.path(userId), w.body, { 'Idempotency-Key': key });
      expect(first.status, await first.clone().text()).toBe(200);
      const again = await call('support', 'POST', w.path(userId), w.body, { 'Idempotency-Key': key });
      expect(again.status).toBe(200);
      expect(again.headers.get('x-idempotent-replay')).toMatch(/hit/);
      expect(await again.json()).toEqual(await first.json());
      const misuse = await call('support', 'POST', w.path(userId), w.other, { 'Idempotency-Key': key });
      expect(misuse.status).toBe(422);
      expect(await misuse.json()).toMatchObject({ error: 'idempotency_key_reused', message: expect.any(String) });
      // Applied once: one audit entry of this write (besides the setup grant).
      const audit = await (await call('support', 'GET', `/api/admin/audit?appId=${app.appId}&userId=${encodeURIComponent(userId)}`)).json();
      expect(audit.entries).toHaveLength(2);
      const doc = await (await call('admin', 'GET', `${userPath(userId)}/export`)).json();
      if (w.name === 'grant') expect(doc.balances[0].amount).toBe(13);
      if (w.name === 'correction') expect(doc.balances[0].amount).toBe(7);
      if (w.name === 'note') expect(doc.notes).toHaveLength(1);
    });
  }

  it('an erasure is idempotent by nature: a repeat erases nothing more and says so', async () => {
    const userId = await player();
    const first = await call('admin', 'DELETE', userPath(userId), { reason: 'GDPR request 5' });
    expect(first.status).toBe(200);
    expect((await first.json()).removed).toMatchObject({ events: 1, balances: 1 });
    const again = await call('admin', 'DELETE', userPath(userId), { reason: 'GDPR request 5' });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ erased: true, userId, removed: { events: 0, progress: 0, balances: 0, ledger: 0, notes: 0, idempotencyKeys: 0 } });
  });
});

describe('50 concurrent corrections from two staff members across two currencies', () => {
  it('never go below zero, and each balance equals the sum of its ledger', async () => {
    const userId = await player(); // 10 gold
    expect((await call('admin', 'POST', `${userPath(userId)}/grants`, { currency: 'gems', amount: 20, reason: 'setup' })).status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call(i % 2 ? 'admin' : 'support', 'POST', `${userPath(userId)}/grants`, { currency: i % 2 ? 'gems' : 'gold', amount: -3, reason: `correction ${i}` }, { 'Idempotency-Key': `c-${userId}-${i}` }),
      ),
    );
    const byCurrency = { gold: { ok: 0, refused: 0 }, gems: { ok: 0, refused: 0 } };
    for (const [i, res] of answers.entries()) {
      const tally = byCurrency[i % 2 ? 'gems' : 'gold'];
      if (res.status === 200) tally.ok++;
      else {
        expect(res.status).toBe(409);
        expect(await res.json()).toMatchObject({ error: 'insufficient_balance' });
        tally.refused++;
      }
    }
    // 10 gold pays three corrections of 3, 20 gems six; every other one is refused whole.
    expect(byCurrency).toEqual({ gold: { ok: 3, refused: 22 }, gems: { ok: 6, refused: 19 } });
    const doc = await (await call('admin', 'GET', `${userPath(userId)}/export`)).json();
    for (const [currency, expected] of [['gold', 1], ['gems', 2]] as const) {
      const rows = doc.ledger.filter((l: { currency: string }) => l.currency === currency);
      const balance = doc.balances.find((b: { currency: string }) => b.currency === currency).amount;
      expect(balance).toBe(expected);
      expect(rows.reduce((sum: number, l: { amount: number }) => sum + l.amount, 0)).toBe(balance);
      expect(Math.min(...rows.map((l: { balanceAfter: number }) => l.balanceAfter))).toBeGreaterThanOrEqual(0);
    }
  });
});

describe('GET /api/admin/audit?userId= (the audit log by player)', () => {
  it('lists what staff did to that player only, in that app, newest first; documented with an example', async () => {
    const [one, two] = [await player(), await player()];
    expect((await call('support', 'POST', `${userPath(one)}/notes`, { text: 'first player' })).status).toBe(200);
    expect((await call('support', 'POST', `${userPath(two)}/missions/ranked-wins/complete`, { reason: 'second player' })).status).toBe(200);
    const other = await createTestApp(server, CATALOG);
    expect((await call('support', 'POST', `/api/admin/apps/${other.appId}/users/${one}/grants`, { currency: 'gold', amount: 1, reason: 'same id, other app', createUser: true })).status).toBe(200);

    const page = await (await call('support', 'GET', `/api/admin/audit?appId=${app.appId}&userId=${encodeURIComponent(one)}`)).json();
    expect(page.entries.map((e: { action: string; target: string; appId: string }) => [e.action, e.target, e.appId])).toEqual([
      ['user.note', `user:${one}`, app.appId],
      ['user.grant', `user:${one}`, app.appId],
    ]);
    // Without appId: the same id in every app.
    const everywhere = await (await call('support', 'GET', `/api/admin/audit?userId=${encodeURIComponent(one)}`)).json();
    expect(everywhere.entries.map((e: { appId: string }) => e.appId).sort()).toEqual([app.appId, app.appId, other.appId].sort());
    const empty = await call('support', 'GET', '/api/admin/audit?userId=');
    expect(empty.status).toBe(400);
    expect((await empty.json()).message).toMatch(/^query\.userId/);
    expect((await call('editor', 'GET', `/api/admin/audit?userId=${one}`)).status).toBe(403);

    const doc = await (await fetch(`${server.url}/api/admin/openapi.json`)).json();
    const param = doc.paths['/api/admin/audit'].get.parameters.find((p: { name: string }) => p.name === 'userId');
    expect(param).toMatchObject({ in: 'query', example: 'player-42', description: expect.stringContaining('target=user:<userId>') });
  });
});
