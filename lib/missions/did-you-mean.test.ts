import { describe, expect, it } from 'vitest';
import { editDistance, nearestEventName, normalizeEventName } from './did-you-mean';

describe('normalizeEventName', () => {
  it('folds case, separators and camelCase into one snake form', () => {
    for (const name of ['match_won', 'Match_Won', 'MATCH_WON', 'match.won', 'match-won', 'match won', ' match__won ', 'matchWon', 'MatchWon', 'match:won', 'match/won']) {
      expect(normalizeEventName(name), name).toBe('match_won');
    }
    expect(normalizeEventName('level2Up')).toBe('level2_up');
  });
});

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and neighbour swaps as one edit each', () => {
    expect(editDistance('match_won', 'match_won')).toBe(0);
    expect(editDistance('match_win', 'match_won')).toBe(1);
    expect(editDistance('match_wno', 'match_won')).toBe(1);
    expect(editDistance('mach_won', 'match_won')).toBe(1);
    expect(editDistance('match_wonn', 'match_won')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});

describe('nearestEventName', () => {
  const names = ['login', 'match_won', 'match_played', 'level_up', 'purchase'];

  it('suggests the mission event name one slip away', () => {
    expect(nearestEventName('match_win', names)).toBe('match_won');
    expect(nearestEventName('mtach_won', names)).toBe('match_won');
    expect(nearestEventName('logn', names)).toBe('login');
    expect(nearestEventName('level_upp', names)).toBe('level_up');
  });

  it('suggests a name that differs only in case or separators, however short', () => {
    expect(nearestEventName('matchWon', names)).toBe('match_won');
    expect(nearestEventName('MATCH-WON', names)).toBe('match_won');
    expect(nearestEventName('Match.Played', names)).toBe('match_played');
    expect(nearestEventName('Login', names)).toBe('login');
  });

  it('prefers a case/separator match over an edit, and the nearer of two edits', () => {
    expect(nearestEventName('match.won', ['match_wan', 'match_won'])).toBe('match_won');
    expect(nearestEventName('match_plaed', names)).toBe('match_played');
  });

  it('breaks ties by the order the names are given in', () => {
    expect(nearestEventName('match_wxn', ['match_won', 'match_win'])).toBe('match_won');
    expect(nearestEventName('match_wxn', ['match_win', 'match_won'])).toBe('match_win');
  });

  it('suggests nothing for a name that is a mission event, an unrelated name, or no candidates', () => {
    expect(nearestEventName('match_won', names)).toBeNull();
    expect(nearestEventName('shop_opened', names)).toBeNull();
    expect(nearestEventName('win', names)).toBeNull();
    expect(nearestEventName('match_won', [])).toBeNull();
    expect(nearestEventName('', names)).toBeNull();
  });

  it('allows at most one edit for short names and three for long ones', () => {
    expect(nearestEventName('lgn', ['login'])).toBeNull();
    expect(nearestEventName('tutorial_complete', ['tutorial_completed'])).toBe('tutorial_completed');
    expect(nearestEventName('tutorial_compltd', ['tutorial_completed'])).toBe('tutorial_completed');
    expect(nearestEventName('tutorial_cmpld', ['tutorial_completed'])).toBeNull();
  });
});
