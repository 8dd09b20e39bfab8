// Stream benchmark: holds N streams open, reads the server's RSS per 1,000
// streams, and measures event-to-stream delivery latency under steady
// ingestion.
//
//   npx tsx scripts/bench-sse.ts [--streams 1000] [--rate 50] [--seconds 20]
//       [--url http://host:port --admin-key KEY --pid SERVER_PID]
//
// Without --url it starts the API itself (`node --import tsx scripts/serve.ts`
// on a free port, backend from the environment: embedded default, or
// DATABASE_URL + REDIS_URL) and stops it at the end. With --url it uses a
// running instance; pass --pid to get its RSS (read from /proc/<pid>/status).
//
// One user per stream (the event rate limit is 100 per 60 s per token, so the
// ingestion is spread over the users round-robin). Each event's send time is
// taken just before its POST; latency = arrival on the user's stream - send.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { Agent, get, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

function arg(name: string, fallback?: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}
const STREAMS = Number(arg('streams', '1000'));
const RATE = Number(arg('rate', '50'));
const SECONDS = Number(arg('seconds', '20'));
const root = path.resolve(__dirname, '..');
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function rssMB(pid: number | null): number | null {
  if (pid === null) return null;
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return line ? Number(line.replace(/\D+/g, '')) / 1024 : null;
}

function call(base: string, method: string, route: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      `${base}${route}`,
      { method, agent, headers: { ...headers, ...(data ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) } : {}) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

async function startServer(): Promise<{ url: string; adminKey: string; child: ChildProcess }> {
  const port = await freePort();
  const adminKey = process.env.ADMIN_API_KEY ?? 'bench-admin-key-0123456789abcdef';
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/serve.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      ADMIN_API_KEY: adminKey,
      JWT_SECRET: process.env.JWT_SECRET ?? 'bench-jwt-secret-0123456789abcdef0123456789',
      QUESTLINE_DATA_DIR: process.env.QUESTLINE_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'questline-bench-')),
      QUESTLINE_QUIET: '1',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error('server exited');
    const ok = await call(url, 'GET', '/v1/openapi.json', undefined, {}).then((r) => r.status === 200, () => false);
    if (ok) break;
    if (i > 600) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, adminKey, child };
}

interface Stream {
  user: number;
  received: number;
  close(): void;
}

