// The database adapter: embedded PGlite in the data directory by default,
// node-postgres for a self-hosted postgres:// URL, Neon's serverless driver
// (WebSocket pool, interactive transactions) for Neon. Chosen once per process.
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { ConfigError, getConfig, type Config } from '@/lib/config';
import { lockDataDir, makeOwnerOnly } from '@/lib/data-dir-lock';
import { logError } from '@/lib/log';
import * as schema from './schema';
import { metrics } from '@/lib/metrics';
import { registerNamedRunner, registerPipelinedRunner } from './prepared';
import { pipelineLane } from './pipeline-lane';
import { isForkedWorker } from '@/lib/forked-worker';
import { processWide } from '@/lib/process-wide';
import { ensureEventPartitions, upgradeEventsTable } from './event-partitions';

type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Either the database or an open transaction: domain verbs accept both. */
export type DbOrTx = Db | Tx;

interface Handle {
  db: Db;
  driver: Config['dbDriver'];
  close(): Promise<void>;
}

const MIGRATIONS = path.join(process.cwd(), 'db', 'migrations');
/** Serializes migrations of instances starting together against one PostgreSQL. */
export const MIGRATION_LOCK = 7_411_562_903;

async function openPglite(config: Config): Promise<Handle> {
  const [{ PGlite }, { pg_trgm }, { drizzle }, { migrate }, { pgliteNamedStatements }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
    import('./pglite-named'),
  ]);
  // One process per data directory (creates it 0700): a second one stops here.
  const unlock = lockDataDir(config.dataDir);
  try {
    const dir = path.join(config.dataDir, 'pg');
    // pg_trgm: the player search's trigram index (migration 0015).
    const client = new PGlite(dir, { extensions: { pg_trgm } });
    await client.waitReady;
    // PGlite unpacks a fresh database 0666; what PostgreSQL creates later is 0600.
    makeOwnerOnly(dir);
    const db = drizzle({ client, schema });
    await migrate(db, { migrationsFolder: MIGRATIONS });
    // The events table partitioned by day (issue 43; db/event-partitions.ts).
    await upgradeEventsTable(async (text) => (await client.query<Record<string, unknown>>(text)).rows);
    await ensureEventPartitions(db as unknown as Db);
    // The hot path's statements (db/prepared.ts) as named, parse-once statements on this instance.
    registerNamedRunner(client, pgliteNamedStatements(client));
    return {
      db: db as unknown as Db,
      driver: 'pglite',
      close: async () => {
        await client.close();
        unlock();
      },
    };
  } catch (err) {
    unlock();
    throw err;
  }
}

const DEFAULT_DATABASE_CONNECT_TIMEOUT_MS = 5_000;
const DEFAULT_DATABASE_QUERY_TIMEOUT_MS = 10_000;

function msFromEnv(name: string, fallback: number, env: Readonly<Record<string, string | undefined>>): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 10 || ms > 600_000) throw new ConfigError(name, 'must be a whole number of milliseconds from 10 to 600000');
  return ms;
}

/**
 * Bounds on PostgreSQL calls (node-postgres): the wait for a pooled or new
 * connection (DATABASE_CONNECT_TIMEOUT_MS, default 5 s) and for each query's
 * reply (DATABASE_QUERY_TIMEOUT_MS, default 10 s). Past them the request
 * answers 503 `unavailable` instead of hanging.
 */
function databaseTimeouts(env: Readonly<Record<string, string | undefined>> = process.env): { connectMs: number; queryMs: number } {
  return {
    connectMs: msFromEnv('DATABASE_CONNECT_TIMEOUT_MS', DEFAULT_DATABASE_CONNECT_TIMEOUT_MS, env),
    queryMs: msFromEnv('DATABASE_QUERY_TIMEOUT_MS', DEFAULT_DATABASE_QUERY_TIMEOUT_MS, env),
  };
}

/** Statements at most on one pipelined connection before a claim goes to the pool instead (db/pipeline-lane.ts). */
const PIPELINE_DEPTH = 32;

/** DATABASE_PIPELINE_CONNECTIONS: the pipelined connections beside the pool (default 4; 0: none, every statement on the pool). */
export function pipelineConnections(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const raw = env.DATABASE_PIPELINE_CONNECTIONS?.trim();
  if (!raw) return 4;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 64) throw new ConfigError('DATABASE_PIPELINE_CONNECTIONS', 'must be a whole number from 0 to 64');
  return n;
}

