// How missions read in the console: reward and window names (the criteria in
// words: describeMission, lib/missions/describe-mission.ts).
import type { MissionWindow, Reward } from '@/lib/contract/mission';

export const WINDOW_LABELS: Record<MissionWindow, string> = { lifetime: 'Lifetime', daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly' };

/** Display names of the app's defined items and badges, by `<kind>:<id>` (useRewardNames). */
export type RewardNames = ReadonlyMap<string, string>;

function rewardLabel(reward: Reward, names?: RewardNames): string {
  switch (reward.kind) {
    case 'currency':
      // A currency reads by its id, the unit staff type and see in every amount ("100 coins").
      return `${reward.amount.toLocaleString()} ${reward.currency}`;
    case 'item':
      return `${reward.quantity.toLocaleString()} × ${names?.get(`item:${reward.itemId}`) ?? reward.itemId}`;
    case 'badge':
      return names?.get(`badge:${reward.badgeId}`) ?? `Badge “${reward.badgeId}”`;
  }
}

/** A mission's rewards in one line: "100 coins + Winter badge" (a bundle; an item or badge by its defined name), or its one reward. */
export function rewardsLabel(rewards: readonly Reward[], names?: RewardNames): string {
  return rewards.map((r) => rewardLabel(r, names)).join(' + ');
}
