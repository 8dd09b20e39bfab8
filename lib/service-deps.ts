// The composition root of the process's dependencies: those of a
// ServiceContext (lib/services/context.ts: the database, key-value store, bus,
// logger, catalogs, stream publication), built here for the HTTP layer
// (lib/http/service-context.ts) and the service's own background work (the
// scheduled publish poller), and what the update log needs of the domain
// (lib/updates/sources.ts), provided by lib/boot.ts. The database comes from
// lib/process-db.ts, the one file that reaches the global getter.
import { getBus } from '@/lib/bus';
import { processDb } from '@/lib/process-db';
import { getCatalog, invalidateCatalog } from '@/lib/catalog/catalog';
import { getKv } from '@/lib/kv';
import { toBalance } from '@/lib/balances/balances';
import { toMissionProgress } from '@/lib/missions/engine';
import { userChanged } from '@/lib/progress/user-state';
import { readAttributes, zoneOf } from '@/lib/users/attributes';
import type { StreamSources } from '@/lib/updates/sources';
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
  return { db: await processDb(), kv: getKv(), bus: getBus(), log: logger(), catalog: getCatalog, publish: publishInOrder, eraseStream, catalogChanged };
}

/** The update log's view of the domain: the database, the catalog's reading of a progress row, a balance row's message, the user-state cache. */
export function processStreamSources(): StreamSources {
  return {
    db: processDb,
    progressReader: async (appId, userId) => {
      const catalog = await getCatalog(appId);
      const zone = zoneOf(await readAttributes(await processDb(), appId, userId));
      return (row, now) => {
        const mission = catalog.missions.get(row.missionId);
        if (!mission) return null;
        const data = toMissionProgress({ mission, record: { ...row, state: row.state ?? undefined }, locked: false, now, zone });
        return data ? { type: data.status === 'completed' ? 'mission.completed' : 'mission.progress', data } : null;
      };
    },
    balanceUpdate: (row) => ({ type: 'balance.changed', data: toBalance(row) }),
    userChanged,
  };
}
