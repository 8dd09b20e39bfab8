// GET /api/health – the process is alive (no dependency is consulted)
// GET /api/ready – this instance can serve: start-up finished, PostgreSQL and the
// key-value store answer, every migration of this build is applied, and it is
// not shutting down. Otherwise 503 `unavailable` naming what is not ready (the
// cause is logged, not shown). Both are public: load balancers and
// orchestrators call them without credentials.
import { boot, booted } from '@/lib/boot';
import { AppError } from '@/lib/errors';
import { getKv } from '@/lib/kv';
import { logError } from '@/lib/log';
import { checkDatabase } from '@/lib/services/ops/check-database';
import { publicRoute } from '../handler';
import { json } from '../respond';
import { systemServiceContext } from '../service-context';
import { isDraining } from './lifecycle';

/** Each readiness check gets this long; a dependency slower than that is not ready. */
const READY_CHECK_TIMEOUT_MS = 2_000;

function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${READY_CHECK_TIMEOUT_MS} ms`)), READY_CHECK_TIMEOUT_MS);
  });
  promise.catch(() => undefined);
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function checkStore(): Promise<'ok'> {
  await getKv().ping();
  return 'ok';
}

export const getHealth = publicRoute(async () => json({ status: 'ok' }, { headers: { 'Cache-Control': 'no-store' } }), { cors: false, boot: false });

export const getReady = publicRoute(
  async ({ requestId }) => {
    if (isDraining()) throw new AppError('unavailable', 'Not ready: shutting down');
    if (!booted()) {
      try {
        await within(boot(), 'start-up');
      } catch (err) {
        logError('ready: start-up not finished', err, { requestId });
        throw new AppError('unavailable', 'Not ready: start-up has not finished');
      }
    }
    const [database, store] = await Promise.allSettled([within(systemServiceContext(requestId).then((ctx) => checkDatabase({ ctx })), 'database'), within(checkStore(), 'key-value store')]);
    const problems: string[] = [];
    if (database.status === 'rejected') {
      logError('ready: database check failed', database.reason, { requestId });
      problems.push('database unreachable');
    } else if (database.value !== 'ok') problems.push('database migrations pending');
    if (store.status === 'rejected') {
      logError('ready: key-value store check failed', store.reason, { requestId });
      problems.push('key-value store unreachable');
    }
    if (problems.length > 0) throw new AppError('unavailable', `Not ready: ${problems.join(', ')}`);
    return json({ status: 'ready', checks: { database: 'ok', migrations: 'ok', store: 'ok' } }, { headers: { 'Cache-Control': 'no-store' } });
  },
  { cors: false, boot: false },
);
