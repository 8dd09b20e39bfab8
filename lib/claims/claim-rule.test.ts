// The claim rule in one place (lib/missions/engine.ts claimRule) against the
// claim statement's own guard: for every kind of record a user can have
// (none, active, completed, claimed) × the record's window (the current one,
// the one before) × the mission's window (lifetime, daily, a streak that
// stays claimed, one that repeats) × the user's zone (UTC, and Tokyo at an
// hour when Tokyo's day has turned and UTC's has not), the statement
// (claimMission, on the database: PGlite in process, or DATABASE_URL's)
// grants exactly when claimRule says claimable, and a refusal
// (claimRefusal) says what claimRule says. No server.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import { appUsers, progress, userSequences } from '@/db/schema';
import { buildCatalog } from '@/lib/catalog/catalog';
import { missionSchema, type Mission } from '@/lib/contract/mission';
import { claimRule } from '@/lib/missions/engine';
import type { ProgressRecord } from '@/lib/missions/schema';
import { windowStart } from '@/lib/missions/windows';
import { testServiceContext } from '@/lib/testing/service-context';
import { uniqueId } from '@/lib/testing/test-env';
import { claimMission, claimRefusal } from './claim-mission';

const DAY = 86_400_000;
// 2026-11-26 16:30 UTC: 01:30 on the 27th in Tokyo. A claim "yesterday" in Tokyo was "today" in UTC.
const NOW = Date.UTC(2026, 10, 26, 16, 30);

let db: Db;
beforeAll(async () => {
  db = (await testServiceContext('claim-rule')).db;
});

const base = { criteria: { eventName: 'play', count: 1 }, reward: { kind: 'currency', currency: 'gems', amount: 5 } };
const missions: Mission[] = [
  missionSchema.parse({ ...base, id: 'life', title: 'Lifetime' }),
  missionSchema.parse({ ...base, id: 'day', title: 'Daily', criteria: { eventName: 'play', count: 1, window: 'daily' } }),
  missionSchema.parse({ ...base, id: 'streak', title: 'Streak', criteria: { eventName: 'play', count: 1, window: 'daily', streak: { length: 2 } } }),
  missionSchema.parse({ ...base, id: 'streak-again', title: 'Streak again', criteria: { eventName: 'play', count: 1, window: 'daily', streak: { length: 2, repeat: true } } }),
];

type Case = { mission: Mission; status: ProgressRecord['status'] | null; bucket: 'current' | 'previous'; zone: 'UTC' | 'Asia/Tokyo' };
const cases: Case[] = missions.flatMap((mission) =>
  (['UTC', 'Asia/Tokyo'] as const).flatMap((zone) =>
    ([null, 'active', 'completed', 'claimed'] as const).flatMap((status) => (['current', 'previous'] as const).map((bucket) => ({ mission, status, bucket, zone }))),
  ),
);

describe('the claim rule against the claim statement', () => {
  it(`grants exactly what claimRule calls claimable, and refuses in claimRule's words (${cases.length} cases)`, async () => {
    const appId = uniqueId('app');
    const catalog = buildCatalog(appId, missions, [], NOW);
    const seen = { granted: 0, claimed: 0, notCompleted: 0 };
    for (const [i, c] of cases.entries()) {
      const userId = `u${i}`;
      const window = c.mission.criteria.window;
      const start = window === 'lifetime' ? 0 : windowStart(window, c.bucket === 'current' ? NOW : NOW - DAY, c.zone);
      let record: ProgressRecord | null = null;
      if (c.status !== null) {
        const count = c.status === 'active' ? 0 : 1;
        record = { userId, missionId: c.mission.id, status: c.status, currentCount: count, targetCount: 1, windowStart: start, cycle: 0, updatedAt: NOW - 1000 };
        await db.insert(progress).values({ appId, ...record, state: null });
        await db.insert(userSequences).values({ appId, userId, seq: 1 });
      }
      if (c.zone !== 'UTC') await db.insert(appUsers).values({ appId, userId, firstSeenAt: 1, lastSeenAt: 1, events: 1, attributes: { timezone: c.zone } });

      const rule = claimRule({ mission: c.mission, record, now: NOW, zone: c.zone });
      const label = `${c.mission.id}, ${c.status ?? 'no record'}, ${c.bucket} window, ${c.zone}`;
      const outcome = await claimMission(db, { appId, userId, missionId: c.mission.id, catalog, key: null, requestHash: `claim:${c.mission.id}` }, NOW);
      expect(outcome.kind, label).toBe(rule.claimable ? 'claimed' : 'not-claimed');
      if (rule.claimable) {
        seen.granted++;
        continue;
      }
      const refusal = await claimRefusal(db, { appId, userId, missionId: c.mission.id, catalog }, NOW);
      expect([refusal.code, refusal.message], label).toEqual(['claim_not_ready', `Mission "${c.mission.id}" is ${rule.reason === 'already claimed' ? 'already claimed' : 'not completed'}`]);
      if (rule.reason === 'already claimed') seen.claimed++;
      else seen.notCompleted++;
    }
    // Every outcome occurs (the matrix is not all one answer).
    expect(seen.granted).toBe(16); // completed, in either window, every mission and zone
    expect(seen.claimed).toBeGreaterThan(0);
    expect(seen.notCompleted).toBeGreaterThan(0);
  });

  it('the Tokyo case: a daily mission claimed in the UTC day that is still today is "not completed" for a Tokyo user (a new day there), "already claimed" for a UTC user', () => {
    const day = missions[1];
    const claimedAt = (zone: string) => ({ userId: 'u', missionId: 'day', status: 'claimed' as const, currentCount: 1, targetCount: 1, windowStart: windowStart('daily', NOW - 12 * 3_600_000, zone), cycle: 0, updatedAt: NOW - 12 * 3_600_000 });
    expect(claimRule({ mission: day, record: claimedAt('UTC'), now: NOW, zone: 'UTC' })).toEqual({ claimable: false, reason: 'already claimed' });
    expect(claimRule({ mission: day, record: claimedAt('Asia/Tokyo'), now: NOW, zone: 'Asia/Tokyo' })).toEqual({ claimable: false, reason: 'not completed' });
  });
});
