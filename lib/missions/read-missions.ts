// The read side of missions: the caller's view of each mission (effective
// status, read-time window reset), listing with filters and a stable cursor.
import type { DbOrTx } from '@/db/client';
import type { Catalog } from '@/lib/catalog/catalog';
import { readRecords } from '@/lib/progress/records';
import { claimedMissionIds, effectiveStatus, isListed, missionLock, toMissionProgress, type MissionLock } from './engine';
import type { Mission, MissionProgress, ProgressRecord, ProgressStatus } from './schema';

export interface MissionView {
  mission: Mission;
  progress: MissionProgress | null;
  status: ProgressStatus;
  record: ProgressRecord | null;
  /** Events cannot advance it for this user now: a prerequisite is unclaimed, or its campaign has not started. */
  locked: boolean;
  /** Why it is locked (the inspector shows it); null when not locked. */
  lock: MissionLock | null;
}

export function viewMission(catalog: Catalog, mission: Mission, records: Map<string, ProgressRecord>, now: number): MissionView {
  const campaign = mission.campaignId ? (catalog.campaigns.get(mission.campaignId) ?? null) : null;
  const record = records.get(mission.id) ?? null;
  const lock = missionLock({ mission, campaign, claimedMissionIds: claimedMissionIds(records.values()), now });
  const locked = lock !== null;
  return {
    mission,
    lock,
    record,
    progress: toMissionProgress({ mission, record, locked, now }),
    status: effectiveStatus({ mission, record, locked, now }),
    locked,
  };
}

export interface ListQuery {
  campaignId?: string;
  status: ProgressStatus | 'all';
  limit: number;
  /** Id of the last mission of the previous page. */
  after: string | null;
  includeExpired: boolean;
}

export async function listMissionViews(
  db: DbOrTx,
  catalog: Catalog,
  userId: string,
  query: ListQuery,
  now = Date.now(),
): Promise<{ views: MissionView[]; nextAfter: string | null }> {
  const records = await readRecords(db, catalog.appId, userId);
  const views: MissionView[] = [];
  let more = false;
  for (const mission of catalog.ordered) {
    if (query.after !== null && mission.id <= query.after) continue;
    if (query.campaignId !== undefined && mission.campaignId !== query.campaignId) continue;
    const campaign = mission.campaignId ? (catalog.campaigns.get(mission.campaignId) ?? null) : null;
    const record = records.get(mission.id) ?? null;
    if (!isListed({ mission, campaign, record, includeExpired: query.includeExpired, now })) continue;
    const view = viewMission(catalog, mission, records, now);
    if (query.status !== 'all' && view.status !== query.status) continue;
    if (views.length === query.limit) {
      more = true;
      break;
    }
    views.push(view);
  }
  return { views, nextAfter: more ? views[views.length - 1].mission.id : null };
}
