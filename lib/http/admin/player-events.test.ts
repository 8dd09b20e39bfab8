// GET /api/admin/apps/:appId/users/:userId/events over real HTTP (embedded, or
// PostgreSQL/Redis with DATABASE_URL/REDIS_URL): the Inspector reaches every
// stored event of a player, past the inspection's newest 50, a page at a time,
// filtered by event name and by a time range; bad input is named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InspectedEventPage, Inspection } from '@/lib/contract/inspector';
import { asStaff, signedInStaff, type TestStaff } from '@/lib/testing/staff';
import { createTestApp, issueToken, startTestServer, uniqueId, userClient, type TestApp, type TestServer } from '@/lib/testing/test-server';

let server: TestServer;
let support: TestStaff;
let editor: TestStaff;

beforeAll(async () => {
  server = await startTestServer();
  support = await signedInStaff(server, 'support');
  editor = await signedInStaff(server, 'editor');
});
afterAll(async () => server?.close());

const catalog = {
  campaigns: [],
  missions: [{ id: 'wins', title: 'Win 100', criteria: { eventName: 'match_won', count: 100, window: 'lifetime' as const }, reward: { kind: 'currency' as const, currency: 'gold', amount: 1 } }],
};
const COUNT = 62;
const userPath = (app: TestApp, userId: string) => `/api/admin/apps/${app.appId}/users/${encodeURIComponent(userId)}`;

/** A player with COUNT events one second apart (every third a level_up, the rest match_won); their ids, oldest first. */
async function playerWithEvents(app: TestApp): Promise<{ userId: string; base: number; names: string[] }> {
  const userId = uniqueId('player');
  const client = userClient(server, await issueToken(server, app, userId));
  const base = Date.now() - 3_600_000;
  const names: string[] = [];
  for (let i = 0; i < COUNT; i++) {
    const name = i % 3 === 0 ? 'level_up' : 'match_won';
    names.push(name);
    expect((await client.post('/v1/events', { userId, name, payload: { i }, timestamp: base + i * 1000 })).status).toBe(200);
  }
  return { userId, base, names };
}

async function page(app: TestApp, userId: string, query: string): Promise<InspectedEventPage> {
  const res = await asStaff(server, support.cookie, 'GET', `${userPath(app, userId)}/events${query ? `?${query}` : ''}`);
  expect(res.status).toBe(200);
  return (await res.json()) as InspectedEventPage;
}

/** Every page from `query` on, following nextCursor: the events' payload.i in order. */
async function allPages(app: TestApp, userId: string, query: string): Promise<{ order: number[]; pages: number }> {
  const order: number[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = query ? '&' : '';
    const answer: InspectedEventPage = await page(app, userId, `${query}${cursor ? `${sep}before=${encodeURIComponent(cursor)}` : ''}`);
    order.push(...answer.events.map((e) => e.payload.i as number));
    cursor = answer.nextCursor;
    pages++;
  } while (cursor && pages < 100);
  return { order, pages };
}

const descending = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => to - 1 - k);

describe('GET /api/admin/apps/:appId/users/:userId/events', () => {
  it('pages back past the inspection’s newest 50 to the first event, with verdicts, each event once', async () => {
    const app = await createTestApp(server, catalog);
    const { userId } = await playerWithEvents(app);
    const view = (await (await asStaff(server, support.cookie, 'GET', userPath(app, userId))).json()) as Inspection;
    expect(view.events.map((e) => e.payload.i)).toEqual(descending(COUNT - 50, COUNT));
    expect(view.eventsNextCursor).toEqual(expect.any(String));

    const older = await page(app, userId, `before=${encodeURIComponent(view.eventsNextCursor!)}`);
    expect(older.events.map((e) => e.payload.i)).toEqual(descending(0, COUNT - 50));
    expect(older.nextCursor).toBeNull();
    expect(older.events[0].verdicts).toEqual([expect.objectContaining({ missionId: 'wins' })]);

    // Small pages from the start reach the same events in the same order.
    expect(await allPages(app, userId, 'limit=7')).toEqual({ order: descending(0, COUNT), pages: Math.ceil(COUNT / 7) });
  });

  it('filters by event name and by a time range (from inclusive, to exclusive), paging within the filter', async () => {
    const app = await createTestApp(server, catalog);
    const { userId, base, names } = await playerWithEvents(app);
    const levelUps = descending(0, COUNT).filter((i) => names[i] === 'level_up');
    const byName = await allPages(app, userId, 'name=level_up&limit=8');
    expect(byName.order).toEqual(levelUps);
    expect(byName.pages).toBe(Math.ceil(levelUps.length / 8));

    const range = await page(app, userId, `from=${base + 10_000}&to=${base + 20_000}`);
    expect(range.events.map((e) => e.payload.i)).toEqual(descending(10, 20));
    expect(range.nextCursor).toBeNull();

    const both = await allPages(app, userId, `name=match_won&from=${base + 10_000}&to=${base + 30_000}&limit=4`);
    expect(both.order).toEqual(descending(10, 30).filter((i) => names[i] === 'match_won'));

    expect((await page(app, userId, 'name=never_sent')).events).toEqual([]);
  });

  it('names a bad parameter or cursor (400), refuses staff without the players capability (403), and answers an unknown player with no events', async () => {
    const app = await createTestApp(server, catalog);
    const path = `${userPath(app, uniqueId('player'))}/events`;
    for (const [query, field] of [
      ['before=nonsense', 'query.before'],
      ['from=yesterday', 'query.from'],
      ['limit=0', 'query.limit'],
      ['colour=red', 'query'],
    ] as const) {
      const res = await asStaff(server, support.cookie, 'GET', `${path}?${query}`);
      expect(res.status, query).toBe(400);
      expect((await res.json()).message, query).toMatch(new RegExp(`^${field.replace('.', '\\.')}`));
    }
    expect((await asStaff(server, editor.cookie, 'GET', path)).status).toBe(403);
    expect(await (await asStaff(server, support.cookie, 'GET', path)).json()).toEqual({ events: [], nextCursor: null });
  });
});
