// The database adapter: embedded PGlite in the data directory by default,
// node-postgres for a self-hosted postgres:// URL, Neon's serverless driver
// (WebSocket pool, interactive transactions) for Neon. Chosen once per process.
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { getConfig, type Config } from '@/lib/config';
import { lockDataDir, makeOwnerOnly } from '@/lib/data-dir-lock';
import { logError } from '@/lib/log';
import * as schema from './schema';
import { metrics } from '@/lib/metrics';

export type Schema = typeof schema;
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
const MIGRATION_LOCK = 7_411_562_903;

async function openPglite(config: Config): Promise<Handle> {
  const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  // One process per data directory (creates it 0700): a second one stops here.
  const unlock = lockDataDir(config.dataDir);
  try {
    const dir = path.join(config.dataDir, 'pg');
    const client = new PGlite(dir);
    await client.waitReady;
    // PGlite unpacks a fresh database 0666; what PostgreSQL creates later is 0600.
    makeOwnerOnly(dir);
    const db = drizzle({ client, schema });
    await migrate(db, { migrationsFolder: MIGRATIONS });
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

async function openNodePostgres(config: Config): Promise<Handle> {
  const [{ default: pg }, { drizzle }, { migrate }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
  ]);
  const pool = new pg.Pool({ connectionString: config.databaseUrl!, max: Number(process.env.DATABASE_POOL_MAX ?? 10) });
  // An idle pooled connection that dies (server restart, failover) emits 'error'; unhandled, it would stop the process.
  pool.on('error', (err) => logError('database: idle connection lost', err));
  const conn = await pool.connect();
  try {
    await conn.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migrate(drizzle({ client: conn, schema }), { migrationsFolder: MIGRATIONS });
  } finally {
    await conn.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    conn.release();
  }
  const db = drizzle({ client: pool, schema });
  metrics().sources.pool = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 });
  return { db: db as unknown as Db, driver: 'node-postgres', close: () => pool.end() };
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

// Kept on globalThis so that Next.js module duplication (route bundles, instrumentation)
// still shares one connection: PGlite allows one per data directory.
const globalKey = Symbol.for('questline.db');
type GlobalWithDb = typeof globalThis & { [globalKey]?: Promise<Handle> };

function handlePromise(): Promise<Handle> {
  const g = globalThis as GlobalWithDb;
  g[globalKey] ??= openDatabase(getConfig()).catch((err: unknown) => {
    delete g[globalKey];
    throw err;
  });
  return g[globalKey];
}

/** The process-wide database, migrated on first use. */
export async function getDb(): Promise<Db> {
  return (await handlePromise()).db;
}

export async function getDbDriver(): Promise<Config['dbDriver']> {
  return (await handlePromise()).driver;
}

export async function closeDb(): Promise<void> {
  const g = globalThis as GlobalWithDb;
  const pending = g[globalKey];
  delete g[globalKey];
  if (pending) await (await pending).close();
}
