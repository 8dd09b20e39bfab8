// pgbench's two-statement ingestion transaction (insert an event, upsert one
// progress row) on copies of the events and progress tables: the machine's
// database ceiling, printed beside every benchmark's figures so runs on
// different machines and loads compare (docs/engineering/benchmarks.md).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type pg from 'pg';

const PGBENCH_SCRIPT = `\\set u random(1, 2000)
\\set m random(1, 3)
BEGIN;
INSERT INTO bench_pg_events (id, app_id, user_id, name, payload, timestamp, idempotency_key, source, received_at)
  VALUES (gen_random_uuid()::text, 'bench', 'u' || :u, 'match_played', '{"mode":"ranked","score":12}', 1700000000000, NULL, 'api', 1700000000000);
INSERT INTO bench_pg_progress (app_id, user_id, mission_id, status, current_count, target_count, window_start, cycle, updated_at)
  VALUES ('bench', 'u' || :u, 'm' || :m, 'active', 1, 1000000, 0, 1, 1700000000000)
  ON CONFLICT (app_id, user_id, mission_id) DO UPDATE SET current_count = bench_pg_progress.current_count + 1, updated_at = excluded.updated_at;
END;
`;

export async function runIngestPgbench(
  db: pg.Client,
  { databaseUrl, clients, seconds }: { databaseUrl: string; clients: number; seconds: number },
): Promise<{ tps: number; clients: number; seconds: number } | null> {
  await db.query('drop table if exists bench_pg_events, bench_pg_progress');
  await db.query('create table bench_pg_events (like events including all)');
  await db.query('create table bench_pg_progress (like progress including all)');
  const dir = mkdtempSync(path.join(tmpdir(), 'questline-pgbench-'));
  const file = path.join(dir, 'ingest.sql');
  writeFileSync(file, PGBENCH_SCRIPT);
  const url = new URL(databaseUrl);
  const args = ['-n', '-M', 'prepared', '-c', String(clients), '-j', '2', '-T', String(seconds), '-f', file];
  const env = { ...process.env, PGHOST: url.hostname, PGPORT: url.port || '5432', PGUSER: decodeURIComponent(url.username || 'postgres'), PGDATABASE: decodeURIComponent(url.pathname.slice(1)) };
  if (url.password) Object.assign(env, { PGPASSWORD: decodeURIComponent(url.password) });
  const run = spawnSync('pgbench', args, { env, encoding: 'utf8' });
  await db.query('drop table if exists bench_pg_events, bench_pg_progress');
  const match = /tps = ([\d.]+)/.exec(run.stdout ?? '');
  if (!match) {
    console.error(`pgbench failed: ${run.error ?? ''} ${run.stderr ?? ''}`);
    return null;
  }
  return { tps: Math.round(Number(match[1])), clients, seconds };
}
