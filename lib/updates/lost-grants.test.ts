// A publish whose append Redis (or the embedded log) applied but whose reply
// came too late (REDIS_COMMAND_TIMEOUT_MS) counts as failed: the repair looks
// for its reward.granted in the log and must find it there, not send it twice.
// Runs over real HTTP on the backend of the pass (embedded, or PostgreSQL + Redis).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MissionInput } from '@/lib/contract/mission';
import { authHeaders } from '@/lib/testing/fault-client';
import { waitUntil } from '@/lib/testing/faults';
import { createTestApp, issueToken, startTestServer, uniqueId, type TestServer } from '@/lib/testing/test-server';
import { getUpdateLog, userLogKey } from './log';
import { resyncFigures } from './resync';

const mission: MissionInput = { id: 'once', title: 'Play once', criteria: { eventName: 'play', count: 1 }, reward: { kind: 'currency', currency: 'gems', amount: 1 } };
/** Longer than the log's clock slack (5 s), as a command timeout may be. */
const LATE_REPLY_MS = 6_000;

describe('a grant whose append was applied but answered too late', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await server?.close();
  });

  it('is in the log once after the repair', async () => {
    const app = await createTestApp(server, { missions: [mission], campaigns: [] });
    const userId = uniqueId('late-reply');
    const token = await issueToken(server, app, userId);
    const played = await fetch(`${server.url}/v1/events`, {
      method: 'POST',
      headers: authHeaders(token, uniqueId('play')),
      body: JSON.stringify({ userId, name: 'play', payload: {}, timestamp: Date.now() }),
    });
    expect(played.status).toBe(200);

    const log = getUpdateLog();
    const append = log.appendAndPublish.bind(log);
    let lateReplies = 0;
    vi.spyOn(log, 'appendAndPublish').mockImplementation(async (...args) => {
      const applied = await append(...args);
      if (!args[2].some((u) => u.includes('"reward.granted"'))) return applied;
      // Applied; the reply is lost after a long wait.
      lateReplies += 1;
      await new Promise((r) => setTimeout(r, LATE_REPLY_MS));
      throw new Error('Command timed out');
    });
    const repairsBefore = resyncFigures().repairs;
    const claim = await fetch(`${server.url}/v1/missions/once/claim`, { method: 'POST', headers: authHeaders(token, uniqueId('claim')) });
    expect(claim.status).toBe(200);
    expect(lateReplies).toBe(1);
    vi.restoreAllMocks();

    await waitUntil(() => resyncFigures().repairs > repairsBefore && resyncFigures().repairsPending === 0, 'the repair to be over', 60_000);
    const grants = (await getUpdateLog().readAfter(userLogKey(app.appId, userId), null)).filter((e) => e.update.includes('"reward.granted"'));
    expect(grants).toHaveLength(1);
  }, 120_000);
});
