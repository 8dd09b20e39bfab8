// How missions read in the console: reward, window and criteria in words.
import type { MissionWindow, Reward } from '@/lib/contract/mission';

export const WINDOW_LABELS: Record<MissionWindow, string> = { lifetime: 'Lifetime', daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly' };

export const WINDOW_HINTS: Record<MissionWindow, string> = {
  lifetime: 'Counts once, forever',
  daily: 'Resets every day at 00:00 UTC',
  weekly: 'Resets every Monday at 00:00 UTC',
  monthly: 'Resets on the 1st at 00:00 UTC',
};

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
