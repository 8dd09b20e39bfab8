// One status word per mission, from the live mission and its live campaign.
import { describe, expect, it } from 'vitest';
import { missionStatus, sameReward } from './mission-status';

const NOW = 1_800_000_000_000;
const DAY = 86_400_000;

describe('missionStatus', () => {
  it('is scheduled while its campaign has not started, live inside it, ended after it', () => {
    const mission = { archived: false, expiresAt: null };
    expect(missionStatus(mission, { startAt: NOW + DAY, endAt: NOW + 2 * DAY }, NOW)).toBe('scheduled');
    expect(missionStatus(mission, { startAt: NOW - DAY, endAt: NOW + DAY }, NOW)).toBe('live');
    expect(missionStatus(mission, { startAt: NOW - 2 * DAY, endAt: NOW }, NOW)).toBe('ended');
    expect(missionStatus(mission, null, NOW)).toBe('live');
  });

  it('says archived for an archived mission or campaign, expired past its own expiresAt', () => {
    const campaign = { startAt: NOW + DAY, endAt: NOW + 2 * DAY };
    expect(missionStatus({ archived: true, expiresAt: null }, campaign, NOW)).toBe('archived');
    expect(missionStatus({ archived: false, expiresAt: null }, { ...campaign, archived: true }, NOW)).toBe('archived');
    expect(missionStatus({ archived: false, expiresAt: NOW }, campaign, NOW)).toBe('expired');
  });
});

describe('sameReward', () => {
  it('compares by value, whatever the order of the fields', () => {
    expect(sameReward({ kind: 'currency', currency: 'coins', amount: 100 }, { amount: 100, kind: 'currency', currency: 'coins' })).toBe(true);
    expect(sameReward({ kind: 'currency', currency: 'coins', amount: 100 }, { kind: 'currency', currency: 'coins', amount: 120 })).toBe(false);
  });
});
