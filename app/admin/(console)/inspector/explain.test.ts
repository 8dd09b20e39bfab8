import { describe, expect, it } from 'vitest';
import { formatDateTime } from '@/components/console/format';
import { describeVerdict } from './explain';

describe('describeVerdict', () => {
  it('says a late (or early) event was outside the current window, with both windows', () => {
    const day = Date.UTC(2026, 10, 26);
    const sentence = describeVerdict(
      { missionId: 'daily', counted: false, code: 'outside_current_window', eventWindowStart: day - 86_400_000, currentWindowStart: day },
      (id) => id,
    );
    expect(sentence).toBe(
      `Outside the current window: the event’s window (${formatDateTime(day - 86_400_000)}) is not the current one (${formatDateTime(day)}), so it counted for nothing`,
    );
  });
});
