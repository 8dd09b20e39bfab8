// subscribe() against the real service: live updates, 401, polling fallback, restart.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, issueToken, startTestServer, uniqueId, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { createQuestlineClient } from './client';
import { UnauthorizedError } from './errors';
import type { SubscriptionState, UpdateMeta } from './subscription';
import { listenOn, sdkCatalog, sleep, waitFor } from '@/lib/testing/sdk-fixtures';
import type { FetchLike, SdkUpdate } from './types';

let server: TestServer;
let app: TestApp;
const fast = { backoff: { baseMs: 50, maxMs: 400 }, pollIntervalMs: 150 };

beforeAll(async () => {
  server = await startTestServer();
  app = await createTestApp(server, sdkCatalog());
});
afterAll(async () => server?.close());

interface Recorder {
  updates: { update: SdkUpdate; meta: UpdateMeta }[];
  states: SubscriptionState[];
  errors: Error[];
  types(): string[];
  onUpdate(update: SdkUpdate, meta: UpdateMeta): void;
}
function recorder(): Recorder {
  const r: Recorder = {
    updates: [],
    states: [],
    errors: [],
    types: () =>
      r.updates.map((u) =>
        u.update.type === 'recommendation'
          ? 'recommendation'
          : `${u.update.type}:${'missionId' in u.update.data ? u.update.data.missionId : (u.update.data as { currency?: string }).currency}`,
      ),
    onUpdate: (update, meta) => r.updates.push({ update, meta }),
  };
  return r;
}

/** A fetch that records stream requests and can refuse the stream on demand. */
function spyFetch() {
  const spy = {
    streamRequests: [] as Headers[],
    refuseStream: false,
    /** Answers received by requests other than the stream (the polling fallback's reads). */
    otherAnswers: 0,
    /** Requests other than the stream still waiting for their whole answer. */
    otherPending: 0,
    fetch: (async (input, init) => {
      if (new URL(input).pathname === '/v1/sse/updates') {
        spy.streamRequests.push(new Headers(init?.headers));
        if (spy.refuseStream) throw new TypeError('fetch failed (refused by the test)');
        return globalThis.fetch(input, init);
      }
      spy.otherPending += 1;
      try {
        const res = await globalThis.fetch(input, init);
        await res.clone().arrayBuffer(); // the whole body is here before the caller reads it
        spy.otherAnswers += 1;
        return res;
      } finally {
        spy.otherPending -= 1;
      }
    }) as FetchLike,
  };
  return spy;
}

async function player() {
  const userId = uniqueId('player');
  const token = await issueToken(server, app, userId);
  return { userId, token };
}

