// How missions read in the console: reward and window names (the criteria in
// words: describeMission, lib/missions/describe-mission.ts).
import type { MissionWindow, Reward } from '@/lib/contract/mission';

export const WINDOW_LABELS: Record<MissionWindow, string> = { lifetime: 'Lifetime', daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly' };

/** Display names of the app's defined currencies, items and badges, by `<kind>:<id>` (useRewardNames). */
export type RewardNames = ReadonlyMap<string, string>;

function rewardLabel(reward: Reward, names?: RewardNames): string {
  switch (reward.kind) {
    case 'currency':
      return `${reward.amount.toLocaleString()} ${names?.get(`currency:${reward.currency}`) ?? reward.currency}`;
    case 'item':
      return `${reward.quantity.toLocaleString()} × ${names?.get(`item:${reward.itemId}`) ?? reward.itemId}`;
    case 'badge':
      return names?.get(`badge:${reward.badgeId}`) ?? `Badge “${reward.badgeId}”`;
  }
}

/** A mission's rewards in one line: "100 coins + Winter badge" (a bundle), or its one reward. */
export function rewardsLabel(rewards: readonly Reward[], names?: RewardNames): string {
  return rewards.map((r) => rewardLabel(r, names)).join(' + ');
}
