// The demo catalog says what the engine does: a windowed mission resets at
// the player's midnight in their `timezone` attribute, at 00:00 UTC only for
// a player without one (docs/api.md, "Mission rules").
import { describe, expect, it } from 'vitest';
import { demoCatalog } from './demo-catalog';

describe('demo catalog texts', () => {
  it('a mission whose description tells when it resets names the player’s time zone, not UTC alone', () => {
    const { missions } = demoCatalog(Date.now());
    const daily = missions.find((m) => m.id === 'daily-three');
    expect(daily?.criteria.window).toBe('daily');
    const telling = missions.filter((m) => /reset/i.test(m.description ?? ''));
    expect(telling.map((m) => m.id)).toContain('daily-three');
    for (const m of telling) expect(m.description, m.id).toMatch(/midnight in your time zone.*00:00 UTC when you have none/);
  });
});
