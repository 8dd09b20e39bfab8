// How missions read in the console: reward and window names (the criteria in
// words: describeMission, lib/missions/describe-mission.ts).
import type { MissionWindow, Reward } from '@/lib/contract/mission';

export const WINDOW_LABELS: Record<MissionWindow, string> = { lifetime: 'Lifetime', daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly' };

export function rewardLabel(reward: Reward): string {
  switch (reward.kind) {
    case 'currency':
      return `${reward.amount.toLocaleString()} ${reward.currency}`;
    case 'item':
      return `${reward.quantity.toLocaleString()} × ${reward.itemId}`;
    case 'badge':
      return `Badge “${reward.badgeId}”`;
  }
}