async function openNodePostgres(config: Config): Promise<Handle> {
  const [{ default: pg }, { drizzle }, { migrate }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
  ]);
  const timeouts = databaseTimeouts();
  // On a query that outlives its bound, pg answers the caller but leaves the
  // connection waiting for a reply that may never come (a hung server, a
  // dropped route): the connection is destroyed then, so the pool replaces it
  // instead of handing it out again (a transaction's client is released
  // without an error by drizzle).
  class BoundedClient extends pg.Client {
    constructor(config?: ConstructorParameters<typeof pg.Client>[0]) {
      super(config);
      // A connection lost while the client is checked out (mid-transaction)
      // fails the query in flight, and the pool drops the client on release;
      // without a listener pg's 'error' event would stop the process.
      this.on('error', () => undefined);
    }

    override query(...args: unknown[]): never {
      const result = (super.query as (...a: unknown[]) => unknown)(...args);
      if (result && typeof (result as Promise<unknown>).then === 'function') {
        const text = typeof args[0] === 'string' ? args[0] : ((args[0] as { text?: unknown } | undefined)?.text ?? '');
        (result as Promise<unknown>).catch((err: unknown) => {
          if (err instanceof Error && err.message === 'Query read timeout') {
            (this as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
          }
          // drizzle (0.45) releases a transaction's client only once BEGIN
          // succeeded: a BEGIN that fails (the connection died between
          // checkout and BEGIN) would keep the client checked out for good,
          // and a few such leaks exhaust the pool until a restart. Released
          // here instead, with the error, so the pool discards it.
          if (typeof text === 'string' && /^\s*begin\b/i.test(text)) {
            (this as unknown as { release?: (err?: Error) => void }).release?.(err instanceof Error ? err : new Error(String(err)));
          }
        });
      }
      return result as never;
    }
  }
  const pool = new pg.Pool({
    connectionString: config.databaseUrl!,
    max: Number(process.env.DATABASE_POOL_MAX ?? 10),
    Client: BoundedClient,
    connectionTimeoutMillis: timeouts.connectMs,
    query_timeout: timeouts.queryMs,
    // A peer that vanished without a FIN (a dropped route) is noticed by TCP keep-alive.
    keepAlive: true,
  });
  // An idle pooled connection that dies (server restart, failover) emits 'error'; unhandled, it would stop the process.
  pool.on('error', (err) => logError('database: idle connection lost', err));
  // A QUESTLINE_WORKERS worker: its primary (scripts/server.ts) migrated before forking it.
  if (!isForkedWorker()) {
    const conn = await pool.connect();
    try {
      // Waits for another instance's migrations however long they take (not the per-query bound).
      await conn.query({ text: 'select pg_advisory_lock($1)', values: [MIGRATION_LOCK], query_timeout: 600_000 } as unknown as string);
      await migrate(drizzle({ client: conn, schema }), { migrationsFolder: MIGRATIONS });
      // The events table partitioned by day (issue 43; db/event-partitions.ts): an old table's upgrade validates a check over all its rows.
      await upgradeEventsTable(async (text) => (await conn.query({ text, query_timeout: 3_600_000 } as unknown as string)).rows as Array<Record<string, unknown>>);
    } finally {
      await conn.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      conn.release();
    }
  }
  const db = drizzle({ client: pool, schema });
  if (!isForkedWorker()) await ensureEventPartitions(db as unknown as Db);
  // Claims (db/prepared.ts `pipelined`) share a few pipelined connections beside the pool (db/pipeline-lane.ts).
  const laneSize = pipelineConnections();
  const lane =
    laneSize > 0
      ? pipelineLane({
          size: laneSize,
          maxInFlight: PIPELINE_DEPTH,
          makeClient: () =>
            new BoundedClient({
              connectionString: config.databaseUrl!,
              connectionTimeoutMillis: timeouts.connectMs,
              query_timeout: timeouts.queryMs,
              // The server's bound, a little under the query bound: a claim held on a lock fails
              // alone (57014, 503) and the claims behind it on the connection still run, instead
              // of all of them failing when the query bound destroys the connection.
              statement_timeout: Math.max(1, timeouts.queryMs - Math.min(1000, Math.floor(timeouts.queryMs / 5))),
              keepAlive: true,
              pipeline: true,
            } as ConstructorParameters<typeof pg.Client>[0]) as never,
        })
      : null;
  if (lane) {
    registerPipelinedRunner(pool, lane.tryRun);
    metrics().sources.pipeline = () => ({ ...lane.stats, connections: lane.connections() });
  }
  metrics().sources.pool = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 });
  return { db: db as unknown as Db, driver: 'node-postgres', close: async () => Promise.all([pool.end(), lane?.end()]).then(() => undefined) };
}

async function openNeon(config: Config): Promise<Handle> {
  const [neon, { drizzle }, { migrate }, { default: ws }] = await Promise.all([
    import('@neondatabase/serverless'),
    import('drizzle-orm/neon-serverless'),
    import('drizzle-orm/neon-serverless/migrator'),
    import('ws'),
  ]);
  // Node 20 has no global WebSocket; Node 22+ does, but ws works on all.
  neon.neonConfig.webSocketConstructor = ws;
  const pool = new neon.Pool({ connectionString: config.databaseUrl! });
  pool.on('error', (err: Error) => logError('database: idle connection lost', err));
  const db = drizzle({ client: pool, schema });
  await migrate(db, { migrationsFolder: MIGRATIONS });
  const conn = await pool.connect();
  try {
    await upgradeEventsTable(async (text) => (await conn.query(text)).rows as Array<Record<string, unknown>>);
  } finally {
    conn.release();
  }
  await ensureEventPartitions(db as unknown as Db);
  return { db: db as unknown as Db, driver: 'neon', close: () => pool.end() };
}

export async function openDatabase(config: Config): Promise<Handle> {
  switch (config.dbDriver) {
    case 'pglite':
      return openPglite(config);
    case 'node-postgres':
      return openNodePostgres(config);
    case 'neon':
      return openNeon(config);
  }
}

// Process-wide (lib/process-wide.ts) so that Next.js module duplication (route bundles,
// instrumentation) still shares one connection: PGlite allows one per data directory.
const slot = processWide('db', () => ({ handle: undefined as Promise<Handle> | undefined }));

function handlePromise(): Promise<Handle> {
  slot.handle ??= openDatabase(getConfig()).catch((err: unknown) => {
    slot.handle = undefined;
    throw err;
  });
  return slot.handle;
}

/** The process-wide database, migrated on first use. */
export async function getDb(): Promise<Db> {
  return (await handlePromise()).db;
}

export async function getDbDriver(): Promise<Config['dbDriver']> {
  return (await handlePromise()).driver;
}

/** Whether this process has the database open (a periodic job skips its run rather than reopen a closed one). */
export function dbIsOpen(): boolean {
  return Boolean(slot.handle);
}

export async function closeDb(): Promise<void> {
  const pending = slot.handle;
  slot.handle = undefined;
  if (pending) await (await pending).close();
}
