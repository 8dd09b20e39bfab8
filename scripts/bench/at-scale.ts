// `npm run bench -- --only many,scale --seeded <app>`: issue 43 §2's
// measurements on a database the seed filled (`npm run bench:seed`,
// scripts/bench/seed-sql.ts), in one run with pgbench and the many-players
// events scenario (scripts/bench/index.ts runs those):
// - GET /v1/missions and POST /v1/missions/:id/claim of the seeded players,
//   64 connections (the claims take missions the seed left completed);
// - the inspector's first page of a player's events (GET …/users/:userId/events)
//   and the player search (GET …/users?query=), one request at a time;
// - the impact replay of a draft over the last 7 and 30 days (POST …/draft/impact);
// - a player's export (GET …/users/:userId/export) and erasure (DELETE …/users/:userId), one at a time;
// - retention of one day: the retention job (lib/retention/retention.ts
//   runRetention) with its clock set so that exactly the oldest day of events
//   is past EVENT_RETENTION_DAYS (last: it deletes seeded rows).
// Every request goes to the production server index.ts started; the sequential
// ones print p50/p99/max. docs/engineering/benchmarks.md describes it; no test asserts a time.
import { performance } from 'node:perf_hooks';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from '../../db/schema';
import type { Db } from '../../db/client';
import { runLoad, summarize, type Job, type LoadResult } from './load';
import { seedCatalog } from './seed-sql';

const DAY = 86_400_000;

/** What index.ts lends the scenario. */
export interface ScaleHarness {
  appId: string;
  url: string;
  databaseUrl: string;
  db: pg.Client;
  connections: number;
  seconds: number;
  admin(method: string, route: string, body?: unknown): Promise<{ status: number; text: string }>;
  tokens(appId: string, users: string[]): Promise<string[]>;
  log(line: string): void;
  /** Restarts the server CPU count (after a warm-up). */
  restartCpu(): void;
  /** Reports a load row (index.ts's table). */
  done(row: { scenario: string; result: LoadResult; note: string }): void;
}

/** One sequential measurement: requests one at a time, with its goal. */
export interface ScaleRow {
  measurement: string;
  runs: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  goal: string;
  note: string;
}

const round = (x: number) => Math.round(x * 10) / 10;

async function sequential(
  h: ScaleHarness,
  measurement: string,
  goal: string,
  calls: Array<() => Promise<{ status: number; text: string }>>,
  ok: (status: number) => boolean,
  note: string,
): Promise<ScaleRow> {
  const times: number[] = [];
  let errors = 0;
  const samples: string[] = [];
  for (const call of calls) {
    const t0 = performance.now();
    const res = await call();
    times.push(performance.now() - t0);
    if (!ok(res.status)) {
      errors += 1;
      if (samples.length < 3) samples.push(`${res.status} ${res.text.slice(0, 200)}`);
    }
  }
  const s = summarize(times, errors, samples, 1);
  const row = { measurement, runs: times.length, p50: round(s.latencyMs.p50), p99: round(s.latencyMs.p99), max: round(s.latencyMs.max), errors, goal, note };
  h.log(`${measurement}: ${row.runs} requests, p50 ${row.p50} ms, p99 ${row.p99} ms, max ${row.max} ms, ${errors} errors${samples.length ? ` (${samples.join(' | ')})` : ''}`);
  return row;
}

/** A fragment of `id`: `length` characters from a random place, in random case (the support desk types any part of an id). */
function fragment(id: string, length: number): string {
  const start = Math.floor(Math.random() * (id.length - length + 1));
  return [...id.slice(start, start + length)].map((c) => (Math.random() < 0.5 ? c.toUpperCase() : c)).join('');
}

