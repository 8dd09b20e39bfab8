// GET /api/ready of a real server process whose PostgreSQL or Redis goes away
// (a TCP proxy in front of the real one is cut) and comes back: 503
// `unavailable` naming the dependency while it is gone, 200 again after,
// without a restart; /api/health answers 200 throughout. Needs the
// PostgreSQL + Redis of the environment (CI's second pass).
import { afterEach, describe, expect, it } from 'vitest';
import { startServeProcess, type ServeProcess } from '@/lib/testing/serve-process';
import { startTcpProxy, throughProxy, type TcpProxy } from '@/lib/testing/tcp-proxy';

const databaseUrl = process.env.DATABASE_URL?.trim();
const redisUrl = process.env.REDIS_URL?.trim();

let server: ServeProcess | null = null;
let proxy: TcpProxy | null = null;
afterEach(async () => {
  await server?.stop('SIGKILL');
  await proxy?.close();
  server = proxy = null;
});

async function readyUntil(url: string, status: number): Promise<{ status: number; body: unknown }> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await fetch(`${url}/api/ready`);
    const body: unknown = await res.json();
    if (res.status === status) return { status, body };
    if (Date.now() > deadline) throw new Error(`ready stayed ${res.status}: ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(!databaseUrl || !redisUrl)('GET /api/ready while a dependency is down (real process, TCP proxy)', () => {
  it('PostgreSQL cut: 503 "database unreachable", then 200 again once it is back', async () => {
    const target = new URL(databaseUrl!);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    server = await startServeProcess({ DATABASE_URL: throughProxy(databaseUrl!, proxy) });
    expect((await readyUntil(server.url, 200)).body).toMatchObject({ status: 'ready' });
    proxy.cut();
    expect((await readyUntil(server.url, 503)).body).toEqual({ error: 'unavailable', message: 'Not ready: database unreachable' });
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    proxy.restore();
    await readyUntil(server.url, 200);
  }, 180_000);

  it('Redis cut: 503 "key-value store unreachable", then 200 again once it is back', async () => {
    const target = new URL(redisUrl!);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 6379));
    server = await startServeProcess({ REDIS_URL: throughProxy(redisUrl!, proxy) });
    await readyUntil(server.url, 200);
    proxy.cut();
    expect((await readyUntil(server.url, 503)).body).toEqual({ error: 'unavailable', message: 'Not ready: key-value store unreachable' });
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    proxy.restore();
    await readyUntil(server.url, 200);
  }, 180_000);
});
