// GET /v1/recommendations through the real provider path: the service is
// configured only by OPENAI_API_KEY, OPENAI_MODEL, OPENAI_BASE_URL (and a short
// OPENAI_TIMEOUT_MS), and OPENAI_BASE_URL points at a small OpenAI-compatible
// HTTP server started here. A good answer is served; garbage, an error status
// and a hang each give the fallback.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FALLBACK_REASON } from '@/lib/recommendations/recommend';
import { mission, newUser, type TestUser } from '@/lib/testing/fixtures';
import { createTestApp, startTestServer, type TestApp, type TestServer } from '@/lib/testing/test-server';

type Mode = 'good' | 'garbage-content' | 'garbage-body' | 'error' | 'hang';

interface Seen {
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown>;
  closedEarly: boolean;
}

let server: TestServer;
let app: TestApp;
let upstream: Server;
let mode: Mode = 'good';
let seen: Seen[] = [];
const logs: string[] = [];

function completion(content: string) {
  return {
    id: 'chatcmpl-local-1',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: 'local-ranker',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 },
  };
}

/** The OpenAI-compatible server: POST /v1/chat/completions, answering as `mode` says. */
function handle(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const entry: Seen = { path: req.url ?? '', authorization: req.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>, closedEarly: false };
    seen.push(entry);
    res.on('close', () => {
      if (!res.writableEnded) entry.closedEarly = true;
    });
    const send = (status: number, text: string) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(text);
    };
    switch (mode) {
      case 'good':
        return send(200, JSON.stringify(completion(JSON.stringify({ missionIds: ['steady', 'ready'], reason: 'Keep the streak, then claim your reward.' }))));
      case 'garbage-content':
        return send(200, JSON.stringify(completion('I would recommend ready, steady and go! {"missionIds": [')));
      case 'garbage-body':
        return send(200, '<html>502 Bad Gateway</html>');
      case 'error':
        return send(500, JSON.stringify({ error: { message: 'model overloaded', type: 'server_error' } }));
      case 'hang':
        return; // never answers
    }
  });
}

beforeAll(async () => {
  upstream = createServer(handle);
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const { port } = upstream.address() as AddressInfo;
  vi.stubEnv('OPENAI_API_KEY', 'local-test-key');
  vi.stubEnv('OPENAI_BASE_URL', `http://127.0.0.1:${port}/v1`);
  vi.stubEnv('OPENAI_MODEL', 'local-ranker');
  vi.stubEnv('OPENAI_TIMEOUT_MS', '500');
  server = await startTestServer();
  app = await createTestApp(server, {
    missions: [
      mission('ready', { title: 'First win', criteria: { eventName: 'win', count: 1 } }),
      mission('steady', { title: 'Ten plays', criteria: { eventName: 'play', count: 10 } }),
      mission('go', { title: 'A trade', criteria: { eventName: 'trade', count: 1 } }),
    ],
  });
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logs.push(args.map(String).join(' ')));
});
beforeEach(() => {
  seen = [];
});
afterAll(async () => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  await server?.close();
  upstream?.closeAllConnections();
  await new Promise<void>((resolve) => upstream?.close(() => resolve()));
});

async function player(): Promise<TestUser> {
  const user = await newUser(server, app);
  for (const name of ['win', 'play']) expect((await user.event(name)).status).toBe(200);
  return user;
}

async function recommend(user: TestUser) {
  const res = await user.client.get('/v1/recommendations');
  return { res, body: (await res.json()) as Record<string, unknown> };
}

const lastReason = () => {
  for (const line of [...logs].reverse()) {
    try {
      const entry = JSON.parse(line) as { message?: string; reason?: string };
      if (entry.message === 'recommendations: fallback') return entry.reason;
    } catch {
      // not a log line of ours
    }
  }
  return undefined;
};

describe('GET /v1/recommendations against an OpenAI-compatible server at OPENAI_BASE_URL', () => {
  it('serves the model’s ranking, asking POST {base}/chat/completions with the key, the model and a JSON schema', async () => {
    mode = 'good';
    const user = await player();
    const { res, body } = await recommend(user);
    expect(res.status).toBe(200);
    expect(body).toEqual({ userId: user.userId, missionIds: ['steady', 'ready'], reason: 'Keep the streak, then claim your reward.', fallback: false, generatedAt: expect.any(Number) });
    expect(seen).toHaveLength(1);
    expect(seen[0].path).toBe('/v1/chat/completions');
    expect(seen[0].authorization).toBe('Bearer local-test-key');
    expect(seen[0].body.model).toBe('local-ranker');
    expect(seen[0].body.response_format).toMatchObject({ type: 'json_schema' });
    expect(JSON.stringify(seen[0].body)).not.toContain(user.userId);
  });

  it.each([
    ['garbage-content' as const, 'text that is not the JSON asked for', 'invalid_output'],
    ['garbage-body' as const, 'a response body that is not JSON', 'api_error'],
    ['error' as const, 'an HTTP 500', 'api_error'],
    ['hang' as const, 'no answer before OPENAI_TIMEOUT_MS', 'timeout'],
  ])('falls back (200, fallback: true) on %s: %s', async (m, _what, reason) => {
    mode = m;
    const user = await player();
    const { res, body } = await recommend(user);
    expect(res.status).toBe(200);
    expect(body).toEqual({ userId: user.userId, missionIds: ['ready', 'steady', 'go'], reason: FALLBACK_REASON, fallback: true, generatedAt: expect.any(Number) });
    expect(lastReason()).toBe(reason);
    // One attempt, no retries; a hung call is abandoned (its connection closed), not left open.
    expect(seen).toHaveLength(1);
    if (m === 'hang') await vi.waitFor(() => expect(seen[0].closedEarly).toBe(true), { timeout: 30_000, interval: 20 });
  });
});
