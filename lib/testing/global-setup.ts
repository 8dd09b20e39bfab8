// Vitest global setup: the run's template embedded database
// (lib/testing/pglite-template.ts), or on PostgreSQL a fresh database per
// worker (lib/testing/worker-stores.ts); teardown removes the run's temporary
// directory (made in vitest.config.mts and given to the workers as TMPDIR),
// so a run leaves nothing in the system temp folder.
import { rmSync } from 'node:fs';
import pg from 'pg';
import { removeStalePortLocks } from './processes';
import { buildPgliteTemplate, buildStartedTemplate } from './pglite-template';
import { workerDatabaseName } from './worker-store-urls';

/** Drops and creates `<database>_w1…_w<workers>` on DATABASE_URL's server: each run starts them empty, as CI starts its one database. */
async function freshWorkerDatabases(databaseUrl: string, workers: number): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (let pool = 1; pool <= workers; pool++) {
      const name = workerDatabaseName(pool, databaseUrl).replaceAll('"', '""');
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.query(`CREATE DATABASE "${name}"`);
    }
  } finally {
    await client.end();
  }
}

export default async function setup(project: { config: { maxWorkers?: number | string } }): Promise<() => void> {
  const databaseUrl = process.env.DATABASE_URL?.trim();
  if (databaseUrl) await freshWorkerDatabases(databaseUrl, Math.max(1, Number(project.config.maxWorkers) || 1));
  await buildPgliteTemplate();
  // The fast tier (vitest.fast.config.mts) starts no server, so it needs no started template.
  if (!databaseUrl && process.env.QUESTLINE_TEST_NO_STARTED_TEMPLATE !== '1') await buildStartedTemplate();
  return () => {
    const root = process.env.QUESTLINE_TEST_TMP;
    if (root) rmSync(root, { recursive: true, force: true });
    removeStalePortLocks();
  };
}
