// `npm run bench [-- --quick] [-- --only events,many,claims,missions,sse] [-- --many-users N] [-- --no-build] [-- --cpu-prof]` (`many`: new players, then returning ones)
// `npm run bench -- --only many,scale --seeded <app>`: issue 43 §2 on a database `npm run bench:seed` filled (scripts/bench/at-scale.ts)
//
// Starts the production server the way `npm start` does (build when stale,
// then `node scripts/start.mjs`) on real PostgreSQL + Redis, seeds what each
// scenario needs (apps through the admin API, bulk rows with SQL, tokens
// signed with JWT_SECRET), runs pgbench's two-statement ingestion
// transaction as the machine's ceiling, then drives each scenario with 64
// connections and prints throughput, p50/p90/p99/max, errors, the server's
// RSS and the load average. docs/engineering/benchmarks.md describes it; no test asserts
// a time.
//
// Environment: DATABASE_URL (postgres://…; the database is created when
// missing), REDIS_URL (redis://…/N), JWT_SECRET; PORT (default: a free port).
// `--embedded`: the embedded default instead (PGlite in a fresh data
// directory, in-process store and bus; no DATABASE_URL or REDIS_URL, no
// pgbench). Its bulk rows are written with SQL through PGlite while the
// server is stopped (one process per data directory), then it starts again.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync, mkdtempSync } from 'node:fs';
import { get } from 'node:http';
import { loadavg, tmpdir, cpus } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { SignJWT } from 'jose';
import { Redis as IORedis } from 'ioredis';
import pg from 'pg';
import { Pool } from 'undici';
import { freePort } from '../../lib/testing/processes';
import { runLoad, summarize, type Job, type LoadResult } from './load';
import { benchAtScale, printScaleRows, type ScaleRow } from './at-scale';
import { runIngestPgbench } from './pgbench';

const root = path.resolve(__dirname, '..', '..');
const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string, fallback: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const QUICK = flag('quick');
const EMBEDDED = flag('embedded');
const ONLY = new Set(option('only', 'events,many,claims,missions,sse').split(','));
/** `--seeded <app>`: the app `npm run bench:seed` filled, for the `scale` scenario. */
const SEEDED = option('seeded', 'seed');
/** Users of the many-players scenario (each sends at most 10 events). */
const MANY_USERS = Number(option('many-users', QUICK ? '20000' : '40000'));
const CONNECTIONS = Number(option('connections', '64'));
const SECONDS = Number(option('seconds', QUICK ? '12' : '30'));
/** Seconds of uncounted load before each of the events and claims scenarios (0: none). */
const WARMUP_SECONDS = Number(option('warmup', QUICK ? '3' : '5'));
const STREAMS = Number(option('streams', QUICK ? '1000' : '10000'));
const SSE_RATE = Number(option('rate', '200'));
const SSE_SECONDS = Number(option('sse-seconds', QUICK ? '8' : '20'));
const PGBENCH_CLIENTS = Number(option('pgbench-clients', '16'));
/** --returning-within-day: the returning players' stream order state is in Redis (they played < 24 h ago), not expired. */
const RETURNING_WITHIN_DAY = flag('returning-within-day');
const LIST_USERS = 100_000;
const LIST_MISSIONS = 1_000;
const LIST_APP = 'bench-list';
const ADMIN_KEY = process.env.ADMIN_API_KEY ?? 'bench-admin-key-0123456789abcdef';

function need(name: string, embeddedDefault?: string): string {
  if (EMBEDDED) return process.env[name] || (embeddedDefault ?? '');
  const value = process.env[name];
  if (!value) {
    console.error(`bench: ${name} must be set (PostgreSQL + Redis: DATABASE_URL=postgres://… REDIS_URL=redis://…/N JWT_SECRET=…)`);
    process.exit(2);
  }
  return value;
}
const DATABASE_URL = need('DATABASE_URL');
const REDIS_URL = need('REDIS_URL');
const JWT_SECRET = need('JWT_SECRET', 'bench-embedded-jwt-secret-0123456789abcdef');
/** One data directory per run (the embedded database lives there; unused otherwise but for the server's secrets). */
const DATA_DIR = mkdtempSync(path.join(tmpdir(), 'questline-bench-'));

/** What the seeding needs of a SQL client: pg.Client and PGlite both answer it. */
interface Sql {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}
const secretKey = new TextEncoder().encode(JWT_SECRET);

const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

// ---------------------------------------------------------------- helpers

/** The process and its descendants (QUESTLINE_WORKERS' worker processes): their pids. */
function processTree(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...(parents.get(all[i]) ?? []));
  return all;
}

