// Start-up: configuration checked, database migrated, the denylist warmed,
// the retention job scheduled,
// and on the embedded default a demo app with a demo catalog. Runs once per
// process, from Next.js's instrumentation hook or the plain Node server.
import { testClockEnabled } from '@/lib/clock';
import path from 'node:path';
import { getDbDriver, type Db } from '@/db/client';
import { createApp, findApp } from '@/lib/apps/apps';
import { generateSecret } from '@/lib/apps/secrets';
import { warmRevocations } from '@/lib/auth/revocation';
import { provideCatalogDatabase } from '@/lib/catalog/catalog';
import { ADMIN_API_KEY_FILE, getConfig, keptSecret, startupErrorLine, type Config } from '@/lib/config';
import { demoCatalog } from '@/lib/demo/demo-catalog';
import { getKv, type KV } from '@/lib/kv';
import { lastRedisConnectionError } from '@/lib/kv/clients';
import { startRetention } from '@/lib/retention/retention';
import { startReleaseScheduler } from '@/lib/releases/scheduler';
import { privateAllowed } from '@/lib/outbound/address';
import { startOutbound } from '@/lib/outbound/worker';
import { isUnavailableError } from '@/lib/errors';
import { logError } from '@/lib/log';
import { ensureFirstAdmin } from '@/lib/staff/bootstrap';
import { withOutageAnnounced } from '@/lib/log-outage';
import { DatabaseStartError, hostAndPort, rootMessage } from '@/lib/startup-errors';
import { isForkedWorker } from './forked-worker';
import { processDb } from './process-db';
import { processServiceDeps, processStreamSources } from './service-deps';
import type { ServiceContext } from '@/lib/services/context';
import { putCatalog } from '@/lib/services/catalog/put-catalog';
import { provideStreamSources } from '@/lib/updates/sources';

const DEMO_APP_ID = 'demo';

const DEMO_SECRET_FILE = 'demo-app-secret';

/** Creates the demo app and catalog when missing; answers its secret, and whether this start made it. */
async function seedDemo(db: Db): Promise<{ secret: string; created: boolean }> {
  const config = getConfig();
  const kept = keptSecret(config.dataDir, DEMO_SECRET_FILE, () => generateSecret('qs'));
  const secret = kept.secret;
  if (!(await findApp(db, DEMO_APP_ID))) {
    await createApp(db, { id: DEMO_APP_ID, name: 'Demo game', appSecret: secret }, 'system:seed');
    // The service itself acts (audited as `system`), on the dependencies the request handlers get.
    const now = Date.now();
    const ctx: ServiceContext = { appId: DEMO_APP_ID, actor: { kind: 'system', id: 'seed', role: null }, now: () => now, requestId: 'boot-seed', deps: await processServiceDeps() };
    await putCatalog({ ctx, input: demoCatalog(now) });
  }
  return kept;
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
  // Start-up reports its dependencies itself (one line each): the store clients' own connection errors
  // and the outage logs of the steps below stay quiet meanwhile.
  await withOutageAnnounced(async () => {
    const config = getConfig();
    const db = await processDb().catch((err: unknown) => {
      // PGlite's own start-up errors (data directory in use) already say it in one line.
      throw config.databaseUrl && !startupErrorLine(err) ? new DatabaseStartError(config.databaseUrl, err) : err;
    });
    // The update log's repair and publication read the domain through this port, and the in-memory catalog loads from this database (workers too).
    provideStreamSources(processStreamSources());
    provideCatalogDatabase(processDb);
    const kv = await getKv();
    // A QUESTLINE_WORKERS worker: the primary (scripts/server.ts) migrated, warmed the shared store,
    // seeded, created the first admin and printed the start-up lines before forking it.
    if (isForkedWorker()) return;
    const storeDown = await storeUnreachable(kv);
    // Redis down at start: the service still starts (docs/operations/README.md, "Redis outages"), and one line says so.
    // Revocations are then checked against the database, and the first check that finds the store back
    // (without its warm marker) re-warms it.
    if (storeDown) console.warn(`Questline: warning: ${storeDown}`);
    if (testClockEnabled()) console.warn('Questline: warning: QUESTLINE_TEST_CLOCK=1: the admin key can move this process\'s clock (PUT /api/admin/test-clock); for tests only');
    if (privateAllowed()) {
      console.warn(
        'Questline: warning: OUTBOUND_WEBHOOK_ALLOW_PRIVATE=1: outbound-webhook endpoints may point at loopback, private and link-local addresses ' +
          '(this machine, its network, cloud metadata); only for a game backend on a private network, and tests (docs/operations/README.md, "Outbound webhooks")',
      );
    }
    await bootSteps(config, db, kv, !storeDown);
  });
}

/** The key-value store's unreachability in one line (where, and what failed), or null when it answers. */
async function storeUnreachable(kv: KV): Promise<string | null> {
  if (kv.kind === 'memory') return null;
  try {
    await kv.ping();
    return null;
  } catch (err) {
    if (!isUnavailableError(err)) throw err;
    const config = getConfig();
    const where = config.redisUrl ? `REDIS_URL (${hostAndPort(config.redisUrl, 6379)})` : 'UPSTASH_REDIS_REST_URL';
    return (
      `the key-value store at ${where} is unreachable (${lastRedisConnectionError() ?? rootMessage(err)}); serving anyway: events, claims and reads work, ` +
      'the token endpoint, new streams and staff sign-in answer 503 until it answers (docs/operations/README.md, "Redis outages")'
    );
  }
}

async function bootSteps(config: Config, db: Db, kv: KV, warm: boolean): Promise<void> {
  if (warm) {
    try {
      await warmRevocations(db);
    } catch (err) {
      // Lost between the probe and the warm-up: the first check that finds the store back re-warms.
      if (!isUnavailableError(err)) throw err;
      logError('start-up: revocation warm-up skipped, the key-value store is unavailable', err);
    }
  }
  // Old idempotency rows, events and rollups, every RETENTION_INTERVAL_MS (docs/operations/README.md).
  // Under QUESTLINE_WORKERS the primary (scripts/server.ts) runs it and prints the start-up lines, not each worker.
  startRetention(db);
  // Scheduled publishes of drafts: polled every second by every instance (docs/api.md, "Drafts and releases").
  startReleaseScheduler();
  // Outbound webhooks: the periodic sweep of due deliveries (anything a process that died left unsent, retries).
  startOutbound(processDb);
  const lines = [
    `Questline: database ${await getDbDriver()}${config.embedded ? ` in ${path.join(config.dataDir, 'pg')}` : ''}, key-value store ${kv.kind}`,
  ];
  // Secrets are printed by the start that makes them, once; later starts say where they are kept.
  if (config.embedded || process.env.QUESTLINE_DEMO === '1') {
    const demo = await seedDemo(db);
    const file = path.join(config.dataDir, DEMO_SECRET_FILE);
    lines.push(demo.created ? `Demo app: appId=${DEMO_APP_ID} appSecret=${demo.secret} (shown once, kept in ${file})` : `Demo app: appId=${DEMO_APP_ID} (appSecret in ${file})`);
  }
  if (config.adminApiKeyGenerated) {
    const file = path.join(config.dataDir, ADMIN_API_KEY_FILE);
    lines.push(config.adminApiKeyNew ? `Admin API key (generated, shown once, kept in ${file}): ${config.adminApiKey}` : `Admin API key: in ${file}`);
  }
  const firstAdmin = await ensureFirstAdmin(config, db);
  if (firstAdmin) lines.push(firstAdmin);
  if (process.env.QUESTLINE_QUIET !== '1') console.log(lines.join('\n'));
}
