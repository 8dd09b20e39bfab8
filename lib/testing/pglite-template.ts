// Test support: one migrated embedded database per Vitest run, copied into
// each fresh data directory a test server or server process starts on.
// A fresh PGlite directory is made by running initdb inside WebAssembly: 3-5 s
// alone and over 20 s with the load average at 14, while opening a copy of
// one took 3.5 s at that load and migrating an empty database about 1 s
// (docs/reliability.md, "Suite under load"). Each test file still gets its
// own database; what it skips is initdb and the migrations, which run once
// per run here, through the same drizzle migrator as the service.
import { cpSync, existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';

const templateDir = (): string | null => {
  const root = process.env.QUESTLINE_TEST_TMP;
  return root ? path.join(root, 'pglite-template', 'pg') : null;
};

/** Makes the run's template (global setup): a PGlite database with every migration applied, closed. */
export async function buildPgliteTemplate(): Promise<void> {
  const dir = templateDir();
  if (!dir || existsSync(dir)) return;
  const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  const building = `${dir}.building`;
  mkdirSync(path.dirname(dir), { recursive: true });
  const client = new PGlite(building);
  await client.waitReady;
  await migrate(drizzle({ client }), { migrationsFolder: path.join(process.cwd(), 'db', 'migrations') });
  await client.close();
  renameSync(building, dir);
}

/**
 * Puts a copy of the run's template database in `dataDir` (as `pg`, where
 * the service keeps it) unless the directory already holds one; without a
 * template (a run outside Vitest) or with DATABASE_URL in `env` (the
 * server's environment) nothing is copied.
 * The service still opens, migrates (nothing left to apply) and makes the
 * files owner-only itself.
 */
export function seedDataDir(dataDir: string, env: NodeJS.ProcessEnv = process.env): void {
  if (env.DATABASE_URL?.trim()) return; // PostgreSQL: no embedded database
  const template = templateDir();
  const target = path.join(dataDir, 'pg');
  if (!template || !existsSync(template) || existsSync(target)) return;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  cpSync(template, target, { recursive: true });
}