/** CPU time so far (user + system) of the server's process tree, in ms (a worker that exited no longer counts). */
function cpuMs(pid: number): number {
  let total = 0;
  for (const p of processTree(pid)) {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ');
      // utime and stime are fields 14 and 15 of the line (11 and 12 after the command), in clock ticks (100 per second).
      total += (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}

/** RSS of the server's process tree, in MB. */
function rssMB(pid: number): number {
  let kb = 0;
  for (const p of processTree(pid)) {
    try {
      const line = readFileSync(`/proc/${p}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
      kb += line ? Number(line.replace(/\D+/g, '')) : 0;
    } catch {
      // Gone meanwhile.
    }
  }
  return Math.round(kb / 1024);
}

/** HS256 token with the claims lib/auth/jwt.ts issues (app, sub, jti, iat, iat_ms, exp). */
async function token(appId: string, userId: string): Promise<string> {
  const now = Date.now();
  const iat = Math.floor(now / 1000);
  return new SignJWT({ app: appId, iat_ms: now })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setJti(randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(iat + 3600)
    .sign(secretKey);
}

async function tokens(appId: string, users: string[]): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < users.length; i += 1000) out.push(...(await Promise.all(users.slice(i, i + 1000).map((u) => token(appId, u)))));
  return out;
}

async function ensureDatabase(): Promise<void> {
  const url = new URL(DATABASE_URL);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
  if (rowCount === 0) await admin.query(`create database "${name.replace(/"/g, '""')}"`);
  await admin.end();
}

// ---------------------------------------------------------------- server

interface Server {
  url: string;
  child: ChildProcess;
  pool: Pool;
  admin(method: string, route: string, body?: unknown): Promise<{ status: number; text: string }>;
  stop(): Promise<void>;
}

async function startServer(): Promise<Server> {
  // Default: `npm start`'s way (build when stale, then the server bundle).
  // --bundle-only: rebuild just the server bundle (esbuild, seconds; /v1 and
  // /api/admin are served from it) and run it as start.mjs would, keeping the
  // Next.js build as it is. --no-build: run the bundle as it is.
  let entry = 'scripts/start.mjs';
  if (option('entry', '') !== '') {
    // Another server bundle of this checkout (e.g. an older commit's, for a before/after run).
    entry = option('entry', '');
  } else if (flag('bundle-only') || flag('no-build')) {
    entry = '.next/questline-server.mjs';
    if (flag('bundle-only')) {
      const built = spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' });
      if (built.status !== 0) throw new Error('server bundle build failed');
    }
  } else {
    log('build when stale (node scripts/start.mjs --build-only)…');
    const built = spawnSync(process.execPath, ['scripts/start.mjs', '--build-only'], { cwd: root, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('build failed');
  }
  const port = Number(process.env.PORT ?? (await freePort()));
  const extra = (process.env.BENCH_NODE_OPTIONS ?? '').split(' ').filter(Boolean);
  // --cpu-prof: the server runs under V8's sampling profiler; when it stops, each profile is summarized (scripts/bench/profile-summary.mjs).
  const profileDir = flag('cpu-prof') ? mkdtempSync(path.join(tmpdir(), 'questline-bench-prof-')) : null;
  if (profileDir) extra.push('--cpu-prof', `--cpu-prof-dir=${profileDir}`);
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (EMBEDDED) {
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    env.JWT_SECRET = JWT_SECRET;
  }
  const child = spawn(process.execPath, [...extra, entry], {
    cwd: root,
    env: {
      ...env,
      PORT: String(port),
      NODE_ENV: 'production',
      ADMIN_API_KEY: ADMIN_KEY,
      QUESTLINE_QUIET: '1',
      QUESTLINE_DATA_DIR: DATA_DIR,
      SSE_MAX_STREAMS_PER_USER: '10',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const pool = new Pool(url, { connections: 8 });
  const request = async (method: string, route: string, body: unknown, headers: Record<string, string>) => {
    const res = await pool.request({
      method: method as 'GET',
      path: route,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.statusCode, text: await res.body.text() };
  };
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode})`);
    const ok = await request('GET', '/v1/openapi.json', undefined, {}).then((r) => r.status === 200, () => false);
    if (ok) break;
    if (i > 1200) throw new Error('server did not start in 120 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    pool,
    admin: (method, route, body) => request(method, route, body, { authorization: `Bearer ${ADMIN_KEY}` }),
    stop: async () => {
      await pool.close();
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(t);
      if (profileDir) {
        for (const file of readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile'))) {
          log(`CPU profile ${path.join(profileDir, file)}:`);
          spawnSync(process.execPath, ['scripts/bench/profile-summary.mjs', path.join(profileDir, file)], { cwd: root, stdio: 'inherit' });
        }
      }
    },
  };
}

async function createApp(server: Server, appId: string, catalog: unknown): Promise<void> {
  const created = await server.admin('POST', '/api/admin/apps', { id: appId, name: `Bench ${appId}` });
  if (created.status !== 201 && created.status !== 409) throw new Error(`create app ${appId}: ${created.status} ${created.text}`);
  const put = await server.admin('PUT', `/api/admin/apps/${appId}/catalog`, catalog);
  if (put.status !== 200) throw new Error(`catalog ${appId}: ${put.status} ${put.text.slice(0, 300)}`);
}

// ---------------------------------------------------------------- pgbench

function runPgbench(db: pg.Client, seconds: number) {
  return runIngestPgbench(db, { databaseUrl: DATABASE_URL, clients: PGBENCH_CLIENTS, seconds });
}

// ---------------------------------------------------------------- scenarios

/** Set by main: restarts the server CPU count of the running scenario (after a warm-up). */
let restartCpu: () => void = () => undefined;

interface Row {
  scenario: string;
  /** Server CPU (user + system) per request during the scenario, ms: the figure the machine's load disturbs least. */
  cpuPerRequestMs?: number;
  result: LoadResult;
  rssMB: number;
  load: string;
  note?: string;
}

const EVENT_REWARD = { kind: 'currency', currency: 'gems', amount: 1 };
/** The events scenarios' catalog: four missions, two on match_played with a daily window and a filter. */
const EVENT_MISSIONS = [
  { id: 'life', title: 'Lifetime', criteria: { eventName: 'match_played', count: 1_000_000 }, reward: EVENT_REWARD },
  { id: 'daily', title: 'Daily', criteria: { eventName: 'match_played', count: 1_000_000, window: 'daily' }, reward: EVENT_REWARD },
  { id: 'ranked', title: 'Ranked', criteria: { eventName: 'match_played', count: 1_000_000, filter: { mode: 'ranked', score: { gte: 10 } } }, reward: EVENT_REWARD },
  { id: 'buy', title: 'Buy', criteria: { eventName: 'item_bought', count: 1_000_000 }, reward: EVENT_REWARD },
];
/** The four event shapes, advancing 0, 1, 2 and 3 missions. */
const EVENT_SHAPES = [
  { name: 'login', payload: { platform: 'ios' } },
  { name: 'item_bought', payload: { itemId: 'sword', price: 120 } },
  { name: 'match_played', payload: { mode: 'casual', score: 3, durationSec: 412 } },
  { name: 'match_played', payload: { mode: 'ranked', score: 27, durationSec: 655 } },
];

/**
 * POST /v1/events round-robin over `users` with at most `perUser` events per
 * token, the four shapes in turn, half with an Idempotency-Key.
 */
async function driveEvents(server: Server, appId: string, userCount: number, perUser: number, scenario: string): Promise<Row> {
  await createApp(server, appId, { missions: EVENT_MISSIONS });
  // The warm-up's players are others (`w…`, a tenth as many): the measured run's are all new to the server.
  const warm = await warmUp(server, scenario, await eventJobs(appId, 'w', Math.ceil(userCount / 10), perUser));
  const result = await runLoad({ url: server.url, connections: CONNECTIONS, seconds: SECONDS, next: await eventJobs(appId, 'u', userCount, perUser) });
  return withWarmUp({ scenario, result, rssMB: rssMB(server.child.pid!), load: load(), note: `${userCount} users, at most ${perUser} events each` }, warm);
}

/** Round-robin over `count` users named `prefix` + i, at most `perUser` events per token, the four shapes in turn, half keyed. */
async function eventJobs(appId: string, prefix: string, count: number, perUser: number): Promise<() => Job | null> {
  const users = Array.from({ length: count }, (_, i) => `${prefix}${i}`);
  const toks = await tokens(appId, users);
  const used = new Uint16Array(users.length);
  let n = 0;
  return () => {
    for (let tries = 0; tries < users.length; tries++) {
      const u = n++ % users.length;
      if (used[u] >= perUser) continue;
      used[u] += 1;
      const shape = EVENT_SHAPES[n % 4];
      const headers: Record<string, string> = { authorization: `Bearer ${toks[u]}`, 'content-type': 'application/json' };
      if (n % 2 === 0) headers['idempotency-key'] = `${prefix}k-${n}`;
      return {
        method: 'POST',
        path: '/v1/events',
        headers,
        body: JSON.stringify({ userId: users[u], name: shape.name, payload: shape.payload, timestamp: Date.now() }),
      };
    }
    return null;
  };
}

/**
 * The warm-up: WARMUP_SECONDS of the same load on other players, so the
 * measured run meets a server as it runs for hours (JIT-compiled code, pooled
 * connections open, statements prepared) rather than one just started. It is
 * not counted in the row's rates, latencies or CPU, but its own figures are
 * logged and kept in the row's note, and its errors count in the row's.
 */
async function warmUp(server: Server, scenario: string, next: () => Job | null): Promise<LoadResult | null> {
  if (WARMUP_SECONDS <= 0) return null;
  const warm = await runLoad({ url: server.url, connections: CONNECTIONS, seconds: WARMUP_SECONDS, next });
  log(`${scenario}: warm-up ${warm.requests} requests in ${warm.seconds} s, p50 ${warm.latencyMs.p50} ms, p99 ${warm.latencyMs.p99} ms, ${warm.errors} errors (not counted)`);
  restartCpu();
  return warm;
}

function withWarmUp(row: Row, warm: LoadResult | null): Row {
  if (warm === null) return row;
  row.result.errors += warm.errors;
  row.result.errorSamples.push(...warm.errorSamples.map((sample) => `warm-up: ${sample}`));
  row.note = `${row.note}; after a ${warm.seconds} s warm-up on other players (${warm.requests} requests, p99 ${warm.latencyMs.p99} ms)`;
  return row;
}

/** (a) POST /v1/events: few users, many events each (95 per token at most: the limit is 100/60 s); their records stay cached. */
function benchEvents(server: Server, runId: string): Promise<Row> {
  return driveEvents(server, `bench-ev-${runId}`, QUICK ? 1500 : 3000, 95, 'events');
}

/**
 * (a2) POST /v1/events: many players with few events each (a game's usual
 * traffic): at most 10 events per token, round-robin over enough users that
 * the run does not come back to a user soon (a user's next event arrives
 * after every other user's), so the per-user caches rarely answer.
 */
function benchEventsManyPlayers(server: Server, runId: string): Promise<Row> {
  return driveEvents(server, `bench-many-${runId}`, MANY_USERS, 10, 'events (many players)');
}

/** The returning players' app: the events catalog, its players seeded with SQL as if they had played yesterday. */
const returningUsers = () => MANY_USERS;

/**
 * What a player who played yesterday has (SQL, before the run): a known user
 * (app_users), a change counter, 20 stored events and a progress row on each
 * of the four missions, the daily one in yesterday's window. For the measured
 * players (`r…`) and the warm-up's (`q…`, a tenth as many).
 */
async function seedReturning(db: Sql, appId: string): Promise<void> {
  const now = Date.now();
  const day = 86_400_000;
  const yesterday = Math.floor(now / day) * day - day;
  const columns = await db.query(`select 1 from information_schema.columns where table_name = 'user_sequences' and column_name = 'changed_at'`);
  const hasChangedAt = columns.rows.length > 0;
  for (const [prefix, users] of [['r', returningUsers()], ['q', Math.ceil(returningUsers() / 10)]] as const) {
    const params = [appId, prefix, users, now];
    await db.query(
      `insert into app_users (app_id, user_id, first_seen_at, last_seen_at, events, attributes)
       select $1, $2 || u, $4::bigint - 172800000, $4::bigint - 86400000, 20, '{}'::jsonb from generate_series(0, $3::int - 1) u`,
      params,
    );
    // Their 20th change committed yesterday (user_sequences.changed_at, when the server's schema has it).
    await db.query(
      hasChangedAt
        ? `insert into user_sequences (app_id, user_id, seq, changed_at) select $1, $2 || u, 20, $4::bigint - 86400000 from generate_series(0, $3::int - 1) u`
        : `insert into user_sequences (app_id, user_id, seq) select $1, $2 || u, 20 from generate_series(0, $3::int - 1) u`,
      hasChangedAt ? params : params.slice(0, 3),
    );
    await db.query(
      `insert into events (id, app_id, user_id, name, payload, timestamp, source, received_at)
       select 'seed-' || $2 || u || '-' || e, $1, $2 || u, 'match_played', '{"mode":"casual","score":3}'::jsonb,
         $4::bigint - 86400000 + e * 1000, 'api', $4::bigint - 86400000 + e * 1000
       from generate_series(0, $3::int - 1) u, generate_series(0, 19) e`,
      params,
    );
    await db.query(
      `insert into progress (app_id, user_id, mission_id, status, current_count, target_count, window_start, cycle, updated_at)
       select $1, $2 || u, m.id, 'active', m.n, 1000000, case when m.id = 'daily' then $5::bigint else 0 end, 1, $4::bigint - 86400000
       from generate_series(0, $3::int - 1) u, (values ('life', 12), ('daily', 12), ('ranked', 4), ('buy', 3)) as m(id, n)`,
      [...params, yesterday],
    );
  }
  await db.query('analyze app_users; analyze user_sequences; analyze events; analyze progress');
  if (RETURNING_WITHIN_DAY) {
    // As if they had played within 24 h: the stream's order state (lib/updates/log-redis.ts) still knows their last change.
    const redis = new IORedis(REDIS_URL);
    for (const [prefix, users] of [['r', returningUsers()], ['q', Math.ceil(returningUsers() / 10)]] as const) {
      const batch = redis.pipeline();
      for (let u = 0; u < users; u++) batch.hset(`updseq:${encodeURIComponent(appId)}:${prefix}${u}`, { last: 20, max: 20 });
      await batch.exec();
    }
    await redis.quit();
  }
}

/**
 * (a3) POST /v1/events from returning players: the many-players load (at most
 * 10 events per token, round-robin over as many users), but every player
 * already has yesterday's progress, counter and events in the database (not
 * in the server's caches: they were written with SQL), as most of a live
 * game's traffic does. Skipped with --embedded (SQL needs the server stopped).
 */
async function benchEventsReturning(server: Server, db: Sql, runId: string): Promise<Row> {
  const appId = `bench-ret-${runId}`;
  await createApp(server, appId, { missions: EVENT_MISSIONS });
  const seeded = performance.now();
  await seedReturning(db, appId);
  log(`events (returning players): seeded ${returningUsers()} + ${Math.ceil(returningUsers() / 10)} players in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
  restartCpu();
  const warm = await warmUp(server, 'events (returning players)', await eventJobs(appId, 'q', Math.ceil(returningUsers() / 10), 10));
  const result = await runLoad({ url: server.url, connections: CONNECTIONS, seconds: SECONDS, next: await eventJobs(appId, 'r', returningUsers(), 10) });
  const note = `${returningUsers()} users with yesterday's progress (4 rows), counter and 20 events each${RETURNING_WITHIN_DAY ? ', stream order state in Redis' : ''}, at most 10 events each`;
  return withWarmUp({ scenario: 'events (returning players)', result, rssMB: rssMB(server.child.pid!), load: load(), note }, warm);
}

/** (b) POST /v1/missions/:id/claim: completed progress rows seeded with SQL, 20 per user (limit 30/60 s per token). */
const CLAIMS_PER_USER = 20;
const claimUsers = () => (QUICK ? 1000 : 3000);

/** The claims scenario's app and catalog (admin API). */
async function createClaimsApp(server: Server, runId: string): Promise<string> {
  const appId = `bench-cl-${runId}`;
  const perUser = CLAIMS_PER_USER;
  const missions = Array.from({ length: perUser }, (_, i) => ({
    id: `c${i}`,
    title: `Claim ${i}`,
    criteria: { eventName: 'win', count: 1 },
    reward: i % 4 === 3 ? { kind: 'item', itemId: 'chest', quantity: 1 } : { kind: 'currency', currency: 'gold', amount: 10 },
  }));
  await createApp(server, appId, { missions });
  return appId;
}

/** The claims scenario's warm-up players (`w…`): a third as many as the measured ones. */
const claimWarmUsers = () => Math.ceil(claimUsers() / 3);

/** Its completed progress rows (SQL), for the measured players (`u…`) and the warm-up's (`w…`). */
async function seedClaims(db: Sql, appId: string): Promise<void> {
  for (const [prefix, users] of [['u', claimUsers()], ['w', claimWarmUsers()]] as const) {
    await db.query(
      `insert into progress (app_id, user_id, mission_id, status, current_count, target_count, window_start, cycle, updated_at)
       select $1, $5 || u, 'c' || m, 'completed', 1, 1, 0, 1, $2 from generate_series(0, $3 - 1) u, generate_series(0, $4 - 1) m`,
      [appId, Date.now(), users, CLAIMS_PER_USER, prefix],
    );
  }
}

/** Round-robin over `count` players named `prefix` + i, each claiming c0, c1, … in turn; half keyed. */
async function claimJobs(appId: string, prefix: string, count: number): Promise<() => Job | null> {
  const users = Array.from({ length: count }, (_, i) => `${prefix}${i}`);
  const toks = await tokens(appId, users);
  let n = 0;
  const total = count * CLAIMS_PER_USER;
  return () => {
    if (n >= total) return null;
    const u = n % count;
    const m = Math.floor(n / count);
    n += 1;
    const headers: Record<string, string> = { authorization: `Bearer ${toks[u]}` };
    if (n % 2 === 0) headers['idempotency-key'] = `${prefix}c-${n}`;
    return { method: 'POST', path: `/v1/missions/c${m}/claim`, headers };
  };
}

/** `db` null: the app and its rows were made before the server started (--embedded). */
async function benchClaims(server: Server, db: Sql | null, runId: string): Promise<Row> {
  const appId = `bench-cl-${runId}`;
  if (db !== null) {
    await createClaimsApp(server, runId);
    await seedClaims(db, appId);
  }
  const warm = await warmUp(server, 'claims', await claimJobs(appId, 'w', claimWarmUsers()));
  const result = await runLoad({ url: server.url, connections: CONNECTIONS, seconds: SECONDS, next: await claimJobs(appId, 'u', claimUsers()) });
  return withWarmUp({ scenario: 'claims', result, rssMB: rssMB(server.child.pid!), load: load(), note: `${claimUsers()} users × ${CLAIMS_PER_USER} completed missions` }, warm);
}

/**
 * The mission list's catalog and rows, when not there yet. The catalog is over
 * the admin API's body limit: the app is created empty through the API (by
 * the caller), the missions go in with SQL, then the servers' catalog caches
 * are told (the bus channel of lib/catalog; with --embedded the server is
 * stopped meanwhile and loads it when it starts).
 */
async function seedList(db: Sql, appId: string, createEmpty: (() => Promise<void>) | null): Promise<void> {
  const seeded = await db.query(`select (select count(*) from missions where app_id = $1)::int as missions, (select count(*) from progress where app_id = $1)::int as rows`, [appId]);
  const { missions, rows } = seeded.rows[0] as { missions: number; rows: number };
  if (missions !== LIST_MISSIONS || rows < LIST_USERS * 3) {
    log(`seeding ${appId}: ${LIST_MISSIONS} missions, ${LIST_USERS} users × 3 progress rows…`);
    if (createEmpty) await createEmpty();
    await db.query('delete from missions where app_id = $1', [appId]);
    await db.query(
      `insert into missions (app_id, id, title, description, criteria, reward, created_at, updated_at)
       select $1, 'm' || lpad(i::text, 4, '0'), 'Mission ' || i, 'Play and win',
         jsonb_build_object('eventName', (array['match_played','item_bought','level_up','login','quest_done'])[i % 5 + 1], 'count', 10 + i % 50)
           || case when i % 3 = 0 then '{"window":"daily"}'::jsonb else '{"window":"lifetime"}'::jsonb end,
         '{"kind":"currency","currency":"gems","amount":5}'::jsonb, $2, $2
       from generate_series(0, $3 - 1) i`,
      [appId, Date.now(), LIST_MISSIONS],
    );
    if (!EMBEDDED) {
      const redis = new IORedis(REDIS_URL);
      await redis.publish('catalog:changed', appId);
      await redis.quit();
    }
    await db.query('delete from progress where app_id = $1', [appId]);
    await db.query(
      `insert into progress (app_id, user_id, mission_id, status, current_count, target_count, window_start, cycle, updated_at)
       select $1, 'u' || u, 'm' || lpad(((u * 7 + k * 331) % $3)::text, 4, '0'), 'active', 1, 10 + (((u * 7 + k * 331) % $3) % 50), 0, 1, $2
       from generate_series(0, $4 - 1) u, generate_series(0, 2) k`,
      [appId, Date.now(), LIST_MISSIONS, LIST_USERS],
    );
    await db.query('analyze progress');
  }
}

/** (c) GET /v1/missions: 1,000 missions, 100,000 users with 3 progress rows each (seeded once, kept between runs; `db` null: seeded before the server started). */
async function benchMissionList(server: Server, db: Sql | null): Promise<Row> {
  const appId = LIST_APP;
  if (db !== null) await seedList(db, appId, () => createApp(server, appId, { missions: [] }));
  // 2,000 users spread over the 100,000: each token is used once in the
  // warm-up (a client keeps its token for an hour, so the server's verified-
  // token cache answers afterwards; the first verification is the events
  // scenario's cost), and their progress rows are spread over the table.
  const sample = Array.from({ length: 2000 }, (_, i) => `u${(i * 7919) % LIST_USERS}`);
  const toks = await tokens(appId, sample);
  let n = 0;
  const next = (): Job => {
    const i = n++ % sample.length;
    return { method: 'GET', path: '/v1/missions', headers: { authorization: `Bearer ${toks[i]}` } };
  };
  // Warm-up (the catalog of 1,000 missions loads on the first request, the
  // prepared statements on each pooled connection): not counted.
  const warm = next;
  let warmed = 0;
  await runLoad({ url: server.url, connections: CONNECTIONS, seconds: 60, next: () => (warmed++ < sample.length ? warm() : null) });
  restartCpu();
  const result = await runLoad({ url: server.url, connections: CONNECTIONS, seconds: QUICK ? Math.min(SECONDS, 10) : SECONDS, next });
  return { scenario: 'missions list', result, rssMB: rssMB(server.child.pid!), load: load(), note: `${LIST_MISSIONS} missions, ${LIST_USERS} users, page of 50` };
}

/** (d) SSE: N streams held (one user each), steady ingestion at `rate`/s, latency from send to arrival on the stream. */
async function benchSse(server: Server, runId: string): Promise<Row & { streams: Record<string, unknown> }> {
  const appId = `bench-sse-${runId}`;
  await createApp(server, appId, {
    missions: [{ id: 'play', title: 'Play', criteria: { eventName: 'match_played', count: 1_000_000 }, reward: { kind: 'currency', currency: 'gems', amount: 1 } }],
  });
  const users = Array.from({ length: STREAMS }, (_, i) => `s${i}`);
  // One socket per stream on each side (the server is this process's child and inherits the limit).
  const limit = Number(/Max open files\s+(\d+)/.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1] ?? Infinity);
  if (STREAMS + 500 > limit) throw new Error(`--streams ${STREAMS} needs more open files than ulimit -n allows (${limit}): raise it (ulimit -n ${STREAMS + 1000}) and run again`);
  const toks = await tokens(appId, users);
  const rssBefore = rssMB(server.child.pid!);
  const sentAt: number[][] = users.map(() => []);
  const latencies: number[] = [];
  const sockets: Array<{ destroy(): void }> = [];
  const open = (i: number) =>
    new Promise<void>((resolve, reject) => {
      let pending = '';
      let opened = false;
      const req = get(`${server.url}/v1/sse/updates?access_token=${toks[i]}`, { agent: false }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream ${res.statusCode}`));
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          pending += chunk;
          let end: number;
          while ((end = pending.indexOf('\n\n')) >= 0) {
            const frame = pending.slice(0, end);
            pending = pending.slice(end + 2);
            if (!opened && frame.startsWith(': connected')) {
              opened = true;
              resolve();
            } else if (frame.startsWith('id: ')) {
              const t = sentAt[i].shift();
              if (t !== undefined) latencies.push(performance.now() - t);
            }
          }
        });
      });
      req.on('error', (err) => (opened ? undefined : reject(err)));
      sockets.push(req);
    });
  const openStarted = performance.now();
  for (let i = 0; i < STREAMS; i += 200) await Promise.all(users.slice(i, i + 200).map((_, j) => open(i + j)));
  const openSeconds = (performance.now() - openStarted) / 1000;
  await new Promise((r) => setTimeout(r, 1500));
  const rssHeld = rssMB(server.child.pid!);

  const pool = new Pool(server.url, { connections: 16 });
  const total = SSE_RATE * SSE_SECONDS;
  const posts: Promise<void>[] = [];
  const postLatencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  for (let n = 0; n < total; n++) {
    const wait = started + (n * 1000) / SSE_RATE - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const u = n % STREAMS;
    const t0 = performance.now();
    sentAt[u].push(t0);
    posts.push(
      pool
        .request({
          method: 'POST',
          path: '/v1/events',
          headers: { authorization: `Bearer ${toks[u]}`, 'content-type': 'application/json' },
          body: JSON.stringify({ userId: users[u], name: 'match_played', payload: { mode: 'ranked' }, timestamp: Date.now() }),
        })
        .then(async (res) => {
          await res.body.text();
          postLatencies.push(performance.now() - t0);
          if (res.statusCode !== 200) errors += 1;
        })
        .catch(() => void (errors += 1)),
    );
  }
  await Promise.all(posts);
  const ingestSeconds = (performance.now() - started) / 1000;
  const deadline = Date.now() + 10_000;
  while (latencies.length < total - errors && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const rssAfter = rssMB(server.child.pid!);
  for (const s of sockets) s.destroy();
  await pool.close();
  const delivery = summarize(latencies, total - errors - latencies.length, [], ingestSeconds);
  return {
    scenario: `sse delivery (${STREAMS} streams, ${SSE_RATE} ev/s)`,
    result: delivery,
    rssMB: rssAfter,
    load: load(),
    note: `posts ${summarize(postLatencies, errors, [], ingestSeconds).perSecond}/s, ${errors} errors`,
    streams: {
      held: sockets.length,
      openSeconds: Math.round(openSeconds * 10) / 10,
      rssMB: { before: rssBefore, holding: rssHeld, after: rssAfter },
      rssPer1000StreamsMB: Math.round(((rssHeld - rssBefore) * 1000) / STREAMS * 10) / 10,
      delivered: `${latencies.length}/${total - errors}`,
    },
  };
}

// ---------------------------------------------------------------- growth

/**
 * `--growth [N]`: table and index size per event at N events (default
 * 1,000,000), on copies of the tables (same columns and indexes) filled with
 * SQL the way the API fills them: one events row per event (with verdicts),
 * an idempotency row for half of them, 2,000 users' progress rows, per-minute
 * rollups over one day. The copies are dropped afterwards.
 */
async function growth(db: pg.Client, n: number): Promise<void> {
  const tables = ['events', 'idempotency_keys', 'progress', 'analytics_rollups', 'user_sequences'];
  for (const t of tables) {
    await db.query(`drop table if exists growth_${t}`);
    await db.query(`create table growth_${t} (like ${t} including all)`);
  }
  const t0 = performance.now();
  const now = Date.now();
  await db.query(
    `insert into growth_events (id, app_id, user_id, name, payload, timestamp, idempotency_key, source, received_at, outcome)
     select 'evt_' || gen_random_uuid(), 'bench-app', 'u' || (i % 2000), 'match_played',
       jsonb_build_object('mode', 'ranked', 'score', i % 50, 'durationSec', 300 + i % 400), $1::bigint - ($2::int - i) * 10,
       case when i % 2 = 0 then 'k-' || i end, 'api', $1::bigint - ($2::int - i) * 10,
       '[{"missionId":"life","counted":true,"change":"progress","currentCount":5,"targetCount":1000},{"missionId":"ranked","counted":false,"code":"filter_mismatch","key":"mode","condition":"eq","missing":false,"seen":"casual"}]'::jsonb
     from generate_series(1, $2::int) i`,
    [now, n],
  );
  await db.query(
    `insert into growth_idempotency_keys (app_id, user_id, key, request_hash, status, response, created_at)
     select 'bench-app', 'u' || (i % 2000), 'event:k-' || i, md5(i::text) || md5((i + 1)::text), 200,
       to_jsonb('{"accepted":true,"eventId":"evt_' || gen_random_uuid() || '","missionsUpdated":["life","daily"]}'), $1::bigint
     from generate_series(2, $2::int, 2) i`,
    [now, n],
  );
  await db.query(
    `insert into growth_progress (app_id, user_id, mission_id, status, current_count, target_count, window_start, cycle, updated_at)
     select 'bench-app', 'u' || u, m, 'active', 5, 1000, 0, 1, $1::bigint from generate_series(0, 1999) u, unnest(array['life','daily','ranked','buy']) m`,
    [now],
  );
  await db.query(
    `insert into growth_analytics_rollups (app_id, bucket_start, kind, key, shard, count, amount)
     select 'bench-app', $1::bigint - m * 60000 - $1::bigint % 60000, 'event', 'match_played', s, 10, 0 from generate_series(0, 1439) m, generate_series(0, 7) s`,
    [now],
  );
  await db.query(`insert into growth_user_sequences (app_id, user_id, seq) select 'bench-app', 'u' || u, 500 from generate_series(0, 1999) u`);
  for (const t of tables) await db.query(`analyze growth_${t}`);
  const seconds = (performance.now() - t0) / 1000;
  console.log(`\ngrowth at ${n.toLocaleString('en')} events (filled in ${seconds.toFixed(0)} s; load average ${load()})\n`);
  console.log('| table | rows | heap MB | indexes MB | total MB | bytes per event |');
  console.log('|---|---|---|---|---|---|');
  for (const t of tables) {
    const { rows } = await db.query(
      `select (select count(*) from growth_${t})::bigint as rows, pg_table_size('growth_${t}') as heap, pg_indexes_size('growth_${t}') as idx, pg_total_relation_size('growth_${t}') as total`,
    );
    const r = rows[0] as { rows: string; heap: string; idx: string; total: string };
    const mb = (x: string) => (Number(x) / 1048576).toFixed(1);
    console.log(`| ${t} | ${Number(r.rows).toLocaleString('en')} | ${mb(r.heap)} | ${mb(r.idx)} | ${mb(r.total)} | ${Math.round(Number(r.total) / n)} |`);
  }
  const { rows: idx } = await db.query(
    `select indexrelname as name, pg_relation_size(indexrelid) as size from pg_stat_user_indexes where relname like 'growth_%' order by 2 desc`,
  );
  console.log(`indexes: ${idx.map((x: { name: string; size: string }) => `${x.name} ${(Number(x.size) / 1048576).toFixed(1)} MB`).join(', ')}`);
  for (const t of tables) await db.query(`drop table growth_${t}`);
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const runId = Date.now().toString(36);
  log(`questline bench ${QUICK ? '--quick ' : ''}on ${cpus().length} cores, node ${process.version}; load average ${load()}`);
  if (!EMBEDDED) await ensureDatabase();
  if (flag('growth')) {
    if (EMBEDDED) throw new Error('--growth measures PostgreSQL tables: run it without --embedded');
    // Table sizes only: needs the schema (migrations), so the server starts and stops once first.
    const size = Number(option('growth', '1000000')) || 1_000_000;
    const booted = await startServer();
    await booted.stop();
    const db = new pg.Client({ connectionString: DATABASE_URL });
    await db.connect();
    try {
      await growth(db, size);
    } finally {
      await db.end();
    }
    return;
  }
  let server = await startServer();
  let db: pg.Client | null = null;
  if (EMBEDDED) {
    // The bulk rows go in through PGlite itself while the server is stopped
    // (one process per data directory); the apps first, through the API.
    if (ONLY.has('claims')) await createClaimsApp(server, runId);
    if (ONLY.has('missions')) await createApp(server, LIST_APP, { missions: [] });
    await server.stop();
    if (ONLY.has('claims') || ONLY.has('missions')) {
      const { PGlite } = await import('@electric-sql/pglite');
      const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
      const lite = new PGlite(path.join(DATA_DIR, 'pg'), { extensions: { pg_trgm } });
      await lite.waitReady;
      if (ONLY.has('claims')) await seedClaims(lite, `bench-cl-${runId}`);
      if (ONLY.has('missions')) await seedList(lite, LIST_APP, null);
      await lite.close();
    }
    server = await startServer();
  } else {
    db = new pg.Client({ connectionString: DATABASE_URL });
    await db.connect();
    // With autovacuum off (this machine's PostgreSQL: /etc/postgresql/15/main/conf.d/90-ci.conf),
    // every run's dead rows and stale statistics stay, and each run on the same database is slower
    // than the one before: do autovacuum's work first, so that runs compare.
    const { rows: autovacuum } = await db.query<{ autovacuum: string }>('show autovacuum');
    if (autovacuum[0]?.autovacuum === 'off') {
      const started = performance.now();
      await db.query('vacuum analyze');
      log(`autovacuum is off on this server: ran VACUUM ANALYZE first (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    }
  }
  const rows: Row[] = [];
  let cpuStart = 0;
  const start = () => void (cpuStart = cpuMs(server.child.pid!));
  restartCpu = start;
  const done = (r: Row) => {
    r.cpuPerRequestMs = Math.round(((cpuMs(server.child.pid!) - cpuStart) / Math.max(1, r.result.requests)) * 100) / 100;
    rows.push(r);
    const x = r.result;
    log(`${r.scenario}: ${x.perSecond}/s, p50 ${x.latencyMs.p50} ms, p99 ${x.latencyMs.p99} ms, max ${x.latencyMs.max} ms, ${x.errors} errors, RSS ${r.rssMB} MB, server CPU ${r.cpuPerRequestMs} ms/request`);
    if (x.p99ByWindow.length > 1) log(`${r.scenario}: p99 of each 5 s: ${x.p99ByWindow.join(', ')} ms`);
  };
  let sse: Record<string, unknown> | null = null;
  try {
    log(`server ${server.url} (pid ${server.child.pid}), RSS ${rssMB(server.child.pid!)} MB`);
    if (db !== null) log(`pgbench: insert event + upsert one progress row, ${PGBENCH_CLIENTS} clients, ${QUICK ? 8 : 20} s…`);
    const pgb = db === null ? null : await runPgbench(db, QUICK ? 8 : 20);
    log(`pgbench ${pgb ? `${pgb.tps} tps` : EMBEDDED ? 'not run (--embedded)' : 'unavailable'}; load average ${load()}`);
    if (ONLY.has('events')) {
      log(`events: ${CONNECTIONS} connections, ${SECONDS} s…`);
      start();
      done(await benchEvents(server, runId));
    }
    if (ONLY.has('many')) {
      log(`events (many players): ${MANY_USERS} users, ${CONNECTIONS} connections, ${SECONDS} s…`);
      start();
      done(await benchEventsManyPlayers(server, runId));
      if (db === null) log('events (returning players): not run with --embedded (its players are seeded with SQL)');
      else {
        log(`events (returning players): ${returningUsers()} users, ${CONNECTIONS} connections, ${SECONDS} s…`);
        start();
        done(await benchEventsReturning(server, db, runId));
      }
    }
    if (ONLY.has('claims')) {
      log(`claims: ${CONNECTIONS} connections…`);
      start();
      done(await benchClaims(server, db, runId));
    }
    if (ONLY.has('missions')) {
      log(`missions list: ${CONNECTIONS} connections…`);
      start();
      done(await benchMissionList(server, db));
    }
    if (ONLY.has('sse')) {
      log(`sse: ${STREAMS} streams, ${SSE_RATE} events/s for ${SSE_SECONDS} s…`);
      start();
      const r = await benchSse(server, runId);
      sse = r.streams;
      done(r);
    }
    let scaleRows: ScaleRow[] = [];
    if (ONLY.has('scale')) {
      if (db === null) throw new Error('--only scale measures a seeded PostgreSQL database: run it without --embedded');
      log(`at scale: the seeded app ${SEEDED}…`);
      scaleRows = await benchAtScale({
        appId: SEEDED,
        url: server.url,
        databaseUrl: DATABASE_URL,
        db,
        connections: CONNECTIONS,
        seconds: SECONDS,
        admin: server.admin,
        tokens,
        log,
        restartCpu: start,
        done: (r) => done({ ...r, rssMB: rssMB(server.child.pid!), load: load() }),
      });
    }
    console.log('');
    console.log('| scenario | req/s | p50 ms | p90 ms | p99 ms | max ms | errors | server CPU ms/req | server RSS MB | load avg (1/5/15) | note |');
    console.log('|---|---|---|---|---|---|---|---|---|---|---|');
    for (const r of rows) {
      const { result: x } = r;
      console.log(`| ${r.scenario} | ${x.perSecond} | ${x.latencyMs.p50} | ${x.latencyMs.p90} | ${x.latencyMs.p99} | ${x.latencyMs.max} | ${x.errors} | ${r.cpuPerRequestMs} | ${r.rssMB} | ${r.load} | ${r.note ?? ''} |`);
    }
    console.log('');
    if (pgb) {
      const ratios = rows.filter((r) => r.scenario.startsWith('events')).map((r) => `${r.scenario}: events/s ÷ pgbench tps = ${(r.result.perSecond / pgb.tps).toFixed(3)}`);
      console.log(`pgbench (insert event + upsert progress, ${pgb.clients} clients): ${pgb.tps} tps${ratios.length ? `; ${ratios.join('; ')}` : ''}`);
    }
    if (sse) console.log(`streams: ${JSON.stringify(sse)}`);
    if (scaleRows.length) printScaleRows(scaleRows);
    for (const r of rows) if (r.result.errorSamples.length) console.log(`${r.scenario} errors: ${r.result.errorSamples.join(' | ')}`);
  } finally {
    await db?.end();
    await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
