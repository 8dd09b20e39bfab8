// Shutdown of a real server process (scripts/serve.ts; `npm start` drains with
// the same code, see scripts/start.test.ts): SIGTERM stops accepting, lets the
// request in flight finish, ends open streams with a last comment, and exits
// 0; a request that never completes is cut after SHUTDOWN_GRACE_MS. In this
// process: a drain asked by the parent is not cut by the OS's copy of its signal.
import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { drainOnSignals } from './drain';
import { rawPost } from '@/lib/testing/raw-post';
import { openSse } from '@/lib/testing/sse-client';
import { SERVE_ADMIN_KEY, startServeProcess, untilRefused, type ServeProcess } from '@/lib/testing/serve-process';

let server: ServeProcess | null = null;
afterEach(async () => {
  await server?.stop('SIGKILL');
  server = null;
});

async function appAndToken(url: string, userId: string): Promise<{ appId: string; token: string }> {
  const appId = `drain-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const created = await fetch(`${url}/api/admin/apps`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${SERVE_ADMIN_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ id: appId, name: 'Drain' }),
  });
  expect(created.status).toBe(201);
  const { appSecret } = (await created.json()) as { appSecret: string };
  const token = await fetch(`${url}/v1/auth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ appId, appSecret, userId }),
  });
  expect(token.status).toBe(200);
  return { appId, token: ((await token.json()) as { accessToken: string }).accessToken };
}

describe('SIGTERM drains a real server process', () => {
  it('refuses new connections, finishes the request in flight, ends streams with a last comment, exits 0', async () => {
    server = await startServeProcess({ SHUTDOWN_GRACE_MS: '60000' });
    const userId = 'drainer';
    const { token } = await appAndToken(server.url, userId);
    const stream = await openSse(`${server.url}/v1/sse/updates`, { Authorization: `Bearer ${token}` });
    await stream.waitFor((s) => s.raw.startsWith(': connected'), 'connected', 30_000);

    const body = JSON.stringify({ userId, name: 'play', payload: {}, timestamp: Date.now() });
    const inFlight = rawPost(server.url, '/v1/events', body, { headers: { Authorization: `Bearer ${token}` }, split: true });
    await inFlight.connected;
    // The request is in flight once the server has its headers; a health request after it on
    // another connection is answered only after the first one was accepted (same event loop).
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);

    server.child.kill('SIGTERM');
    await untilRefused(server.url);
    await stream.waitFor((s) => s.ended, 'the stream to end', 30_000);
    expect(stream.raw.endsWith(': server shutting down; reconnect (with Last-Event-ID) to resume\n\n')).toBe(true);
    // Still running: the request in flight holds it.
    expect(server.child.exitCode).toBeNull();

    inFlight.finish();
    const answer = await inFlight.answer;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toHaveProperty('missionsUpdated');
    expect(await server.exited).toBe(0);
  }, 120_000);

  it('SIGINT too: a request that never completes is cut after SHUTDOWN_GRACE_MS, and the process still exits 0', async () => {
    server = await startServeProcess({ SHUTDOWN_GRACE_MS: '300' });
    const { token } = await appAndToken(server.url, 'stuck');
    const stuck = rawPost(server.url, '/v1/events', JSON.stringify({ userId: 'stuck', name: 'play', payload: {}, timestamp: Date.now() }), {
      headers: { Authorization: `Bearer ${token}` },
      split: true,
    });
    await stuck.connected;
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    server.child.kill('SIGINT');
    // Never finished by the client: only the grace period's cut lets the process go.
    expect(await server.exited).toBe(0);
    await expect(stuck.answer).rejects.toThrow();
  }, 120_000);
});

// In this process, with exit() recorded: the drain a parent asks for (a QUESTLINE_WORKERS worker told over IPC) and
// the copy of the same signal the OS delivers too when the whole process group is signalled.
describe('drainOnSignals: a stop asked by the parent', () => {
  it('the same signal arriving from the OS as well is not a second signal; one more is', async () => {
    const server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const listeners = { SIGTERM: process.listeners('SIGTERM'), SIGINT: process.listeners('SIGINT') };
    const exits: number[] = [];
    try {
      const stop = drainOnSignals(server, { graceMs: 5_000, closeResources: async () => undefined, exit: (code) => exits.push(code) });
      stop('SIGTERM');
      process.emit('SIGTERM', 'SIGTERM');
      expect(exits).toEqual([]);
      // Drained (nothing was open): exit 0.
      const deadline = Date.now() + 10_000;
      while (exits.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(exits).toEqual([0]);
      process.emit('SIGTERM', 'SIGTERM');
      expect(exits).toEqual([0, 1]);
    } finally {
      for (const signal of ['SIGTERM', 'SIGINT'] as const) {
        for (const listener of process.listeners(signal)) if (!listeners[signal].includes(listener)) process.off(signal, listener);
      }
      server.close();
    }
  });
});
