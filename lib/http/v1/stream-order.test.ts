// A user's updates reach the stream in commit order: each change takes the
// user's next sequence number inside its transaction (user_sequences, under
// the user's row lock) and is published after commit in sequence order
// (lib/updates/publish.ts, publishInOrder), so concurrent events of one user
// can never show a stream a later count before an earlier one.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getUpdateLog } from '@/lib/updates/log';
import { createTestApp, issueToken, startTestServer, userClient, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { openSse } from '@/lib/testing/sse-client';

let server: TestServer;
let app: TestApp;

beforeAll(async () => {
  server = await startTestServer();
  app = await createTestApp(server, {
    missions: [{ id: 'count', title: 'Count', criteria: { eventName: 'tick', count: 1000 }, reward: { kind: 'currency', currency: 'gold', amount: 1 } }],
  });
});
afterAll(async () => server?.close());

describe('stream order under concurrent events of one user', () => {
  it('delivers mission.progress with strictly increasing currentCount, one per event', async () => {
    const token = await issueToken(server, app, 'orderly');
    const api = userClient(server, token);
    const stream = await openSse(`${server.url}/v1/sse/updates`, { Authorization: `Bearer ${token}` });
    await stream.waitFor((s) => s.raw.startsWith(': connected'), 'the connected comment');
    const n = 40;
    const results = await Promise.all(
      Array.from({ length: n }, () => api.post('/v1/events', { userId: 'orderly', name: 'tick', payload: {}, timestamp: Date.now() })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    await stream.waitForMessages(n);
    const counts = stream.updates.map((u) => u.data.currentCount as number);
    expect(counts).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    await stream.close();
  });

  it('keeps commit order even when the first publish is slow', async () => {
    const token = await issueToken(server, app, 'slow-first');
    const api = userClient(server, token);
    const stream = await openSse(`${server.url}/v1/sse/updates`, { Authorization: `Bearer ${token}` });
    await stream.waitFor((s) => s.raw.startsWith(': connected'), 'the connected comment');
    const log = getUpdateLog();
    const original = log.appendAndPublish.bind(log);
    let calls = 0;
    let secondReached!: () => void;
    const secondAtLog = new Promise<void>((r) => (secondReached = r));
    const spy = vi.spyOn(log, 'appendAndPublish').mockImplementation(async (...args) => {
      calls += 1;
      // The first publish is held until the second has reached the log (evidence, not a 300 ms stall).
      if (calls === 1) await secondAtLog;
      else if (calls === 2) secondReached();
      return original(...args);
    });
    try {
      const send = () => api.post('/v1/events', { userId: 'slow-first', name: 'tick', payload: {}, timestamp: Date.now() });
      const first = send();
      // The first change is committed and held in its publish.
      await vi.waitFor(() => expect(calls).toBe(1), { timeout: 30_000, interval: 10 });
      const second = send();
      expect((await first).status).toBe(200);
      expect((await second).status).toBe(200);
      await stream.waitForMessages(2);
      expect(stream.updates.map((u) => u.data.currentCount)).toEqual([1, 2]);
    } finally {
      spy.mockRestore();
      await stream.close();
    }
  });
});
