// The prompt of the ranking model: only what ranking needs (the candidates'
// titles, descriptions, criteria, rewards and deadlines, and this user's
// progress on them). Never a user id, a secret, another user's data or an
// event payload.
import type { Candidate } from './candidates';

export const SYSTEM_PROMPT = [
  'You recommend which missions of a game a player should focus on next.',
  'You get the missions the player can work on, with their progress on each.',
  'Rank them: rewards ready to claim and missions close to completion usually come first;',
  'also weigh deadlines, the size of the reward and the effort left.',
  'Answer with missionIds: the ids of the recommended missions, best first, taken only from the list,',
  'each at most once, and no more than the number asked for;',
  'and reason: one or two short sentences addressed to the player explaining the choice (mission titles, not ids).',
].join(' ');

const MAX_DESCRIPTION = 300;
const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

/** The user message: a JSON document the model ranks. */
export function buildPrompt(candidates: Candidate[], limit: number, now: number): string {
  const missions = candidates.map((c) => ({
    id: c.mission.id,
    title: c.mission.title,
    description: c.mission.description.slice(0, MAX_DESCRIPTION),
    criteria: {
      eventName: c.mission.criteria.eventName,
      count: c.mission.criteria.count,
      window: c.mission.criteria.window,
      ...(c.mission.criteria.filter ? { filter: c.mission.criteria.filter } : {}),
    },
    reward: c.mission.reward,
    ...(c.mission.rewards && c.mission.rewards.length > 1 ? { rewards: c.mission.rewards } : {}),
    status: c.status === 'completed' ? 'ready to claim' : 'in progress',
    currentCount: c.currentCount,
    targetCount: c.targetCount,
    expiresAt: iso(c.mission.expiresAt),
    campaignEndsAt: iso(c.campaign?.endAt),
  }));
  return JSON.stringify({ now: iso(now), recommendAtMost: limit, missions });
}