describe('subscribe (fetch streaming)', () => {
  it('delivers progress, completion, reward and balance updates with ids', async () => {
    const { token } = await player();
    const spy = spyFetch();
    const client = createQuestlineClient({ baseUrl: server.url, token, fetch: spy.fetch });
    const rec = recorder();
    const sub = client.subscribe(rec.onUpdate, { onStateChange: (s) => rec.states.push(s) });
    await waitFor(() => sub.state === 'open', 30_000, 'open');
    expect(spy.streamRequests[0].get('authorization')).toBe(`Bearer ${token}`);
    // Cross-origin browsers preflight anything else: only CORS-allowed or safelisted headers.
    expect([...spy.streamRequests[0].keys()].every((h) => ['authorization', 'accept', 'last-event-id'].includes(h))).toBe(true);

    for (let i = 0; i < 3; i++) await client.sendEvent({ name: 'match' });
    await waitFor(() => rec.updates.length === 3, 30_000, '3 updates');
    await client.claimMission('three-matches');
    // The claim's own updates, then the recommendations it refreshed in the background.
    await waitFor(() => rec.updates.length === 6, 30_000, '6 updates');
    expect(rec.types()).toEqual([
      'mission.progress:three-matches',
      'mission.progress:three-matches',
      'mission.completed:three-matches',
      'reward.granted:three-matches',
      'balance.changed:gems',
      'recommendation',
    ]);
    expect(rec.updates.every((u) => u.meta.source === 'stream' && typeof u.meta.id === 'string')).toBe(true);
    expect(new Set(rec.updates.map((u) => u.meta.id)).size).toBe(6);
    expect(sub.lastEventId).toBe(rec.updates[5].meta.id);
    sub.close();
    expect(rec.states).toEqual(['open', 'closed']);
  });

  it('a 401 is fatal with a fixed token: UnauthorizedError, closed, no retry', async () => {
    const spy = spyFetch();
    const client = createQuestlineClient({ baseUrl: server.url, token: 'not-a-jwt', fetch: spy.fetch });
    const rec = recorder();
    const sub = client.subscribe(rec.onUpdate, { ...fast, onError: (e) => rec.errors.push(e) });
    await waitFor(() => sub.state === 'closed', 30_000, 'closed');
    await sleep(300);
    expect(spy.streamRequests).toHaveLength(1);
    expect(rec.errors).toHaveLength(1);
    expect(rec.errors[0]).toBeInstanceOf(UnauthorizedError);
  });

  it('a 401 reconnects when getToken answers a new token', async () => {
    const { token } = await player();
    let calls = 0;
    const client = createQuestlineClient({ baseUrl: server.url, getToken: () => (calls++ === 0 ? 'expired-or-bad' : token) });
    const errors: Error[] = [];
    const sub = client.subscribe(() => undefined, { ...fast, onError: (e) => errors.push(e) });
    await waitFor(() => sub.state === 'open', 30_000, 'open');
    expect(errors.map((e) => e.name)).toEqual(['UnauthorizedError']);
    sub.close();
  });

  // Rule (review #1): after a 401, one immediate retry per fresh token; a second consecutive 401 (even with yet
  // another new token) is fatal, like a fixed token's: no tight reconnect loop (it used to reach ~600 requests/s).
  it('a 401 with a new (but refused) token on every call: one immediate retry, then fatal', async () => {
    const spy = spyFetch();
    let n = 0;
    const client = createQuestlineClient({ baseUrl: server.url, getToken: () => `refused-${n++}`, fetch: spy.fetch });
    const rec = recorder();
    const sub = client.subscribe(rec.onUpdate, { ...fast, onError: (e) => rec.errors.push(e), onStateChange: (s) => rec.states.push(s) });
    try {
      await waitFor(() => sub.state === 'closed', 30_000, 'closed');
      await sleep(300);
      expect(spy.streamRequests.map((h) => h.get('authorization'))).toEqual(['Bearer refused-0', 'Bearer refused-1']);
      expect(rec.errors.map((e) => e.name)).toEqual(['UnauthorizedError', 'UnauthorizedError']);
      expect(rec.states.at(-1)).toBe('closed');
      // reconnect() restarts it, with the same single immediate retry.
      sub.reconnect();
      await waitFor(() => sub.state === 'closed', 30_000, 'closed again');
      await sleep(300);
      expect(spy.streamRequests).toHaveLength(4);
    } finally {
      sub.close();
    }
  });

  // Rule (review #4): an empty or blank lastEventId is no id: no empty Last-Event-ID header (which the server
  // reads as an unknown id and answers with a replay of the whole log).
  it('an empty or blank lastEventId sends no Last-Event-ID and replays nothing', async () => {
    const { token } = await player();
    const spy = spyFetch();
    const client = createQuestlineClient({ baseUrl: server.url, token, fetch: spy.fetch });
    await client.sendEvent({ name: 'login' }); // in the user's update log before any subscription
    // A marker event per round (a live message): a replay of the log would have come before it.
    for (const [lastEventId, marker, markerType] of [
      ['', 'win', 'mission.completed:badge-win'],
      ['  ', 'match', 'mission.progress:three-matches'],
    ]) {
      const rec = recorder();
      const sub = client.subscribe(rec.onUpdate, { ...fast, lastEventId });
      try {
        await waitFor(() => sub.state === 'open', 30_000, 'open');
        expect(spy.streamRequests.at(-1)!.has('last-event-id')).toBe(false);
        expect(sub.lastEventId).toBeNull();
        await client.sendEvent({ name: marker });
        await waitFor(() => rec.types().includes(markerType), 30_000, 'the marker');
        expect(rec.types()).toEqual([markerType]);
      } finally {
        sub.close();
      }
    }
  });
});

