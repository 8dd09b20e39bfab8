// What GET /v1/missions would answer one player from the app's draft at a
// given time: the draft document becomes a catalog, and the listing
// /v1/missions runs reads the player's state against it with `at` as its
// clock. No rule is repeated here. The player is a stored user (listMissions
// reads their records and attributes) or a hypothetical one (issue 40 §5):
// the given attributes and records built from `progress` in the window
// containing `at`, held in memory only (nothing is read or written for them).
// No draft: draft_not_found (previewing live is what /v1/missions answers).
import { buildCatalog, type Catalog } from '@/lib/catalog/catalog';
import type { PreviewInput } from '@/lib/contract/release';
import { AppError } from '@/lib/errors';
import { listMissionViews, type ListQuery, type MissionView } from '@/lib/missions/read-missions';
import { windowStart } from '@/lib/missions/windows';
import type { ProgressRecord } from '@/lib/progress/record';
import { zoneOf, type UserAttributes } from '@/lib/users/attributes';
import type { ServiceContext } from '../context';
import { listMissions } from '../missions/list-missions';
import { findDraft, noDraft } from './draft-row';

export type PreviewAsPlayerInput = PreviewInput;

export interface PlayerPreview {
  /** The stored user previewed; null for a hypothetical player. */
  userId: string | null;
  at: number;
  /** The draft as a catalog (the answer's JSON is built from it, as /v1/missions builds it from live). */
  catalog: Catalog;
  views: MissionView[];
}

const EVERYTHING: ListQuery = { status: 'all', limit: Number.MAX_SAFE_INTEGER, after: null, includeExpired: false };

/** The user id a hypothetical player's records carry (never stored; not a valid id of a real user's token). */
const HYPOTHETICAL_USER = '(hypothetical)';

export async function previewAsPlayer({ ctx, input }: { ctx: ServiceContext; input: PreviewAsPlayerInput }): Promise<PlayerPreview> {
  const row = await findDraft(ctx.deps.db, ctx.appId);
  if (!row) throw noDraft(ctx.appId);
  const at = input.at ?? ctx.now();
  const doc = row.catalog;
  const catalog = buildCatalog(ctx.appId, doc.missions, doc.campaigns, at, new Map(), doc.themes ?? []);
  if (input.attributes !== undefined) {
    const attributes: UserAttributes = input.attributes;
    const records = hypotheticalRecords(catalog, input.progress ?? {}, at, zoneOf(attributes));
    const { views } = listMissionViews(catalog, { records, attributes }, EVERYTHING, at);
    return { userId: null, at, catalog, views };
  }
  const userId = input.userId as string; // the schema requires exactly one of userId and attributes
  const { views } = await listMissions({ ctx: { ...ctx, catalog, now: () => at }, input: { userId, ...EVERYTHING } });
  return { userId, at, catalog, views };
}

/**
 * The records of `progress` as the store would hold them at `at`: in the
 * mission's window containing `at` (the player's zone), first cycle. A mission
 * the draft does not have, a count above the target, or an active record at
 * its target: validation_error naming `progress.<id>`.
 */
function hypotheticalRecords(catalog: Catalog, progress: NonNullable<PreviewInput['progress']>, at: number, zone: string): Map<string, ProgressRecord> {
  const records = new Map<string, ProgressRecord>();
  for (const [missionId, given] of Object.entries(progress)) {
    const mission = catalog.missions.get(missionId);
    if (!mission) throw new AppError('validation_error', `progress.${missionId}: the draft has no mission "${missionId}"`);
    const target = mission.criteria.count;
    const done = given.status === 'completed' || given.status === 'claimed';
    const count = given.count ?? (done ? target : 0);
    if (count > target) throw new AppError('validation_error', `progress.${missionId}.count: at most the mission's target, ${target}`);
    const status = given.status ?? (count >= target ? 'completed' : 'active');
    if (status === 'active' && count >= target) throw new AppError('validation_error', `progress.${missionId}.status: a count at the target (${target}) is completed or claimed, not active`);
    records.set(missionId, {
      userId: HYPOTHETICAL_USER,
      missionId,
      status,
      currentCount: count,
      targetCount: target,
      windowStart: windowStart(mission.criteria.window, at, zone),
      cycle: 1,
      updatedAt: at,
    });
  }
  return records;
}
