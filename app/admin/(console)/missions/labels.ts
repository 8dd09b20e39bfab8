// How missions read in the console: reward, window and criteria in words.
import type { MissionWindow, Reward } from '@/lib/contract/mission';

export const WINDOW_LABELS: Record<MissionWindow, string> = { lifetime: 'Lifetime', daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly' };

export const WINDOW_HINTS: Record<MissionWindow, string> = {
  lifetime: 'Counts once, forever',
  // The player's own calendar when they have a `timezone` attribute (docs/api.md, "Mission rules").
  daily: 'Resets every day at the player’s midnight (00:00 UTC without a time zone)',
  weekly: 'Resets every Monday at the player’s midnight (00:00 UTC without a time zone)',
  monthly: 'Resets on the 1st at the player’s midnight (00:00 UTC without a time zone)',
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
