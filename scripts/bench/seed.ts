// `npm run bench:seed -- [--players 1000000] [--events 10000000] [--days 30] [--app seed]`
//
// Fills DATABASE_URL (PostgreSQL; migrated first) with one app of N players
// and M events over the last D days, with the progress, ledger, balances,
// change counters, player-search rows and dashboard rollups that match them
// (scripts/bench/seed-sql.ts: the model), generated inside the database, a
// day of events per statement with progress lines; then runs the SQL
// consistency check (checkSeed) and exits 1 when any row disagrees.
// `npm run bench -- --only scale --seeded <app>` measures issue 43 §2 on it
// (docs/engineering/benchmarks.md, "At the size of a real game").
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { upgradeEventsTable } from '../../db/event-partitions';
import pg from 'pg';
import * as schema from '../../db/schema';
import { checkSeed, seed } from './seed-sql';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const PLAYERS = Number(option('players', '1000000'));
const EVENTS = Number(option('events', '10000000'));
const DAYS = Number(option('days', '30'));
const APP = option('app', 'seed');
const DATABASE_URL = process.env.DATABASE_URL ?? '';
if (!DATABASE_URL.startsWith('postgres')) {
  console.error('bench:seed needs DATABASE_URL=postgres://… (a database of its own: it writes millions of rows)');
  process.exit(2);
}
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

async function main(): Promise<void> {
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
  await migrate(drizzle({ client: pool, schema }), { migrationsFolder: path.join(process.cwd(), 'db', 'migrations') });
  // As the service's start does after migrating (db/client.ts): `events` partitioned by day. Without it a
  // new database's events table is still the plain one the migrations made, the seeded days all land in it,
  // and the service's next start attaches it whole as `events_legacy` (retention then deletes rows).
  const conn = await pool.connect();
  try {
    await upgradeEventsTable(async (text) => (await conn.query<Record<string, unknown>>(text)).rows);
  } finally {
    conn.release();
  }
  await pool.end();
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    // A seed, not a service write: no wait for the WAL flush, room to sort and hash in memory, no time bound.
    await client.query("set synchronous_commit = off; set work_mem = '256MB'; set maintenance_work_mem = '512MB'; set statement_timeout = 0");
    log(`seeding app ${APP}: ${PLAYERS.toLocaleString('en')} players, ${EVENTS.toLocaleString('en')} events over ${DAYS} days (load average ${loadavg().map((n) => n.toFixed(2)).join(' ')})`);
    const result = await seed(client, { appId: APP, players: PLAYERS, events: EVENTS, days: DAYS, log });
    log(
      `seeded in ${result.seconds.toFixed(1)} s: events ${result.eventSeconds.toFixed(1)} s (${Math.round(result.events / result.eventSeconds).toLocaleString('en')} events/s), ` +
        `${Math.round(result.events / result.seconds).toLocaleString('en')} events/s overall; rows: ${Object.entries(result.rows)
          .map(([t, n]) => `${t} ${n.toLocaleString('en')}`)
          .join(', ')}; load average ${loadavg().map((n) => n.toFixed(2)).join(' ')}`,
    );
    const checked = performance.now();
    const checks = await checkSeed(client, APP);
    log(`consistency check in ${((performance.now() - checked) / 1000).toFixed(1)} s:`);
    console.log('| check | rows that disagree |');
    console.log('|---|---|');
    for (const c of checks) console.log(`| ${c.check} | ${c.mismatches} |`);
    if (checks.some((c) => c.mismatches !== 0)) {
      console.error('bench:seed: the seeded rows do not agree (see the table)');
      process.exitCode = 1;
    }
  } finally {
    await client.end();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
