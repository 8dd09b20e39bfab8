// Measures the in-place upgrade of an existing events table to the
// partitioned layout (db/event-partitions.ts) and the drop of a partition,
// while a writer keeps inserting events, on the PostgreSQL of DATABASE_URL
// (docs/engineering/benchmarks.md, "Events partitioned by day").
//
//   DATABASE_URL=postgres://…/db npx tsx scripts/bench/partition-upgrade.ts [--drop PARTITION]
//
// The database must hold an unpartitioned events table (seed it with SQL:
// generate_series, see the benchmarks page). Prints the check's validation
// time (ingestion goes on), the swap's time (the one moment inserts wait),
// the writer's longest insert and, with --drop, the time to detach and drop
// a partition with the writer still running.
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { dropEventPartitionsBefore, ensureEventPartitions, listEventPartitions, upgradeEventsTable } from '@/db/event-partitions';
import type { DbOrTx } from '@/db/client';
import { newEventId } from '@/lib/events/event-id';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('set DATABASE_URL');

/** Inserts one event after another on its own connection until stopped; answers the count and the slowest insert (ms). */
function writer(client: pg.Client) {
  let stop = false;
  let count = 0;
  let slowest = 0;
  let slowestAt = 0;
  const done = (async () => {
    while (!stop) {
      const at = Date.now();
      const t = performance.now();
      await client.query(
        `insert into events (id, app_id, user_id, name, payload, "timestamp", received_at, source) values ($1, 'bench-app', $2, 'match_played', '{}', $3, $3, 'api')`,
        [newEventId(at), `writer-${count % 1000}`, at],
      );
      const took = performance.now() - t;
      if (took > slowest) [slowest, slowestAt] = [took, at];
      count++;
    }
  })();
  return {
    stop: async () => {
      stop = true;
      await done;
      return { count, slowest, slowestAt };
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fmt = (ms: number) => `${(ms / 1000).toFixed(3)} s`;

async function main() {
  const writeConn = new pg.Client({ connectionString: url });
  const upgradeConn = new pg.Client({ connectionString: url });
  await Promise.all([writeConn.connect(), upgradeConn.connect()]);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const db = drizzle({ client: pool }) as unknown as DbOrTx;
  const [{ n }] = (await upgradeConn.query('select count(*)::bigint as n from events')).rows as Array<{ n: string }>;
  console.log(`events: ${Number(n).toLocaleString('en')} rows`);

  const w = writer(writeConn);
  await sleep(2_000);
  const t = performance.now();
  const result = await upgradeEventsTable(async (text) => (await upgradeConn.query(text)).rows as Array<Record<string, unknown>>);
  const total = performance.now() - t;
  const created = await ensureEventPartitions(db);
  await sleep(2_000);
  const wrote = await w.stop();
  console.log(`upgrade: ${result.upgraded ? 'done' : 'nothing to do'}; total ${fmt(total)}; check validated in ${fmt(result.validateMs ?? 0)} (inserts go on); swap ${fmt(result.swapMs ?? 0)}`);
  console.log(`partitions created: ${created.length} (${created[0] ?? '-'} … ${created.at(-1) ?? '-'})`);
  console.log(`writer: ${wrote.count} inserts meanwhile; slowest ${wrote.slowest.toFixed(1)} ms`);

  // --drop NAME: drops that partition (detach, then drop) with the writer running.
  const dropAt = process.argv.indexOf('--drop');
  if (dropAt > 0) {
    const name = process.argv[dropAt + 1];
    const part = (await listEventPartitions(db)).find((p) => p.name === name);
    if (part?.to == null || part.from == null) throw new Error(`no range partition ${name}`);
    const [{ rows, size }] = (await upgradeConn.query(`select count(*)::bigint as rows, pg_size_pretty(pg_total_relation_size('${name}')) as size from ${name}`))
      .rows as Array<{ rows: string; size: string }>;
    const w2 = writer(writeConn);
    await sleep(1_000);
    const timings: Array<{ name: string; detachMs: number; dropMs: number }> = [];
    const t2 = performance.now();
    await dropEventPartitionsBefore(db, part.to, { from: Number.isFinite(part.from) ? part.from : -Number.MAX_VALUE, timings });
    const took = performance.now() - t2;
    await sleep(1_000);
    const wrote2 = await w2.stop();
    for (const x of timings) console.log(`drop: ${x.name} (${Number(rows).toLocaleString('en')} rows, ${size}): detach ${fmt(x.detachMs)}, drop ${fmt(x.dropMs)}`);
    console.log(`drop: ${fmt(took)} in all; writer's slowest insert meanwhile ${wrote2.slowest.toFixed(1)} ms`);
  }
  await Promise.all([writeConn.end(), upgradeConn.end(), pool.end()]);
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
