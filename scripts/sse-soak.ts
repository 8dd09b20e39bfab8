// Soak test of stream clean-up: N connect/disconnect cycles of
// GET /v1/sse/updates against the real service (plain Node server) running
// in THIS process, so heap, RSS and active handles are the server's own.
//
//   node --expose-gc --import tsx scripts/sse-soak.ts [cycles=10000] [concurrency=50]
//
// Backend from the environment like the service (embedded default, or
// DATABASE_URL + REDIS_URL). Prints figures before and after; a leak shows as
// open streams, bus subscriptions or handles that do not return to the
// baseline, or heap that grows with the number of cycles.
import { get } from 'node:http';
import { createTestApp, issueToken, startTestServer } from '@/lib/testing/test-server';

const cycles = Number(process.argv[2] ?? 10_000);
const concurrency = Number(process.argv[3] ?? 50);
const USERS = 100;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('run with node --expose-gc --import tsx scripts/sse-soak.ts');
  process.exit(1);
}

function resources(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of process.getActiveResourcesInfo()) out[r] = (out[r] ?? 0) + 1;
  return out;
}

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await new Promise((r) => setTimeout(r, 100));
    gc!();
  }
}

async function subscriptions(): Promise<number> {
  const { getBus } = await import('@/lib/bus');
  const bus = getBus() as unknown as { kind: string; channels?: Map<string, unknown>; fanout?: { channels: Map<string, unknown> } };
  return (bus.channels ?? bus.fanout?.channels)?.size ?? -1;
}

async function snapshot(label: string) {
  await settle();
  const { openStreamCount } = await import('@/lib/http/v1/sse');
  const m = process.memoryUsage();
  return {
    label,
    heapUsedMB: +(m.heapUsed / 2 ** 20).toFixed(1),
    rssMB: +(m.rss / 2 ** 20).toFixed(1),
    externalMB: +(m.external / 2 ** 20).toFixed(1),
    openStreams: openStreamCount(),
    busChannels: await subscriptions(),
    resources: resources(),
  };
}

/** One connect/disconnect: node:http without an agent, so the socket is closed for good by destroy(). */
function cycle(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = get(url, { agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
      res.once('data', (chunk: Buffer) => {
        // ': connected' – the stream is fully set up (subscribed); now hang up.
        if (!chunk.toString('utf8').startsWith(': connected')) return reject(new Error('no connected comment'));
        req.destroy();
        resolve();
      });
    });
    req.on('error', (err) => (req.destroyed ? resolve() : reject(err)));
  });
}

async function run(label: string, n: number, urls: string[]): Promise<number> {
  let next = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        await cycle(urls[i % urls.length]);
      }
    }),
  );
  const ms = Date.now() - started;
  console.error(`${label}: ${n} cycles in ${ms} ms`);
  return ms;
}

async function main(): Promise<void> {
  const server = await startTestServer();
  const app = await createTestApp(server);
  const tokens = await Promise.all(Array.from({ length: USERS }, (_, i) => issueToken(server, app, `soak-${i}`)));
  const urls = tokens.map((t) => `${server.url}/v1/sse/updates?access_token=${encodeURIComponent(t)}`);
  const { getKv } = await import('@/lib/kv');
  const backend = getKv().kind;

  await run('warm-up', Math.min(1_000, cycles), urls);
  const before = await snapshot('before');
  const ms = await run('soak', cycles, urls);
  const after = await snapshot(`after ${cycles} cycles`);
  console.log(JSON.stringify({ backend, cycles, concurrency, users: USERS, cyclesPerSecond: Math.round((cycles * 1000) / ms), before, after }, null, 2));
  if (process.env.SOAK_HOLD_MS) await new Promise((r) => setTimeout(r, Number(process.env.SOAK_HOLD_MS)));
  await server.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
