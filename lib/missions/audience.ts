// Audiences (docs/api.md, "Audiences"): a mission or campaign may carry a
// filter over the user's attributes, in the language of criteria.filter
// (lib/missions/filter.ts). A user outside the audience of a mission, or of
// its campaign, does not see the mission at all: not listed, 404 on read and
// claim, events do not advance it, recommendations never name it.
import { matchesFilter } from './filter';
import type { Campaign, Mission } from './schema';

/** Attributes as the audience filter reads them (keys are paths, like payload fields). */
export type AudienceAttributes = Record<string, unknown>;

/** True when the user (their attributes) is inside the mission's audience and its campaign's (no audience: everyone). */
export function inAudience(mission: Mission, campaign: Campaign | null, attributes: AudienceAttributes): boolean {
  if (mission.audience !== undefined && !matchesFilter(mission.audience, attributes)) return false;
  if (campaign?.audience !== undefined && !matchesFilter(campaign.audience, attributes)) return false;
  return true;
}

/** Whether the mission or its campaign has an audience at all (a claim reads the user's attributes only then). */
export function hasAudience(mission: Mission, campaign: Campaign | null): boolean {
  return mission.audience !== undefined || campaign?.audience !== undefined;
}
