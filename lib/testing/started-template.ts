// Run by the Vitest global setup (lib/testing/pglite-template.ts
// buildStartedTemplate) in a process of its own, under tsx: one start of the
// service on a copy of the run's migrated template, in the environment an
// in-process test server has (lib/testing/test-env.ts), so the embedded
// start-up's one-time work (the demo app and its catalog, the first admin
// with its password hash: 0.8 CPU-s measured alone, about 0.3 per file across
// a run, docs/engineering/reliability.md) is done once per run instead of once per test
// file. argv[2]: the data directory to start in (its `pg`
// already a copy of the migrated template).
import { prepareTestEnv } from './test-env';

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: started-template.ts <data directory>');
  delete process.env.DATABASE_URL;
  delete process.env.REDIS_URL;
  delete process.env.UPSTASH_REDIS_REST_URL;
  delete process.env.UPSTASH_REDIS_REST_TOKEN;
  process.env.QUESTLINE_DATA_DIR = dataDir;
  // No scheduled-release poller: its tick could reopen the database while closeDb() runs.
  process.env.RELEASE_POLL_MS = '0';
  // A test server's environment (its `pg` is there already, so nothing is copied).
  prepareTestEnv();
  const [{ boot }, { closeDb }] = await Promise.all([import('@/lib/boot'), import('@/db/client')]);
  await boot();
  await closeDb();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
