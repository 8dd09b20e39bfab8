import { describe, expect, it } from 'vitest';
import { buildCatalog } from '@/lib/catalog/catalog';
import { publicMission } from '@/lib/catalog/convert';
import type { Mission } from '@/lib/contract/mission';
import { viewMission } from '@/lib/missions/read-missions';
import type { ProgressRecord } from '@/lib/missions/schema';
import { missionListJson } from './mission-list-json';

const NOW = Date.UTC(2024, 2, 6, 12);

function mission(id: string, o: Partial<Mission> = {}): Mission {
  return {
    id,
    title: `Mission "${id}" ✓`,
    description: 'line\nbreak',
    criteria: { eventName: 'match.won', count: 3, window: 'lifetime' },
    reward: { kind: 'currency', currency: 'gold', amount: 10 },
    campaignId: null,
    expiresAt: null,
    iconUrl: null,
    prerequisites: [],
    archived: false,
    ...o,
  };
}

const record = (missionId: string, o: Partial<ProgressRecord> = {}): ProgressRecord => ({
  userId: 'u1',
  missionId,
  status: 'active',
  currentCount: 1,
  targetCount: 3,
  windowStart: 0,
  cycle: 1,
  updatedAt: NOW - 1000,
  ...o,
});

/** What the handler answered before the pre-serialized pieces: JSON.stringify of the object. */
function expected(views: ReturnType<typeof viewMission>[], nextCursor: string | null): string {
  const progress: Record<string, unknown> = {};
  for (const v of views) if (v.progress) progress[v.mission.id] = v.progress;
  return JSON.stringify({ missions: views.map((v) => publicMission(v.mission, v.locked)), progress, nextCursor });
}

describe('missionListJson', () => {
  const missions = [mission('a'), mission('b', { prerequisites: ['a'] }), mission('c', { iconUrl: 'https://x.test/i.png', expiresAt: NOW + 5000 })];
  const catalog = buildCatalog('app', missions, [], NOW);

  it('answers the bytes of JSON.stringify of the list object, locked and unlocked, with and without progress', () => {
    for (const records of [new Map<string, ProgressRecord>(), new Map([['a', record('a', { status: 'claimed', currentCount: 3 })], ['c', record('c')]])]) {
      const views = missions.map((m) => viewMission(catalog, m, records, NOW));
      for (const cursor of [null, 'bTpj']) expect(missionListJson(catalog, views, cursor)).toBe(expected(views, cursor));
    }
  });

  it('reuses a mission piece only within one catalog version', () => {
    const views = [viewMission(catalog, missions[0], new Map(), NOW)];
    expect(JSON.parse(missionListJson(catalog, views, null)).missions[0].title).toBe('Mission "a" ✓');
    const renamed = mission('a', { title: 'Renamed' });
    const next = buildCatalog('app', [renamed], [], NOW);
    const body = JSON.parse(missionListJson(next, [viewMission(next, renamed, new Map(), NOW)], null));
    expect(body.missions[0].title).toBe('Renamed');
  });

  it('answers an empty page as empty arrays and objects', () => {
    expect(JSON.parse(missionListJson(catalog, [], null))).toEqual({ missions: [], progress: {}, nextCursor: null });
  });
});
