// The read side of missions: the caller's view of each mission (effective
// status, read-time window reset), listing with filters and a stable cursor.
import { serviceNow } from '@/lib/clock';
import type { DbOrTx } from '@/db/client';
import { getCatalog, type Catalog } from '@/lib/catalog/catalog';
import { AppError } from '@/lib/errors';
import { readUserRecords } from '@/lib/progress/records';
import { userStateAt } from '@/lib/progress/records-cache';
import { readAttributes, zoneOf, type UserAttributes } from '@/lib/users/attributes';
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

async function listMissionViews(
  db: DbOrTx,
  catalog: Catalog,
  userId: string,
  query: ListQuery,
  now: number,
  latestSeq: number | null | undefined,
): Promise<{ views: MissionView[]; nextAfter: string | null }> {
  const { records, attributes } = await userStateAt(db, catalog.appId, userId, latestSeq);
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

/** Who reads: the app and user of the token; db, catalog and clock default to the process's. */
export interface ReadContext {
  appId: string;
  userId: string;
  db: DbOrTx;
  catalog?: Catalog;
  now?: number;
  /**
   * The user's latest sequence number as the update log knows it (read with
   * the token checks); the list's record cache answers only when it matches
   * (lib/progress/records-cache.ts). Undefined: not known, read the database.
   */
  latestSeq?: number | null;
}

export interface MissionList {
  /** The catalog version the views were built from (lib/missions/list-json.ts caches its pieces per version). */
  catalog: Catalog;
  views: MissionView[];
  nextAfter: string | null;
}

/** GET /v1/missions: one page of the caller's view of the catalog. */
export async function listMissions({ ctx, input }: { ctx: ReadContext; input: ListQuery }): Promise<MissionList> {
  const catalog = ctx.catalog ?? (await getCatalog(ctx.appId));
  const { views, nextAfter } = await listMissionViews(ctx.db, catalog, ctx.userId, input, ctx.now ?? serviceNow(), ctx.latestSeq);
  return { catalog, views, nextAfter };
}

/**
 * GET /v1/missions/:id: one mission and the caller's view of it. An archived
 * mission is still readable by a user who has a record of it (it may be
 * claimable); otherwise `mission_not_found`.
 */
export async function readMission({ ctx, input }: { ctx: ReadContext; input: { missionId: string } }): Promise<MissionView> {
  const catalog = ctx.catalog ?? (await getCatalog(ctx.appId));
  const mission = catalog.missions.get(input.missionId);
  const { db } = ctx;
  const [records, attributes] = mission ? await Promise.all([readUserRecords(db, ctx.appId, ctx.userId), readAttributes(db, ctx.appId, ctx.userId)]) : [null, {}];
  if (!mission || !records || (mission.archived && !records.has(mission.id)) || !visibleTo(catalog, mission, attributes)) {
    throw new AppError('mission_not_found', `No mission "${input.missionId}"`);
  }
  return viewMission(catalog, mission, records, ctx.now ?? serviceNow(), zoneOf(attributes));
}
