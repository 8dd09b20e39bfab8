// `npm run bench:search [-- --users N] [-- --queries N] [-- --keep]`
//
// The support desk's player search (GET /api/admin/apps/:appId/users?query=…)
// at a million players on PostgreSQL: migrates DATABASE_URL, fills app_users
// of one app (`bench-search`) with N users (default 1,000,000; ids
// `p-<8 hex digits>`, all distinct, last seen spread over a year), then runs
// the search verb itself (lib/services/users/search-users.ts, the query the
// endpoint sends, through drizzle on node-postgres) one query at a time for
// fragments of 4 to 10 characters cut from existing ids at random places, in
// random case, and prints p50/p90/p99/max per fragment length with the plans
// of a few, and pgbench's ingestion transaction as the machine's ceiling.
// The rows are deleted at the end unless --keep. docs/engineering/benchmarks.md records
// the figures; no test asserts a time.
import { performance } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { Db } from '../../db/client';
import * as schema from '../../db/schema';
import type { ServiceContext } from '../../lib/services/context';
import { searchUsers } from '../../lib/services/users/search-users';
import { runIngestPgbench } from './pgbench';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const USERS = Number(option('users', '1000000'));
const QUERIES = Number(option('queries', '2000'));
const KEEP = argv.includes('--keep');
const APP = 'bench-search';
const DATABASE_URL = process.env.DATABASE_URL ?? '';
if (!DATABASE_URL.startsWith('postgres')) {
  console.error('bench:search needs DATABASE_URL=postgres://… (PostgreSQL; the embedded database is not what this measures)');
  process.exit(1);
}

const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
/** User i's id: i times an odd constant modulo 2^32 is a bijection, so every id differs. */
const idOf = (i: number) => `p-${((i * 2654435761) % 4294967296).toString(16).padStart(8, '0')}`;
const SQL_ID = `'p-' || lpad(to_hex(((i::bigint * 2654435761) % 4294967296)), 8, '0')`;

function randomCase(text: string): string {
  return [...text].map((c) => (Math.random() < 0.5 ? c.toUpperCase() : c)).join('');
}