describe('polling fallback', () => {
  it('after 5 failures polls, synthesizes updates from differences, and stops when the stream is back', async () => {
    const { token } = await player();
    const spy = spyFetch();
    spy.refuseStream = true;
    const client = createQuestlineClient({ baseUrl: server.url, token, fetch: spy.fetch });
    const rec = recorder();
    const sub = client.subscribe(rec.onUpdate, { ...fast, onStateChange: (s) => rec.states.push(s) });
    await waitFor(() => sub.state === 'polling', 30_000, 'polling');
    expect(spy.streamRequests).toHaveLength(5);
    expect(rec.states).toEqual(['reconnecting', 'polling']);
    // The baseline poll has answered (a condition, not a fixed sleep: the machine may be loaded):
    // four answers of the fallback's reads span at least one whole poll.
    await waitFor(() => spy.otherAnswers >= 4, 30_000, 'the baseline poll');

    await client.sendEvent({ name: 'match' });
    await waitFor(() => rec.updates.length === 1, 30_000, 'progress');
    await client.sendEvent({ name: 'match' });
    await waitFor(() => rec.updates.length === 2, 30_000, 'progress 2');
    await client.sendEvent({ name: 'match' });
    await waitFor(() => rec.updates.length === 3, 30_000, 'completed');
    await client.claimMission('three-matches');
    await waitFor(() => rec.updates.length === 5, 30_000, 'claim');
    expect(rec.types()).toEqual([
      'mission.progress:three-matches',
      'mission.progress:three-matches',
      'mission.completed:three-matches',
      'reward.granted:three-matches',
      'balance.changed:gems',
    ]);
    expect(rec.updates.every((u) => u.meta.source === 'poll' && u.meta.id === null)).toBe(true);
    expect(rec.updates[3].update.data).toMatchObject({ reward: { kind: 'currency', currency: 'gems', amount: 50 } });
    expect(rec.updates[4].update.data).toMatchObject({ currency: 'gems', amount: 50 });
    expect(spy.streamRequests.length).toBeGreaterThan(5); // the stream is still tried in the background

    spy.refuseStream = false;
    const answersBeforeOpen = spy.otherAnswers;
    await waitFor(() => sub.state === 'open', 30_000, 'stream back');
    // The stream's return starts one last poll (missions, then balance): let it (and any poll
    // still in flight) answer first, or it could report the next event before the stream does.
    await waitFor(() => spy.otherPending === 0 && spy.otherAnswers >= answersBeforeOpen + 2, 30_000, 'the last poll');
    await sleep(50);
    const before = rec.updates.length;
    await client.sendEvent({ name: 'win' });
    await waitFor(() => rec.updates.length === before + 1, 30_000, 'stream update');
    await sleep(400);
    expect(rec.updates.slice(before).map((u) => [u.update.type, u.meta.source])).toEqual([['mission.completed', 'stream']]);
    expect(rec.updates).toHaveLength(6);
    sub.close();
  });
});

const serverResumes = /last-event-id/i.test(readFileSync(path.join(process.cwd(), 'lib/http/v1/sse.ts'), 'utf8'));

