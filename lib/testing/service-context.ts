// Test support: a ServiceContext for calling a verb directly (no server): the
// embedded database in a fresh directory (or DATABASE_URL's), the configured
// key-value store and bus, a fixed clock, and a publisher that records what
// would go on the users' streams.
import type { Db } from '@/db/client';
import type { SdkUpdate } from '@/lib/contract/updates';
import type { Actor, ServiceContext } from '@/lib/services/context';
import { prepareTestEnv } from './test-env';

export interface TestServiceContext {
  ctx: ServiceContext;
  db: Db;
  /** What the verb published, in order. */
  published: Array<{ userId: string; seq: number; updates: SdkUpdate[] }>;
}

/** Boots the service's dependencies once per file (call in beforeAll or a test), then builds a context for `appId`. */
export async function testServiceContext(
  appId: string,
  options: { actor?: Actor; now?: number } = {},
): Promise<TestServiceContext> {
  prepareTestEnv();
  const [{ boot }, { getDb }, { getKv }, { getBus }, { logger }, { getCatalog }] = await Promise.all([
    import('@/lib/boot'),
    import('@/db/client'),
    import('@/lib/kv'),
    import('@/lib/bus'),
    import('@/lib/log'),
    import('@/lib/catalog/catalog'),
  ]);
  await boot();
  const db = await getDb();
  const published: TestServiceContext['published'] = [];
  const now = options.now ?? 1_764_000_000_000;
  const ctx: ServiceContext = {
    appId,
    actor: options.actor ?? { kind: 'staff', id: 'ana@example.com', role: 'admin' },
    now: () => now,
    requestId: 'test-request',
    deps: {
      db,
      kv: getKv(),
      bus: getBus(),
      log: logger(),
      catalog: getCatalog,
      publish: async (_appId, userId, seq, updates) => void published.push({ userId, seq, updates }),
      eraseStream: async () => {},
      // No catalog publish in these tests' verbs; lib/services/releases/releases.test.ts records the calls.
      catalogChanged: async () => {},
    },
  };
  return { ctx, db, published };
}
