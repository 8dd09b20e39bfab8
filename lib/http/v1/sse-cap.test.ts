// SSE_MAX_STREAMS_PER_USER: one app+user holds at most that many streams on
// an instance; one more answers 429 too_many_streams with Retry-After, and
// the SDK treats it as a retryable failure (backs off, then connects).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuestlineClient, QuestlineError } from '@/lib/sdk';
import type { SubscriptionState } from '@/lib/sdk';
import { openSse, type SseStream } from '@/lib/testing/sse-client';
import { createTestApp, issueToken, startTestServer, uniqueId, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { openStreamCount } from './sse';

const MAX = 3;
let server: TestServer;
let app: TestApp;
const open: SseStream[] = [];

beforeAll(async () => {
  process.env.SSE_MAX_STREAMS_PER_USER = String(MAX);
  server = await startTestServer();
  app = await createTestApp(server);
});
afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
  await server?.close();
});

async function stream(token: string): Promise<SseStream> {
  const s = await openSse(`${server.url}/v1/sse/updates`, { Authorization: `Bearer ${token}` });
  open.push(s);
  if (s.response.status === 200) await s.waitFor((x) => x.raw.startsWith(': connected'), 'connected');
  return s;
}

async function waitUntil(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('streams per user (SSE_MAX_STREAMS_PER_USER)', () => {
  it(`holds ${MAX} streams of one user; the next answers 429 too_many_streams with Retry-After; other users are not affected`, async () => {
    const userId = uniqueId('u');
    const token = await issueToken(server, app, userId);
    const held = [];
    for (let i = 0; i < MAX; i++) held.push(await stream(token));
    expect(held.map((s) => s.response.status)).toEqual(Array(MAX).fill(200));

    // Another token of the same user counts too: the cap is per app and user, not per token.
    const refused = await stream(await issueToken(server, app, userId));
    expect(refused.response.status).toBe(429);
    expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.response.headers.get('x-request-id')).toBeTruthy();
    const body = (await refused.response.json()) as { error: string; message: string; retryAfterMs: number };
    expect(body.error).toBe('too_many_streams');
    expect(body.retryAfterMs).toBe(Number(refused.response.headers.get('retry-after')) * 1000);

    const other = await stream(await issueToken(server, app, uniqueId('u')));
    expect(other.response.status).toBe(200);

    // A closed stream frees its slot.
    const before = openStreamCount();
    await held[0].close();
    await waitUntil(() => openStreamCount() === before - 1, 'the closed stream to be released');
    expect((await stream(token)).response.status).toBe(200);
    expect((await stream(token)).response.status).toBe(429);
  });

  it('the SDK backs off on 429 too_many_streams as on any retryable failure, and connects once a slot is free', async () => {
    const userId = uniqueId('u');
    const token = await issueToken(server, app, userId);
    const held = [];
    for (let i = 0; i < MAX; i++) held.push(await stream(token));

    const ql = createQuestlineClient({ baseUrl: server.url, token });
    const states: SubscriptionState[] = [];
    const errors: Error[] = [];
    const sub = ql.subscribe(() => undefined, {
      transport: 'fetch',
      backoff: { baseMs: 50, maxMs: 200 },
      failuresBeforePolling: 1_000,
      onStateChange: (state) => states.push(state),
      onError: (err) => errors.push(err),
    });
    try {
      await waitUntil(() => errors.length >= 2, 'two refused attempts');
      expect(errors.every((e) => e instanceof QuestlineError && e.status === 429 && e.code === 'too_many_streams')).toBe(true);
      expect(states).toContain('reconnecting');
      expect(states).not.toContain('closed');

      await held[0].close();
      await waitUntil(() => sub.state === 'open', 'the subscription to open');
    } finally {
      sub.close();
    }
  });
});
