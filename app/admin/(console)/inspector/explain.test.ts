import { describe, expect, it } from 'vitest';
import { formatDateTime } from '@/components/console/format';
import type { InspectorVerdict } from '@/lib/contract/inspector';
import { describeLock, describeNameMismatches, describeVerdict, summarizeEvent, type Titles } from './explain';

const ids: Titles = { mission: (id) => id, campaign: (id) => id };
const titles: Titles = {
  mission: (id) => ({ 'ranked-wins': 'Win 2 ranked matches', levels: 'Reach a level', login: 'Log in' })[id] ?? id,
  campaign: (id) => ({ 'winter-cup': 'Winter Cup' })[id] ?? id,
};
const mismatch = (missionId: string, expected: string, seen: string): InspectorVerdict => ({ missionId, counted: false, code: 'event_name_mismatch', expected, seen });

describe('describeVerdict', () => {
  it('says a late (or early) event was outside the current window, with both windows', () => {
    const day = Date.UTC(2026, 10, 26);
    const sentence = describeVerdict({ missionId: 'daily', counted: false, code: 'outside_current_window', eventWindowStart: day - 86_400_000, currentWindowStart: day }, ids);
    expect(sentence).toBe(
      `Outside the current window: the event’s window (${formatDateTime(day - 86_400_000)}) is not the current one (${formatDateTime(day)}), so it counted for nothing`,
    );
  });

  it('names campaigns and missions by title, falling back to the id for one the catalog no longer has', () => {
    const at = Date.UTC(2026, 11, 1);
    expect(describeVerdict({ missionId: 'x', counted: false, code: 'campaign_not_live', campaignId: 'winter-cup', state: 'not_started', startAt: at }, titles)).toBe(
      `Campaign “Winter Cup” was not live: it starts ${formatDateTime(at)}`,
    );
    expect(describeVerdict({ missionId: 'x', counted: false, code: 'campaign_not_live', campaignId: 'gone', state: 'archived' }, titles)).toBe('Campaign “gone” is archived');
    expect(describeVerdict({ missionId: 'x', counted: false, code: 'locked_by_prerequisite', missing: ['ranked-wins'] }, titles)).toBe('Locked: “Win 2 ranked matches” not claimed yet');
  });
});

describe('describeLock', () => {
  it('names the campaign by title, and prerequisites by mission title', () => {
    const at = Date.UTC(2026, 11, 1);
    expect(describeLock({ reason: 'campaign_not_started', campaignId: 'winter-cup', startAt: at, endAt: at + 1 }, titles)).toBe(`Locked: its campaign “Winter Cup” starts ${formatDateTime(at)}`);
    expect(describeLock({ reason: 'prerequisites', missing: ['levels'] }, titles)).toBe('Locked: claim “Reach a level” first');
  });
});

describe('describeNameMismatches', () => {
  it('collapses every mismatch into one line and suggests the nearest mission event name when no mission reads the name', () => {
    const verdicts = [mismatch('a', 'match_won', 'match_win'), mismatch('b', 'match_won', 'match_win'), mismatch('c', 'login', 'match_win'), mismatch('d', 'level_up', 'match_win')];
    expect(describeNameMismatches(verdicts)).toEqual({
      text: 'No mission counts “match_win”: did you mean “match_won”? (4 missions count “match_won”, “login”, “level_up”)',
      suggestion: 'match_won',
      alone: true,
    });
  });

  it('suggests for a case or separator slip, and nothing for an unrelated name', () => {
    expect(describeNameMismatches([mismatch('a', 'match.won', 'MatchWon')])?.suggestion).toBe('match.won');
    expect(describeNameMismatches([mismatch('a', 'match_won', 'shop_opened')])).toEqual({ text: 'No mission counts “shop_opened” (1 mission counts “match_won”)', suggestion: null, alone: true });
  });

  it('when some mission reads the name, the others are one quiet line without a suggestion; none at all: null', () => {
    const verdicts: InspectorVerdict[] = [{ missionId: 'a', counted: false, code: 'filter_mismatch', key: 'mode', condition: 'ranked', seen: 'casual' }, mismatch('b', 'login', 'match_won')];
    expect(describeNameMismatches(verdicts)).toEqual({ text: '1 other mission counts other events (“login”)', suggestion: null, alone: false });
    expect(describeNameMismatches([{ missionId: 'a', counted: true, change: 'progress', currentCount: 1, targetCount: 2 }])).toBeNull();
  });
});

describe('summarizeEvent', () => {
  it('one line: what it counted for, else the did-you-mean, else the first reason by mission title', () => {
    expect(summarizeEvent([{ missionId: 'ranked-wins', counted: true, change: 'progress', currentCount: 1, targetCount: 2 }, mismatch('login', 'login', 'match_won')], titles)).toBe(
      'counted for “Win 2 ranked matches” (progress 1 / 2)',
    );
    expect(summarizeEvent([mismatch('ranked-wins', 'match_won', 'match_win'), mismatch('login', 'login', 'match_win')], titles)).toBe(
      'counted for nothing. No mission counts “match_win”: did you mean “match_won”? (2 missions count “match_won”, “login”)',
    );
    expect(
      summarizeEvent(
        [
          { missionId: 'ranked-wins', counted: false, code: 'filter_mismatch', key: 'score', condition: { gte: 1000 }, seen: 900 },
          { missionId: 'levels', counted: false, code: 'already_claimed' },
          mismatch('login', 'login', 'match_won'),
        ],
        titles,
      ),
    ).toBe('counted for nothing. “Win 2 ranked matches”: Filter “score” did not match: needs ≥ 1000, saw 900 (and 1 more mission)');
    expect(summarizeEvent(null, titles)).toBe('no verdicts stored');
    expect(summarizeEvent([], titles)).toBe('counted for nothing: the app has no missions');
  });
});