/** A fragment of a random existing id: `length` characters from a random place. */
function fragment(length: number): string {
  const id = idOf(1 + Math.floor(Math.random() * USERS));
  const start = Math.floor(Math.random() * (id.length - length + 1));
  return randomCase(id.slice(start, start + length));
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const ms = (n: number) => n.toFixed(1);

async function main(): Promise<void> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
  const db = drizzle({ client: pool, schema });
  await migrate(db, { migrationsFolder: path.join(process.cwd(), 'db', 'migrations') });

  const { rows: present } = await client.query<{ n: number }>('select count(*)::int as n from app_users where app_id = $1', [APP]);
  if (present[0].n !== USERS) {
    log(`seeding ${USERS.toLocaleString('en')} users into app_users (app ${APP})…`);
    const started = performance.now();
    await client.query('delete from app_users where app_id = $1', [APP]);
    await client.query(
      `insert into app_users (app_id, user_id, first_seen_at, last_seen_at, events)
       select $1, ${SQL_ID}, 1700000000000 + i, 1760000000000 + (i::bigint * 7919) % 31536000000, 1 + i % 50 from generate_series(1, $2::int) i`,
      [APP, USERS],
    );
    log(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } else log(`${USERS.toLocaleString('en')} users of ${APP} already there`);
  await client.query('vacuum analyze app_users');
  const { rows: total } = await client.query<{ n: number }>('select count(*)::int as n from app_users');
  const { rows: version } = await client.query<{ server_version: string }>('show server_version');

  const ctx = { appId: APP, deps: { db: db as unknown as Db } } as unknown as ServiceContext;
  const search = (query: string) => searchUsers({ ctx, input: { query, limit: 20 } });

  log('warm-up: 300 queries');
  for (let i = 0; i < 300; i++) await search(fragment(4 + (i % 7)));

  const lengths = [4, 5, 6, 7, 8, 10];
  const times = new Map<number, number[]>(lengths.map((l) => [l, []]));
  const matches = new Map<number, number[]>(lengths.map((l) => [l, []]));
  const all: number[] = [];
  let slowest = { ms: 0, query: '' };
  log(`${QUERIES} queries, one at a time (load average ${loadavg().map((n) => n.toFixed(1)).join(' ')})`);
  for (let i = 0; i < QUERIES; i++) {
    const length = lengths[i % lengths.length];
    const query = fragment(length);
    const started = performance.now();
    const page = await search(query);
    const took = performance.now() - started;
    if (!page.users.length) throw new Error(`nothing found for ${query}`);
    times.get(length)!.push(took);
    matches.get(length)!.push(page.users.length);
    all.push(took);
    if (took > slowest.ms) slowest = { ms: took, query };
  }

  // The widest 4-character fragments: the shared "p-" and one hex digit (1/16 of every id) or two (1/256).
  const wide: number[] = [];
  for (let i = 0; i < 200; i++) {
    const query = randomCase(idOf(1 + Math.floor(Math.random() * USERS)).slice(0, 4));
    const started = performance.now();
    await search(query);
    wide.push(performance.now() - started);
  }

  console.log(`\nPostgreSQL ${version[0].server_version}; app_users: ${total[0].n.toLocaleString('en')} rows, ${USERS.toLocaleString('en')} of them in ${APP}; load average ${loadavg().map((n) => n.toFixed(1)).join(' ')}`);
  console.log('| fragment | queries | p50 ms | p90 ms | p99 ms | max ms |');
  console.log('|---|---|---|---|---|---|');
  const row = (label: string, list: number[]) => {
    const sorted = [...list].sort((a, b) => a - b);
    console.log(`| ${label} | ${sorted.length} | ${ms(pct(sorted, 50))} | ${ms(pct(sorted, 90))} | ${ms(pct(sorted, 99))} | ${ms(sorted[sorted.length - 1])} |`);
  };
  for (const l of lengths) row(`${l} characters, from a random place`, times.get(l)!);
  row('**all of the above**', all);
  row('4 characters "p-xx" (about 3,900 matches)', wide);
  console.log(`slowest: ${ms(slowest.ms)} ms for "${slowest.query}"`);

  // The same statement's execution time inside PostgreSQL (EXPLAIN ANALYZE): what the indexes do, without
  // the round trip and the client's scheduling (which a loaded machine stretches).
  const explain = async (statement: ReturnType<typeof sql>) => {
    const plan = await db.execute(sql`explain (analyze, timing off, summary on) ${statement}`);
    return (plan as unknown as { rows: Array<{ 'QUERY PLAN': string }> }).rows.map((r) => r['QUERY PLAN']);
  };
  const statement = (pattern: string) =>
    sql`select user_id, first_seen_at, last_seen_at, events from app_users where app_id = ${APP} and user_id ilike ${pattern} order by last_seen_at desc, user_id desc limit 21`;
  const executionMs = (lines: string[]) => Number(lines.map((l) => /Execution Time: ([\d.]+) ms/.exec(l)).find(Boolean)?.[1] ?? Number.NaN);
  const insideOf = async (query: string) => {
    const first = await explain(statement(`%${query}%`));
    return { ms: executionMs(first), first };
  };
  const inside: number[] = [];
  const insideWide: number[] = [];
  for (let i = 0; i < 600; i++) {
    const query = fragment(lengths[i % lengths.length]);
    inside.push((await insideOf(query)).ms);
  }
  for (let i = 0; i < 150; i++) insideWide.push((await insideOf(randomCase(idOf(1 + Math.floor(Math.random() * USERS)).slice(0, 4)))).ms);
  console.log('\nInside PostgreSQL (EXPLAIN ANALYZE execution time of the statement the search runs):');
  console.log('| fragment | queries | p50 ms | p90 ms | p99 ms | max ms |');
  console.log('|---|---|---|---|---|---|');
  row('4 to 10 characters, from a random place', inside);
  row('4 characters "p-xx"', insideWide);

  for (const query of [fragment(4), '7F3A', 'P-7F', 'p-7f3a21']) {
    const { first } = await insideOf(query);
    console.log(`\nplan for "${query}":\n  ${first.join('\n  ')}`);
  }

  log('pgbench: insert event + upsert one progress row, 16 clients, 20 s…');
  const pgb = await runIngestPgbench(client, { databaseUrl: DATABASE_URL, clients: 16, seconds: 20 });
  console.log(`pgbench (ceiling, 16 clients, 20 s): ${pgb ? `${pgb.tps.toLocaleString('en')} tps` : 'failed'}`);

  if (!KEEP) await client.query('delete from app_users where app_id = $1', [APP]);
  await client.end();
  await pool.end();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