export async function benchAtScale(h: ScaleHarness): Promise<ScaleRow[]> {
  const { appId, db } = h;
  const rows: ScaleRow[] = [];
  const q = async <T>(text: string, params: unknown[] = [appId]) => (await db.query(text, params)).rows as T[];
  const [size] = await q<{ events: string; players: string; oldest: string }>(
    `select (select count(*) from events where app_id = $1)::text as events, (select count(*) from app_users where app_id = $1)::text as players,
       (select min(received_at) from events where app_id = $1)::text as oldest`,
  );
  if (Number(size.players) === 0) throw new Error(`--seeded ${appId}: the app has no players (npm run bench:seed -- --app ${appId} first)`);
  const scale = `${Number(size.players).toLocaleString('en')} players, ${Number(size.events).toLocaleString('en')} events`;
  h.log(`at scale: app ${appId}, ${scale}`);
  // Players spread over the app (a hash of the id picks them), and its regulars (most events).
  const spread = (await q<{ user_id: string }>(`select user_id from app_users where app_id = $1 order by md5(user_id) limit 2000`)).map((r) => r.user_id);
  const regulars = (await q<{ user_id: string }>(`select user_id from app_users where app_id = $1 order by events desc, user_id limit 100`)).map((r) => r.user_id);
  const enc = encodeURIComponent;
  const base = `/api/admin/apps/${enc(appId)}`;

  // GET /v1/missions: each token once as the warm-up, then the load.
  {
    const toks = await h.tokens(appId, spread);
    let n = 0;
    const next = (): Job => {
      const i = n++ % spread.length;
      return { method: 'GET', path: '/v1/missions', headers: { authorization: `Bearer ${toks[i]}` } };
    };
    let warmed = 0;
    await runLoad({ url: h.url, connections: h.connections, seconds: 60, next: () => (warmed++ < spread.length ? next() : null) });
    h.restartCpu();
    const result = await runLoad({ url: h.url, connections: h.connections, seconds: h.seconds, next });
    h.done({ scenario: 'missions list (seeded)', result, note: `${scale}; 2,000 players spread over the app, 6 missions each` });
  }

  // POST /v1/missions/:id/claim of missions the seed left completed: the first tenth as the warm-up, each claimed once.
  {
    const completed = await q<{ user_id: string; mission_id: string }>(
      `select user_id, mission_id from progress where app_id = $1 and status = 'completed' order by md5(user_id || mission_id) limit 60000`,
    );
    const users = [...new Set(completed.map((r) => r.user_id))];
    const toks = new Map<string, string>();
    const list = await h.tokens(appId, users);
    users.forEach((u, i) => toks.set(u, list[i]));
    const jobs = (from: number, to: number) => {
      let n = from;
      return (): Job | null => {
        if (n >= to) return null;
        const r = completed[n++];
        const headers: Record<string, string> = { authorization: `Bearer ${toks.get(r.user_id)}` };
        if (n % 2 === 0) headers['idempotency-key'] = `scale-claim-${n}`;
        return { method: 'POST', path: `/v1/missions/${enc(r.mission_id)}/claim`, headers };
      };
    };
    const warmEnd = Math.floor(completed.length / 10);
    const warm = await runLoad({ url: h.url, connections: h.connections, seconds: 5, next: jobs(0, warmEnd) });
    h.log(`claims (seeded): warm-up ${warm.requests} requests, p99 ${warm.latencyMs.p99} ms, ${warm.errors} errors (not counted)`);
    h.restartCpu();
    const result = await runLoad({ url: h.url, connections: h.connections, seconds: h.seconds, next: jobs(warmEnd, completed.length) });
    h.done({ scenario: 'claims (seeded)', result, note: `${scale}; missions the seed left completed, each claimed once, half keyed (${completed.length} available)` });
  }

  // The inspector's first page of a player's events, and the player search.
  const get = (route: string) => () => h.admin('GET', route);
  rows.push(
    await sequential(h, 'inspector: first page of events, players spread over the app', 'p99 ≤ 50 ms', spread.slice(0, 300).map((u) => get(`${base}/users/${enc(u)}/events`)), (s) => s === 200, scale),
  );
  rows.push(
    await sequential(h, 'inspector: first page of events, regulars (most events)', 'p99 ≤ 50 ms', regulars.map((u) => get(`${base}/users/${enc(u)}/events`)), (s) => s === 200, `${scale}; the 100 players with most events`),
  );
  rows.push(
    await sequential(
      h,
      'player search (4 to 8 characters of an id)',
      'p99 ≤ 50 ms',
      Array.from({ length: 300 }, (_, i) => get(`${base}/users?query=${enc(fragment(spread[(i * 7) % spread.length], 4 + (i % 5)))}`)),
      (s) => s === 200,
      scale,
    ),
  );

  // The impact replay of a draft (two missions changed, one added) over 7 and 30 days.
  {
    const catalog = seedCatalog();
    const missions = catalog.missions.map((m) =>
      m.id === 'play_20' ? { ...m, criteria: { ...(m.criteria as object), count: 15 } } : m.id === 'ranked_10' ? { ...m, reward: { kind: 'currency', currency: 'gems', amount: 30 } } : m,
    );
    missions.push({ id: 'win_10', title: 'Win 10 matches', criteria: { eventName: 'match_won', count: 10 }, reward: { kind: 'currency', currency: 'gold', amount: 200 } });
    const put = await h.admin('PUT', `${base}/draft`, { missions });
    if (put.status !== 200) throw new Error(`PUT draft: ${put.status} ${put.text.slice(0, 300)}`);
    for (const days of [7, 30]) {
      rows.push(
        await sequential(h, `impact replay, last ${days} days`, days === 30 ? '≤ 30 s' : '—', [() => h.admin('POST', `${base}/draft/impact`, { days })], (s) => s === 200, `${scale}; draft: 2 missions changed, 1 added`),
      );
    }
    await h.admin('DELETE', `${base}/draft`);
  }

  // A player's export and erasure (different players; half of them regulars).
  const exported = [...regulars.slice(0, 10), ...spread.slice(300, 310)];
  rows.push(await sequential(h, "a player's export", '≤ 1 s', exported.map((u) => get(`${base}/users/${enc(u)}/export`)), (s) => s === 200, `${scale}; 10 regulars, 10 others`));
  const erased = [...regulars.slice(10, 20), ...spread.slice(310, 320)];
  rows.push(
    await sequential(
      h,
      "a player's erasure",
      '≤ 1 s',
      erased.map((u) => () => h.admin('DELETE', `${base}/users/${enc(u)}`, { reason: 'bench: erasure at scale' })),
      (s) => s === 200,
      `${scale}; 10 regulars, 10 others`,
    ),
  );

  // Retention of one day: the job, its clock two days after the oldest event, EVENT_RETENTION_DAYS 1: the oldest day goes.
  {
    const pool = new pg.Pool({ connectionString: h.databaseUrl, max: 1 });
    const drizzled = drizzle({ client: pool, schema }) as unknown as Db;
    const oldest = Number(size.oldest);
    const [day] = await q<{ n: number }>('select count(*)::int as n from events where received_at < $1', [oldest + DAY]);
    const { runRetention } = await import('../../lib/retention/retention');
    const t0 = performance.now();
    const result = await runRetention(drizzled, { eventDays: 1, analyticsDays: 36_500, batch: 5_000 }, oldest + 2 * DAY);
    const ms = performance.now() - t0;
    await pool.end();
    h.log(`retention of one day: ${result.events} events in ${(ms / 1000).toFixed(1)} s (${day.n} were older than a day after the oldest)`);
    rows.push({
      measurement: 'retention of one day (the retention job)',
      runs: 1,
      p50: round(ms),
      p99: round(ms),
      max: round(ms),
      errors: result.events === day.n ? 0 : 1,
      goal: '—',
      note: `${result.events.toLocaleString('en')} events deleted (${Math.round(result.events / (ms / 1000)).toLocaleString('en')}/s)`,
    });
  }
  return rows;
}

/** The sequential measurements' table. */
export function printScaleRows(rows: ScaleRow[]): void {
  console.log('');
  console.log('| measurement (one request at a time) | requests | p50 ms | p99 ms | max ms | errors | goal | note |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.measurement} | ${r.runs} | ${r.p50} | ${r.p99} | ${r.max} | ${r.errors} | ${r.goal} | ${r.note} |`);
}