function openStream(base: string, token: string, user: number, onMessage: (user: number) => void): Promise<Stream> {
  return new Promise((resolve, reject) => {
    let pending = '';
    const s: Stream = { user, received: 0, close: () => req.destroy() };
    const req = get(`${base}/v1/sse/updates?access_token=${encodeURIComponent(token)}`, { agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream ${res.statusCode}`));
      res.setEncoding('utf8');
      let opened = false;
      res.on('data', (chunk: string) => {
        pending += chunk;
        let end: number;
        while ((end = pending.indexOf('\n\n')) >= 0) {
          const frame = pending.slice(0, end);
          pending = pending.slice(end + 2);
          if (!opened && frame.startsWith(': connected')) {
            opened = true;
            resolve(s);
          } else if (frame.startsWith('id: ')) {
            s.received += 1;
            onMessage(user);
          }
        }
      });
    });
    req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
  });
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main(): Promise<void> {
  const given = arg('url');
  const server = given ? { url: given, adminKey: arg('admin-key') ?? process.env.ADMIN_API_KEY ?? '', child: null } : await startServer();
  const pid = given ? (arg('pid') ? Number(arg('pid')) : null) : (server.child?.pid ?? null);
  try {
    const appId = `bench-${Date.now().toString(36)}`;
    const admin = { Authorization: `Bearer ${server.adminKey}` };
    const created = await call(server.url, 'POST', '/api/admin/apps', { id: appId, name: 'SSE bench' }, admin);
    if (created.status !== 201) throw new Error(`create app: ${created.status} ${created.body}`);
    const { appSecret } = JSON.parse(created.body) as { appSecret: string };
    const catalog = { missions: [{ id: 'play', title: 'Play', criteria: { eventName: 'match_played', count: 1_000_000 }, reward: { kind: 'currency', currency: 'gems', amount: 1 } }] };
    const put = await call(server.url, 'PUT', `/api/admin/apps/${appId}/catalog`, catalog, admin);
    if (put.status !== 200) throw new Error(`catalog: ${put.status} ${put.body}`);

    const tokens: string[] = [];
    for (let i = 0; i < STREAMS; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, STREAMS - i) }, async (_, j) => {
          const r = await call(server.url, 'POST', '/v1/auth/token', { appId, appSecret, userId: `bench-${i + j}` }, {});
          if (r.status !== 200) throw new Error(`token: ${r.status} ${r.body}`);
          return (JSON.parse(r.body) as { accessToken: string }).accessToken;
        }),
      );
      tokens.push(...batch);
    }

    await new Promise((r) => setTimeout(r, 1_000));
    const rssBefore = rssMB(pid);
    const sentAt: number[][] = tokens.map(() => []);
    const latencies: number[] = [];
    const onMessage = (user: number) => {
      const t = sentAt[user].shift();
      if (t !== undefined) latencies.push(performance.now() - t);
    };
    const streams: Stream[] = [];
    const openStarted = Date.now();
    for (let i = 0; i < STREAMS; i += 100) {
      streams.push(...(await Promise.all(tokens.slice(i, i + 100).map((t, j) => openStream(server.url, t, i + j, onMessage)))));
    }
    const openMs = Date.now() - openStarted;
    await new Promise((r) => setTimeout(r, 2_000));
    const rssHeld = rssMB(pid);

    // Steady ingestion: RATE events per second for SECONDS, round-robin over the users.
    const total = RATE * SECONDS;
    const started = performance.now();
    const posts: Promise<void>[] = [];
    let errors = 0;
    for (let n = 0; n < total; n++) {
      const due = started + (n * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const user = n % STREAMS;
      sentAt[user].push(performance.now());
      posts.push(
        call(server.url, 'POST', '/v1/events', { userId: `bench-${user}`, name: 'match_played', payload: {}, timestamp: Date.now() }, { Authorization: `Bearer ${tokens[user]}` }).then(
          (r) => {
            if (r.status !== 200) errors += 1;
          },
          () => {
            errors += 1;
          },
        ),
      );
    }
    await Promise.all(posts);
    const ingestSeconds = (performance.now() - started) / 1000;
    const deadline = Date.now() + 10_000;
    while (latencies.length < total - errors && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const held = streams.length;
    const rssAfter = rssMB(pid);
    for (const s of streams) s.close();

    const sorted = [...latencies].sort((a, b) => a - b);
    const round = (x: number | undefined) => (x === undefined ? null : Math.round(x * 10) / 10);
    console.log(
      JSON.stringify(
        {
          server: given ? server.url : 'spawned scripts/serve.ts',
          backend: process.env.REDIS_URL ? 'redis' : process.env.UPSTASH_REDIS_REST_URL ? 'upstash' : 'embedded',
          streamsRequested: STREAMS,
          streamsHeld: held,
          openSeconds: openMs / 1000,
          serverRssMB: { before: round(rssBefore ?? undefined), holding: round(rssHeld ?? undefined), afterIngestion: round(rssAfter ?? undefined) },
          rssPer1000StreamsMB: rssBefore !== null && rssHeld !== null ? round(((rssHeld - rssBefore) * 1000) / STREAMS) : null,
          ingestion: { events: total, targetPerSecond: RATE, achievedPerSecond: round(total / ingestSeconds), errors },
          delivered: latencies.length,
          latencyMs: { p50: round(pct(sorted, 50)), p90: round(pct(sorted, 90)), p99: round(pct(sorted, 99)), max: round(sorted.at(-1)) },
        },
        null,
        2,
      ),
    );
  } finally {
    agent.destroy();
    if (server.child) {
      const exited = new Promise((r) => server.child!.once('exit', r));
      server.child.kill('SIGTERM');
      const t = setTimeout(() => server.child!.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(t);
    }
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
