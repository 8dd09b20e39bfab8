// The engine with a user's attributes: audiences (same language as filters)
// and windows in the user's own zone, with the verdict naming the bucket.
import { describe, expect, it } from 'vitest';
import { inAudience } from './audience';
import { explainEvent, toMissionProgress } from './engine';
import type { Campaign, Mission, ProgressRecord } from './schema';

const H = 3_600_000;
const mission = (o: Partial<Mission> = {}): Mission => ({
  id: 'm1',
  title: 'Daily login',
  description: '',
  criteria: { eventName: 'login', count: 2, window: 'daily' },
  reward: { kind: 'currency', currency: 'gold', amount: 10 },
  campaignId: null,
  expiresAt: null,
  iconUrl: null,
  prerequisites: [],
  archived: false,
  ...o,
});
const campaign = (o: Partial<Campaign> = {}): Campaign => ({
  id: 'c1',
  title: 'Launch',
  description: '',
  startAt: 0,
  endAt: Date.UTC(2100, 0, 1),
  bannerUrl: '',
  archived: false,
  missionIds: ['m1'],
  ...o,
});

describe('inAudience', () => {
  const m = mission({ audience: { platform: 'ios', level: { gte: 10 } } });
  it('matches with the filter operators, every key', () => {
    expect(inAudience(m, null, { platform: 'ios', level: 10 })).toBe(true);
    expect(inAudience(m, null, { platform: 'ios', level: 9 })).toBe(false);
    expect(inAudience(m, null, { platform: 'android', level: 30 })).toBe(false);
    expect(inAudience(m, null, {})).toBe(false);
    expect(inAudience(m, null, { platform: 'ios', level: '10' })).toBe(false); // strict types, as filters
  });
  it('no audience is everyone; a campaign audience applies to its missions too', () => {
    expect(inAudience(mission(), null, {})).toBe(true);
    const c = campaign({ audience: { country: { in: ['DE', 'AT'] } } });
    expect(inAudience(mission(), c, { country: 'DE' })).toBe(true);
    expect(inAudience(mission(), c, { country: 'FR' })).toBe(false);
    expect(inAudience(m, c, { country: 'DE', platform: 'ios', level: 12 })).toBe(true);
    expect(inAudience(m, c, { country: 'FR', platform: 'ios', level: 12 })).toBe(false);
  });
  it('exists and ne read a missing attribute as missing', () => {
    expect(inAudience(mission({ audience: { vip: { exists: false } } }), null, {})).toBe(true);
    expect(inAudience(mission({ audience: { tier: { ne: 'gold' } } }), null, {})).toBe(true);
  });
});

describe('explainEvent with attributes', () => {
  const now = Date.UTC(2026, 10, 26, 23, 30); // 27 Nov 00:30 in Berlin
  const event = { userId: 'u', name: 'login', payload: {}, timestamp: now };
  it('outside the audience: not counted, outside_audience; attributes not given: not checked', () => {
    const m = mission({ audience: { vip: true } });
    const out = explainEvent({ mission: m, campaign: null, record: null, event, lock: null, now, attributes: {} });
    expect(out.evaluation).toBeNull();
    expect(out.verdict).toEqual({ counted: false, code: 'outside_audience' });
    expect(explainEvent({ mission: m, campaign: null, record: null, event, lock: null, now, attributes: { vip: true } }).evaluation).not.toBeNull();
  });
  it('a counted event of a zoned user names its bucket and zone; a UTC user’s verdict is as before', () => {
    const berlin = explainEvent({ mission: mission(), campaign: null, record: null, event, lock: null, now, zone: 'Europe/Berlin' });
    expect(berlin.verdict).toEqual({ counted: true, change: 'progress', currentCount: 1, targetCount: 2, bucket: '27 Nov 2026', timeZone: 'Europe/Berlin' });
    expect(berlin.evaluation?.record.windowStart).toBe(Date.UTC(2026, 10, 26, 23));
    const utc = explainEvent({ mission: mission(), campaign: null, record: null, event, lock: null, now });
    expect(utc.verdict).toEqual({ counted: true, change: 'progress', currentCount: 1, targetCount: 2 });
  });
  it('a late event across the user’s midnight is outside_current_window, naming the zone', () => {
    const late = { ...event, timestamp: Date.UTC(2026, 10, 26, 22, 50) }; // 23:50 on the 26th in Berlin
    const v = explainEvent({ mission: mission(), campaign: null, record: null, event: late, lock: null, now, zone: 'Europe/Berlin' }).verdict;
    expect(v).toMatchObject({ counted: false, code: 'outside_current_window', timeZone: 'Europe/Berlin' });
  });
});

describe('toMissionProgress in a zone', () => {
  const record: ProgressRecord = {
    userId: 'u',
    missionId: 'm1',
    status: 'active',
    currentCount: 1,
    targetCount: 2,
    windowStart: Date.UTC(2026, 10, 25, 15), // 26 Nov in Tokyo
    cycle: 1,
    updatedAt: 0,
  };
  it('reads as fresh after Tokyo midnight, not before', () => {
    expect(toMissionProgress({ mission: mission(), record, locked: false, now: Date.UTC(2026, 10, 26, 14, 59), zone: 'Asia/Tokyo' })?.currentCount).toBe(1);
    expect(toMissionProgress({ mission: mission(), record, locked: false, now: Date.UTC(2026, 10, 26, 15, 0), zone: 'Asia/Tokyo' })?.currentCount).toBe(0);
  });
  it('a completed record is kept across the user’s midnight (never reset)', () => {
    const done = { ...record, status: 'completed' as const, currentCount: 2 };
    expect(toMissionProgress({ mission: mission(), record: done, locked: false, now: Date.UTC(2026, 10, 28), zone: 'Asia/Tokyo' })?.status).toBe('completed');
  });
  it('a daylight-saving day is one day: Berlin 29 Mar 2026 keeps its count for 23 hours', () => {
    const start = Date.UTC(2026, 2, 28, 23); // 29 Mar 00:00 CET
    const r = { ...record, windowStart: start };
    expect(toMissionProgress({ mission: mission(), record: r, locked: false, now: start + 23 * H - 1, zone: 'Europe/Berlin' })?.currentCount).toBe(1);
    expect(toMissionProgress({ mission: mission(), record: r, locked: false, now: start + 23 * H, zone: 'Europe/Berlin' })?.currentCount).toBe(0);
  });
});
