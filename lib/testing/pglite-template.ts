// Test support: one migrated embedded database per Vitest run, copied into
// each fresh data directory a test server or server process starts on.
// A fresh PGlite directory is made by running initdb inside WebAssembly: 3-5 s
// alone and over 20 s with the load average at 14, while opening a copy of
// one took 3.5 s at that load and migrating an empty database about 1 s
// (docs/engineering/reliability.md, "Suite under load"). Each test file still gets its
// own database; what it skips is initdb and the migrations, which run once
// per run here, through the same drizzle migrator as the service.
// A second template, "started", is the migrated one after one embedded
// start-up (the demo app and its catalog, the first admin and their secret
// files): in-process test servers (lib/testing/test-server.ts) begin from it
// and skip that work too (about 0.3 CPU-s per file across a run, measured
// 2026-11-27: docs/engineering/reliability.md). Spawned
// servers (serve-process.ts, production.ts) begin from the migrated one,
// since some tests read what a first start prints.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export type TemplateKind = 'migrated' | 'started';

const templateRoot = (kind: TemplateKind): string | null => {
  const root = process.env.QUESTLINE_TEST_TMP;
  return root ? path.join(root, kind === 'migrated' ? 'pglite-template' : 'pglite-started') : null;
};
const templateDir = (): string | null => {
  const root = templateRoot('migrated');
  return root ? path.join(root, 'pg') : null;
};

/** Makes the run's template (global setup): a PGlite database with every migration applied, closed. */
export async function buildPgliteTemplate(): Promise<void> {
  const dir = templateDir();
  if (!dir || existsSync(dir)) return;
  const [{ PGlite }, { pg_trgm }, { drizzle }, { migrate }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  const building = `${dir}.building`;
  mkdirSync(path.dirname(dir), { recursive: true });
  const client = new PGlite(building, { extensions: { pg_trgm } });
  await client.waitReady;
  await migrate(drizzle({ client }), { migrationsFolder: path.join(process.cwd(), 'db', 'migrations') });
  // The events table partitioned as the service's start does it (db/client.ts), once here instead of in every copy.
  const { upgradeEventsTable } = await import('../../db/event-partitions');
  await upgradeEventsTable(async (text) => (await client.query<Record<string, unknown>>(text)).rows);
  await client.close();
  renameSync(building, dir);
}

/**
 * Makes the "started" template (global setup, after buildPgliteTemplate): a
 * copy of the migrated one that lib/testing/started-template.ts starts the
 * service on once, in a process of its own under tsx (the service's modules
 * import with the `@/` paths; its timers end with that process).
 */
export async function buildStartedTemplate(): Promise<void> {
  const root = templateRoot('started');
  const migrated = templateDir();
  if (!root || !migrated || !existsSync(migrated) || existsSync(root)) return;
  const building = `${root}.building`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true, mode: 0o700 });
  cpSync(migrated, path.join(building, 'pg'), { recursive: true });
  const tsx = createRequire(import.meta.url).resolve('tsx/cli');
  const script = path.join(process.cwd(), 'lib', 'testing', 'started-template.ts');
  const output: Buffer[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [tsx, script, building], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (b: Buffer) => output.push(b));
    child.stderr.on('data', (b: Buffer) => output.push(b));
    // A start that hangs fails the run's setup instead of hanging it.
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve(status);
    });
  });
  if (code !== 0) throw new Error(`the started test template failed (exit ${code}):\n${Buffer.concat(output).toString()}`);
  // The data-directory lock of the process that made it (lib/data-dir-lock.ts): each copy's server takes its own.
  rmSync(path.join(building, 'questline.lock'), { force: true });
  renameSync(building, root);
}

/**
 * Puts a copy of the run's template database in `dataDir` (as `pg`, where
 * the service keeps it) unless the directory already holds one; without a
 * template (a run outside Vitest) or with DATABASE_URL in `env` (the
 * server's environment) nothing is copied. `started`: the started template
 * (its `pg` and the demo app's and first admin's secret files) when the run
 * has one, else the migrated one.
 * The service still opens, migrates (nothing left to apply) and makes the
 * files owner-only itself.
 */
export function seedDataDir(dataDir: string, env: NodeJS.ProcessEnv = process.env, kind: TemplateKind = 'migrated'): void {
  if (env.DATABASE_URL?.trim()) return; // PostgreSQL: no embedded database
  const template = templateDir();
  const target = path.join(dataDir, 'pg');
  if (!template || !existsSync(template) || existsSync(target)) return;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const started = kind === 'started' ? templateRoot('started') : null;
  if (started && existsSync(started)) cpSync(started, dataDir, { recursive: true, force: false, errorOnExist: false });
  else cpSync(template, target, { recursive: true });
}
