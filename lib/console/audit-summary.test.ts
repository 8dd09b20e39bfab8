import { describe, expect, it } from 'vitest';
import { auditSummary } from './audit-summary';

describe('auditSummary', () => {
  it('a grant shows its signed amount, currency and reason; a correction its minus', () => {
    expect(auditSummary({ action: 'user.grant', after: { currency: 'gold', amount: 150, change: 50, reason: 'Ticket #4411: ranked win not counted', ledgerId: 3 } })).toBe('+50 gold: Ticket #4411: ranked win not counted');
    expect(auditSummary({ action: 'user.grant', after: { currency: 'gems', amount: 0, change: -1200, reason: 'duplicate' } })).toBe('-1,200 gems: duplicate');
  });

  it('other entries show the reason staff gave, or nothing', () => {
    expect(auditSummary({ action: 'user.mission_reset', after: { reason: 'request #881' } })).toBe('request #881');
    expect(auditSummary({ action: 'mission.update', after: { title: 'Win 3' } })).toBeNull();
    expect(auditSummary({ action: 'user.grant', after: null })).toBeNull();
  });
});
