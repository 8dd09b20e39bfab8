// The process's dependencies of a ServiceContext (lib/services/context.ts):
// the database, key-value store, bus, logger, catalogs, stream publication.
// Built here once for the HTTP layer (lib/http/service-context.ts) and for the
// service's own background work (the scheduled publish poller).
import { getDb } from '@/db/client';
import { getBus } from '@/lib/bus';
import { getCatalog, invalidateCatalog } from '@/lib/catalog/catalog';
import { getKv } from '@/lib/kv';
import { logger } from '@/lib/log';
import type { ServiceContext } from '@/lib/services/context';
import { afterCatalogEdit } from '@/lib/updates/resync';
import { getUpdateLog, userLogKey } from '@/lib/updates/log';
import { publishInOrder } from '@/lib/updates/publish';

const eraseStream = (appId: string, userId: string) => getUpdateLog().erase(userLogKey(appId, userId));

/** Every instance's copy dropped (as every catalog write does), then the changed missions' holders resynced in the background. */
async function catalogChanged(appId: string, missionIds: string[], editStartedAt: number): Promise<void> {
  await invalidateCatalog(appId);
  void afterCatalogEdit(appId, missionIds, editStartedAt);
}

export async function processServiceDeps(): Promise<ServiceContext['deps']> {
  return { db: await getDb(), kv: getKv(), bus: getBus(), log: logger(), catalog: getCatalog, publish: publishInOrder, eraseStream, catalogChanged };
}
