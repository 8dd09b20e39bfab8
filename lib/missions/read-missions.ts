// The read side of missions: the caller's view of each mission (effective
// status, read-time window reset), listing with filters and a stable cursor,
// from the catalog and the user's state (lib/progress/user-state.ts). The
// verbs: lib/services/missions/{list-missions,read-mission}.ts.
import type { Catalog } from '@/lib/catalog/catalog';
import { AppError } from '@/lib/errors';
import type { UserState } from '@/lib/progress/user-state';
import { zoneOf, type UserAttributes } from '@/lib/users/attributes';
import { inAudience } from './audience';
import { claimedMissionIds, isListed, missionLock, toMissionProgress, type MissionLock } from './engine';
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

export function viewMission(catalog: Catalog, mission: Mission, records: Map<string, ProgressRecord>, now: number, zone?: string): MissionView {
  return viewWith(catalog, mission, records, claimedMissionIds(records.values()), now, zone);
}

/** Whether the mission exists for a user with these attributes: inside the audience of the mission and of its campaign. */
export function visibleTo(catalog: Catalog, mission: Mission, attributes: UserAttributes): boolean {
  const campaign = mission.campaignId ? (catalog.campaigns.get(mission.campaignId) ?? null) : null;
  return inAudience(mission, campaign, attributes);
}

/** viewMission with the user's claimed ids computed once by the caller (a listing views many missions). */
function viewWith(catalog: Catalog, mission: Mission, records: Map<string, ProgressRecord>, claimed: ReadonlySet<string>, now: number, zone?: string): MissionView {
  const campaign = mission.campaignId ? (catalog.campaigns.get(mission.campaignId) ?? null) : null;
  const record = records.get(mission.id) ?? null;
  const lock = missionLock({ mission, campaign, claimedMissionIds: claimed, now });
  const locked = lock !== null;
  const progress = toMissionProgress({ mission, record, locked, now, zone });
  // effectiveStatus: the record's read status, else locked or active.
  const status = progress !== null ? progress.status : locked ? 'locked' : 'active';
  return { mission, lock, record, progress, status, locked };
}

export interface ListQuery {
  campaignId?: string;
  status: ProgressStatus | 'all';
  limit: number;
  /** Id of the last mission of the previous page. */
  after: string | null;
  includeExpired: boolean;
}

/** One page of the user's view of the catalog at `now`; `nextAfter`: the last mission's id when there are more. */
export function listMissionViews(catalog: Catalog, state: UserState, query: ListQuery, now: number): { views: MissionView[]; nextAfter: string | null } {
  const { records, attributes } = state;
  const zone = zoneOf(attributes);
  const claimed = claimedMissionIds(records.values());
  const views: MissionView[] = [];
  let more = false;
  for (const mission of catalog.ordered) {
    if (query.after !== null && mission.id <= query.after) continue;
    if (query.campaignId !== undefined && mission.campaignId !== query.campaignId) continue;
    const campaign = mission.campaignId ? (catalog.campaigns.get(mission.campaignId) ?? null) : null;
    const record = records.get(mission.id) ?? null;
    if (!isListed({ mission, campaign, record, includeExpired: query.includeExpired, now })) continue;
    if (!inAudience(mission, campaign, attributes)) continue;
    const view = viewWith(catalog, mission, records, claimed, now, zone);
    if (query.status !== 'all' && view.status !== query.status) continue;
    if (views.length === query.limit) {
      more = true;
      break;
    }
    views.push(view);
  }
  return { views, nextAfter: more ? views[views.length - 1].mission.id : null };
}

/**
 * One mission and the user's view of it. An archived mission is still
 * readable by a user who has a record of it (it may be claimable); otherwise
 * (or outside the user's audience) `mission_not_found`.
 */
export function readMissionView(catalog: Catalog, missionId: string, state: UserState | null, now: number): MissionView {
  const mission = catalog.missions.get(missionId);
  if (!mission || !state || (mission.archived && !state.records.has(mission.id)) || !visibleTo(catalog, mission, state.attributes)) {
    throw new AppError('mission_not_found', `No mission "${missionId}"`);
  }
  return viewMission(catalog, mission, state.records, now, zoneOf(state.attributes));
}