describe('server restart during a subscription', () => {
  it('reconnects to the restarted server with Last-Event-ID; nothing lost or repeated after resume', async () => {
    const { token } = await player();
    const port = Number(new URL(server.url).port);
    const spy = spyFetch();
    const client = createQuestlineClient({ baseUrl: server.url, token, fetch: spy.fetch });
    const rec = recorder();
    const sub = client.subscribe(rec.onUpdate, { ...fast, onStateChange: (s) => rec.states.push(s) });
    await waitFor(() => sub.state === 'open', 30_000, 'open');
    await client.sendEvent({ name: 'match' });
    await waitFor(() => rec.updates.length === 1, 30_000, 'first update');
    const lastId = rec.updates[0].meta.id;

    await server.close(); // connections, database, key-value store and bus all closed
    await waitFor(() => sub.state !== 'open', 30_000, 'drop noticed');
    const restarted = await listenOn(port); // same port, same data dir / DATABASE_URL / REDIS_URL
    try {
      await waitFor(() => sub.state === 'open', 30_000, 'reopened');
      expect(spy.streamRequests.at(-1)!.get('last-event-id')).toBe(lastId);
      await client.sendEvent({ name: 'match' });
      await client.sendEvent({ name: 'match' });
      await client.claimMission('three-matches');
      await waitFor(() => rec.updates.length >= 6, 30_000, 'updates after restart');
      // A marker (a later live message): a repeated message would have come before it.
      await client.sendEvent({ name: 'win' });
      await waitFor(() => rec.types().includes('mission.completed:badge-win'), 30_000, 'the marker');
      expect(rec.types()).toEqual([
        'mission.progress:three-matches',
        'mission.progress:three-matches',
        'mission.completed:three-matches',
        'reward.granted:three-matches',
        'balance.changed:gems',
        'recommendation',
        'mission.completed:badge-win',
      ]);
      const ids = rec.updates.map((u) => u.meta.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(rec.updates[2].update.data).toMatchObject({ currentCount: 3, status: 'completed' });
    } finally {
      sub.close();
      await restarted.stop();
    }
    server = await startTestServer(); // for afterAll and the next tests
  });

  it.skipIf(!serverResumes)('replays what was published while this server was down (resume by Last-Event-ID)', async () => {
    const { token } = await player();
    const down = await listenOn(0);
    const other = await listenOn(0); // a second instance sharing the database and bus
    const spy = spyFetch();
    const client = createQuestlineClient({ baseUrl: `http://127.0.0.1:${down.port}`, token, fetch: spy.fetch });
    const viaOther = createQuestlineClient({ baseUrl: `http://127.0.0.1:${other.port}`, token });
    const rec = recorder();
    const sub = client.subscribe(rec.onUpdate, { ...fast, failuresBeforePolling: 1000 });
    let back: Awaited<ReturnType<typeof listenOn>> | null = null;
    try {
      await waitFor(() => sub.state === 'open', 30_000, 'open');
      await viaOther.sendEvent({ name: 'match' });
      await waitFor(() => rec.updates.length === 1, 30_000, 'first');
      await down.stop();
      await waitFor(() => sub.state !== 'open', 30_000, 'drop');
      await viaOther.sendEvent({ name: 'match' });
      await viaOther.sendEvent({ name: 'match' });
      back = await listenOn(down.port);
      await waitFor(() => rec.updates.length >= 3, 30_000, 'replayed');
      await viaOther.claimMission('three-matches');
      await waitFor(() => rec.updates.length >= 6, 30_000, 'live after replay');
      // A marker (a later live message): a repeated message would have come before it.
      await viaOther.sendEvent({ name: 'win' });
      await waitFor(() => rec.types().includes('mission.completed:badge-win'), 30_000, 'the marker');
      expect(rec.types()).toEqual([
        'mission.progress:three-matches',
        'mission.progress:three-matches',
        'mission.completed:three-matches',
        'reward.granted:three-matches',
        'balance.changed:gems',
        'recommendation',
        'mission.completed:badge-win',
      ]);
      expect(new Set(rec.updates.map((u) => u.meta.id)).size).toBe(7);
    } finally {
      sub.close();
      await back?.stop();
      await other.stop();
    }
  });
});
