// Conversions driven by the entities' schemas: rows ↔ entities ↔ /v1 form,
// with the JSON key order clients have always seen.
import { describe, expect, it } from 'vitest';
import type { CampaignRow, MissionRow, ThemeRow } from '@/db/schema';
import { campaignSchema } from '@/lib/contract/campaign';
import { missionSchema } from '@/lib/contract/mission';
import { themeOfPreset, themePresetSchema } from '@/lib/contract/theme';
import { campaignColumns, campaignFromRow, missionColumns, missionFromRow, publicCampaign, publicMission, sameColumns, themeColumns, themeFromRow } from './convert';

const missionRow: MissionRow = {
  appId: 'app',
  id: 'm1',
  title: 'Win three',
  description: 'Three wins',
  criteria: { eventName: 'match_won', count: 3, window: 'daily', filter: { mode: 'ranked' } },
  reward: { kind: 'item', itemId: 'sword', quantity: 1 },
  rewards: null,
  campaignId: 'c1',
  expiresAt: 5000,
  iconUrl: null,
  prerequisites: ['m0'],
  archived: false,
  audience: null,
  createdAt: 1,
  updatedAt: 2,
  version: 1,
};

const campaignRow: CampaignRow = {
  appId: 'app',
  id: 'c1',
  title: 'Launch',
  description: '',
  startAt: 1000,
  endAt: 2000,
  theme: null,
  bannerUrl: 'https://x/b.png',
  archived: true,
  themeId: null,
  audience: null,
  budget: null,
  version: 3,
  createdAt: 1,
  updatedAt: 2,
};

describe('missions', () => {
  it('a row becomes the entity (no app id or timestamps), and the entity its columns again', () => {
    const m = missionFromRow(missionRow);
    expect(missionSchema.parse(m)).toEqual(m);
    // audience is optional: a NULL column is an absent audience.
    expect(Object.keys(m)).toEqual(Object.keys(missionSchema.shape).filter((k) => k !== 'audience' && k !== 'rewards'));
    const { appId: _a, id: _i, createdAt: _c, updatedAt: _u, version: _v, ...columns } = missionRow;
    // A mission of one reward (every row written before bundles) has no `rewards`: NULL, absent, NULL again.
    expect(m).not.toHaveProperty('rewards');
    expect(missionColumns(m)).toEqual(columns);
  });

  it('an audience is a jsonb column, kept as authored, and never in the /v1 form', () => {
    const audience = { platform: 'ios', level: { gte: 10 } };
    const m = missionFromRow({ ...missionRow, audience });
    expect(m.audience).toEqual(audience);
    expect(missionColumns(m).audience).toEqual(audience);
    expect(publicMission(m, false)).not.toHaveProperty('audience');
  });

  it('the /v1 form keeps the historical key order, drops archived and adds the caller’s locked last', () => {
    const pub = publicMission(missionFromRow(missionRow), true);
    expect(Object.keys(pub)).toEqual(['id', 'title', 'description', 'criteria', 'reward', 'rewards', 'campaignId', 'expiresAt', 'iconUrl', 'prerequisites', 'locked']);
    expect(pub).toMatchObject({ iconUrl: null, expiresAt: 5000, locked: true });
    expect(publicMission(missionFromRow(missionRow), false).locked).toBe(false);
  });
});

describe('campaigns', () => {
  it('a NULL theme is an absent theme, and back; missionIds is derived, never a column', () => {
    const c = campaignFromRow(campaignRow, ['m1']);
    expect(c).not.toHaveProperty('theme');
    expect(Object.keys(c)).toEqual(['id', 'title', 'description', 'startAt', 'endAt', 'missionIds', 'bannerUrl', 'archived']);
    expect(campaignSchema.parse(c)).toEqual(c);
    const columns = campaignColumns(campaignSchema.parse(c));
    expect(columns).toEqual({ title: 'Launch', description: '', startAt: 1000, endAt: 2000, theme: null, bannerUrl: 'https://x/b.png', archived: true, themeId: null, audience: null, budget: null });
    expect(columns).not.toHaveProperty('missionIds');
  });

  it('the /v1 form has the theme when set and never archived', () => {
    const themed = campaignFromRow({ ...campaignRow, theme: { primaryColor: '#fff', accent: '#000' } }, []);
    const pub = publicCampaign(themed);
    expect(Object.keys(pub)).toEqual(['id', 'title', 'description', 'startAt', 'endAt', 'missionIds', 'theme', 'bannerUrl']);
    expect(pub.theme).toEqual({ primaryColor: '#fff', accent: '#000' });
    expect(publicCampaign(campaignFromRow(campaignRow, []))).not.toHaveProperty('theme');
  });

  it('a preset reference is kept as themeId and never reaches the /v1 form', () => {
    const c = campaignFromRow({ ...campaignRow, themeId: 'night' }, []);
    expect(c.themeId).toBe('night');
    expect(campaignColumns(campaignSchema.parse(c))).toMatchObject({ themeId: 'night', theme: null });
    expect(publicCampaign(c)).not.toHaveProperty('themeId');
  });
});

describe('themes', () => {
  const themeRow: ThemeRow = { appId: 'app', id: 'night', name: 'Night', primaryColor: '#112233', accentColor: null, backgroundColor: '#000000', textColor: null, version: 2, createdAt: 1, updatedAt: 2 };

  it('a row becomes the preset (absent colours omitted) and the preset its columns again', () => {
    const t = themeFromRow(themeRow);
    expect(t).toEqual({ id: 'night', name: 'Night', primaryColor: '#112233', backgroundColor: '#000000' });
    expect(themePresetSchema.parse(t)).toEqual(t);
    expect(themeColumns(t)).toEqual({ name: 'Night', primaryColor: '#112233', accentColor: null, backgroundColor: '#000000', textColor: null });
  });

  it('a preset resolves to the /v1 theme object: its colours only, primaryColor first', () => {
    const theme = themeOfPreset(themeFromRow({ ...themeRow, textColor: '#ffffff' }));
    expect(Object.keys(theme)).toEqual(['primaryColor', 'backgroundColor', 'textColor']);
    expect(theme).toEqual({ primaryColor: '#112233', backgroundColor: '#000000', textColor: '#ffffff' });
  });
});

describe('sameColumns (what makes a save a no-op)', () => {
  it('is true for the same content whatever the key order of objects, jsonb ones included', () => {
    const stored = missionColumns(missionFromRow(missionRow));
    const sent = missionColumns(missionSchema.parse({ ...missionFromRow(missionRow), criteria: { filter: { mode: 'ranked' }, window: 'daily', count: 3, eventName: 'match_won' } }));
    expect(sameColumns(sent, stored)).toBe(true);
  });

  it('is false for any changed value, a cleared optional field, or a reordered list', () => {
    const stored = missionColumns(missionFromRow(missionRow));
    const base = missionFromRow(missionRow);
    expect(sameColumns(missionColumns({ ...base, title: 'Win four' }), stored)).toBe(false);
    expect(sameColumns(missionColumns({ ...base, criteria: { ...base.criteria, filter: { mode: 'casual' } } }), stored)).toBe(false);
    expect(sameColumns(missionColumns({ ...base, expiresAt: null }), stored)).toBe(false);
    expect(sameColumns(missionColumns({ ...base, prerequisites: ['m0', 'm2'] }), missionColumns({ ...base, prerequisites: ['m2', 'm0'] }))).toBe(false);
  });
});
