// Start-up: configuration checked, database migrated, the denylist warmed,
// the retention job scheduled,
// and on the embedded default a demo app with a demo catalog. Runs once per
// process, from Next.js's instrumentation hook or the plain Node server.
import path from 'node:path';
import { getDb, getDbDriver } from '@/db/client';
import { createApp, getApp } from '@/lib/apps/apps';
import { generateSecret } from '@/lib/apps/secrets';
import { warmRevocations } from '@/lib/auth/revocation';
import { putCatalog } from '@/lib/catalog/put-catalog';
import { getConfig, readOrCreateSecret } from '@/lib/config';
import { demoCatalog } from '@/lib/demo/demo-catalog';
import { getKv } from '@/lib/kv';
import { startRetention } from '@/lib/retention/retention';
import { isUnavailableError } from '@/lib/errors';
import { logError } from '@/lib/log';
import { ensureFirstAdmin } from '@/lib/staff/bootstrap';
import { isForkedWorker } from './forked-worker';

const DEMO_APP_ID = 'demo';

/** Creates the demo app and catalog when missing; answers its secret. */
async function seedDemo(): Promise<string> {
  const config = getConfig();
  const secret = readOrCreateSecret(config.dataDir, 'demo-app-secret', () => generateSecret('qs'));
  if (!(await getApp(DEMO_APP_ID))) {
    await createApp({ id: DEMO_APP_ID, name: 'Demo game', appSecret: secret }, 'system:seed');
    await putCatalog(DEMO_APP_ID, demoCatalog(Date.now()), 'system:seed');
  }
  return secret;
}

const bootKey = Symbol.for('questline.boot');
const bootDoneKey = Symbol.for('questline.boot.done');
type GlobalWithBoot = typeof globalThis & { [bootKey]?: Promise<void>; [bootDoneKey]?: boolean };

export function boot(): Promise<void> {
  const g = globalThis as GlobalWithBoot;
  // A failed start (database unreachable) is tried again by the next request:
  // the service recovers without a restart once the dependency is back.
  g[bootKey] ??= runBoot().then(
    () => {
      g[bootDoneKey] = true;
    },
    (err: unknown) => {
      delete g[bootKey];
      throw err;
    },
  );
  return g[bootKey];
}

/** True once start-up (migrations, warm-up, seed) has finished in this process (GET /api/ready). */
export function booted(): boolean {
  return (globalThis as GlobalWithBoot)[bootDoneKey] === true;
}

async function runBoot(): Promise<void> {
  const config = getConfig();
  await getDb();
  const kv = await getKv();
  // A QUESTLINE_WORKERS worker: the primary (scripts/server.ts) migrated, warmed the shared store,
  // seeded, created the first admin and printed the start-up lines before forking it.
  if (isForkedWorker()) return;
  try {
    await warmRevocations();
  } catch (err) {
    // Redis down at start: the service still starts. Revocations are then
    // checked against the database, and the first check that finds the store
    // back (without its warm marker) re-warms it (lib/auth/revocation.ts).
    if (!isUnavailableError(err)) throw err;
    logError('start-up: revocation warm-up skipped, the key-value store is unavailable', err);
  }
  // Old idempotency rows, events and rollups, every RETENTION_INTERVAL_MS (docs/operations.md).
  // Under QUESTLINE_WORKERS the primary (scripts/server.ts) runs it and prints the start-up lines, not each worker.
  startRetention();
  const lines = [
    `Questline: database ${await getDbDriver()}${config.embedded ? ` in ${path.join(config.dataDir, 'pg')}` : ''}, key-value store ${kv.kind}`,
  ];
  if (config.embedded || process.env.QUESTLINE_DEMO === '1') {
    const secret = await seedDemo();
    lines.push(`Demo app: appId=${DEMO_APP_ID} appSecret=${secret}`);
  }
  if (config.adminApiKeyGenerated) lines.push(`Admin API key (generated, kept in ${config.dataDir}): ${config.adminApiKey}`);
  const firstAdmin = await ensureFirstAdmin(config);
  if (firstAdmin) lines.push(firstAdmin);
  if (process.env.QUESTLINE_QUIET !== '1') console.log(lines.join('\n'));
}
