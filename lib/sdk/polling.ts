// The polling fallback's read: every page of GET /v1/missions and GET /v1/balance.
import type { Core } from './http';
import type { Snapshot } from './state';
import type { BalanceList, MissionList } from './types';

const MAX_PAGES = 100;

export async function fetchSnapshot(core: Core): Promise<Snapshot> {
  const snapshot: Snapshot = { missions: [], progress: {}, balances: [] };
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { data } = await core.call<MissionList>('/v1/missions', { query: { limit: 100, cursor, status: 'all' } });
    snapshot.missions.push(...data.missions);
    Object.assign(snapshot.progress, data.progress);
    if (!data.nextCursor) break;
    cursor = data.nextCursor;
  }
  snapshot.balances = (await core.call<BalanceList>('/v1/balance')).data.balances;
  return snapshot;
}
