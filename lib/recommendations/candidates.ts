// What may be recommended to a user, and the deterministic ranking used when
// the model is absent or fails. Pure: the catalog, the user's records and
// `now` in, candidates out.
import type { Catalog } from '@/lib/catalog/catalog';
import { canStillProgress, claimedMissionIds, isMissionLocked, toMissionProgress } from '@/lib/missions/engine';
import type { Campaign, Mission, ProgressRecord } from '@/lib/missions/schema';
import { inAudience } from '@/lib/missions/audience';
import { zoneOf, type UserAttributes } from '@/lib/users/attributes';

export interface Candidate {
  mission: Mission;
  campaign: Campaign | null;
  /** `completed`: the reward is ready to claim; `active`: the mission can still progress. */
  status: 'active' | 'completed';
  currentCount: number;
  targetCount: number;
  /** When the mission was authored (Unix ms), for "newest". */
  createdAt: number;
}

/**
 * The missions the user can still progress or claim: a completed record (its
 * reward is claimable even after the mission expired or its campaign ended),
 * or a mission that is not locked, not expired and whose campaign is live,
 * with no record or an active one (a recurring mission whose window rolled
 * over reads as active). Archived missions are never listed, so never offered.
 */
export function listCandidates(catalog: Catalog, records: Map<string, ProgressRecord>, now: number, attributes: UserAttributes = {}): Candidate[] {
  const zone = zoneOf(attributes);
  const claimed = claimedMissionIds(records.values());
  const out: Candidate[] = [];
  for (const mission of catalog.ordered) {
    if (mission.archived) continue;
    const campaign = mission.campaignId ? (catalog.campaigns.get(mission.campaignId) ?? null) : null;
    if (campaign?.archived) continue;
    if (!inAudience(mission, campaign, attributes)) continue;
    const locked = isMissionLocked({ mission, campaign, claimedMissionIds: claimed, now });
    const view = toMissionProgress({ mission, record: records.get(mission.id) ?? null, locked, now, zone });
    const status = view?.status ?? 'active';
    const createdAt = catalog.missionCreatedAt.get(mission.id) ?? 0;
    if (status === 'completed' && view) {
      out.push({ mission, campaign, status, currentCount: view.currentCount, targetCount: view.targetCount, createdAt });
    } else if (status === 'active' && !locked && canStillProgress(mission, campaign, now)) {
      out.push({ mission, campaign, status, currentCount: view?.currentCount ?? 0, targetCount: mission.criteria.count, createdAt });
    }
  }
  return out;
}

const fraction = (c: Candidate) => (c.targetCount > 0 ? Math.min(1, c.currentCount / c.targetCount) : 0);

/**
 * The fallback order: rewards ready to claim first, then nearest to completion
 * (larger fraction done, then fewer events left), then newest, then by id so
 * equal candidates always come out in the same order.
 */
export function rankFallback(candidates: Candidate[]): Candidate[] {
  return [...candidates].sort(
    (a, b) =>
      Number(b.status === 'completed') - Number(a.status === 'completed') ||
      fraction(b) - fraction(a) ||
      a.targetCount - a.currentCount - (b.targetCount - b.currentCount) ||
      b.createdAt - a.createdAt ||
      (a.mission.id < b.mission.id ? -1 : a.mission.id > b.mission.id ? 1 : 0),
  );
}
