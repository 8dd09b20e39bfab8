// replayImpact called directly with a ServiceContext (the embedded database,
// or DATABASE_URL's): events the test writes into the events table, replayed
// with a live and a draft catalog; every figure below is counted by hand
// from those events.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import { analyticsRollups, events as eventsTable } from '@/db/schema';
import { buildCatalog, type Catalog } from '@/lib/catalog/catalog';
import { campaignSchema, type CampaignInput } from '@/lib/contract/campaign';
import { missionSchema, type MissionInput } from '@/lib/contract/mission';
import { AppError } from '@/lib/errors';
import { testServiceContext } from '@/lib/testing/service-context';
import { uniqueId } from '@/lib/testing/test-env';
import type { ServiceContext } from '../context';
import { replayImpact } from './replay-impact';

const DAY = 86_400_000;
/** The service clock of these tests: noon UTC, so "days ago" stays inside one UTC day. */
const NOW = Date.UTC(2026, 10, 20, 12);

let db: Db;
let base: Omit<ServiceContext, 'appId'>;

beforeAll(async () => {
  const t = await testServiceContext('replay-impact', { actor: { kind: 'staff', id: 'ana@example.com', role: 'editor' }, now: NOW });
  db = t.db;
  base = t.ctx;
});

/** A mission or campaign as these tests write it: the title defaults to the id. */
type MissionDef = Omit<MissionInput, 'title'> & { title?: string };
type CampaignDef = Omit<CampaignInput, 'title'> & { title?: string };
const catalogOf = (appId: string, missions: MissionDef[], campaigns: CampaignDef[] = []): Catalog =>
  buildCatalog(
    appId,
    missions.map((m) => missionSchema.parse({ title: m.id, ...m })),
    campaigns.map((c) => campaignSchema.parse({ title: c.id, ...c })),
  );

let seq = 0;
/** Stores events as ingestion would have (only the columns the replay reads matter). */
async function store(appId: string, rows: Array<[userId: string, name: string, at: number, payload?: Record<string, unknown>]>) {
  await db.insert(eventsTable).values(
    rows.map(([userId, name, at, payload]) => ({
      id: `evt_test_${process.pid}_${++seq}`,
      appId,
      userId,
      name,
      payload: payload ?? {},
      timestamp: at,
      receivedAt: at,
    })),
  );
}

const gems = (amount: number) => ({ kind: 'currency' as const, currency: 'gems', amount });
const coins = (amount: number) => ({ kind: 'currency' as const, currency: 'coins', amount });
/** No claim was observed in these apps (no rollup): no rate. */
const NO_RATE = { rate: null, basis: 'none', claims: 0, completions: 0 };
/** What a mission live on both sides adds, with no claim observed. */
const PLAIN = { notLive: { live: null, draft: null }, asIfLive: null, claimRate: NO_RATE, payoutAtClaimRate: null };

describe('replayImpact({ ctx, input })', () => {
  const liveMissions: MissionDef[] = [
    { id: 'ace', title: 'Ranked ace', criteria: { eventName: 'match_won', count: 2, filter: { mode: 'ranked' } }, reward: gems(50) },
    { id: 'play', criteria: { eventName: 'match_played', count: 3 }, reward: coins(10) },
    { id: 'old', criteria: { eventName: 'login', count: 1 }, reward: gems(5) },
    { id: 'daily', criteria: { eventName: 'login', count: 1, window: 'daily' }, reward: coins(3) },
    { id: 'steady', criteria: { eventName: 'match_won', count: 1 }, reward: gems(1) },
  ];
  const draftMissions: MissionDef[] = [
    { ...liveMissions[0], criteria: { eventName: 'match_won', count: 3, filter: { mode: 'ranked' } } }, // raised count
    { ...liveMissions[1], criteria: { eventName: 'match_played', count: 2 } }, // lowered count
    // 'old' removed
    { ...liveMissions[3], reward: coins(4) }, // the daily mission pays more
    liveMissions[4], // unchanged: not reported
    { id: 'new', criteria: { eventName: 'shop_visit', count: 1 }, reward: coins(7) }, // added
  ];

  it('answers every added, changed and removed mission: lowered and raised counts, a removed and an added mission, daily cycles in the payout', async () => {
    const appId = uniqueId('app');
    const ranked = { mode: 'ranked' };
    const at = (daysAgo: number, minute = 0) => NOW - daysAgo * DAY + minute * 60_000;
    await store(appId, [
      // u1: three ranked wins (completes ace on both sides) and three matches (play on both).
      ['u1', 'match_won', at(3, 1), ranked],
      ['u1', 'match_won', at(3, 2), ranked],
      ['u1', 'match_won', at(3, 3), ranked],
      ['u1', 'match_played', at(3, 4)],
      ['u1', 'match_played', at(3, 5)],
      ['u1', 'match_played', at(3, 6)],
      // u2: two ranked wins (live completes, the draft's 3 does not), one casual (no count), two matches (only the draft's 2 completes).
      ['u2', 'match_won', at(2, 1), ranked],
      ['u2', 'match_won', at(2, 2), { mode: 'casual' }],
      ['u2', 'match_won', at(2, 3), ranked],
      ['u2', 'match_played', at(2, 4)],
      ['u2', 'match_played', at(2, 5)],
      // u3: one ranked win in the period; five more 40 days ago, outside it.
      ['u3', 'match_won', at(1), ranked],
      ...Array.from({ length: 5 }, (_, i) => ['u3', 'match_won', at(40, i), ranked] as [string, string, number, Record<string, unknown>]),
      // u4: a login on each of three days: 'old' once, 'daily' three cycles.
      ['u4', 'login', at(5)],
      ['u4', 'login', at(4)],
      ['u4', 'login', at(3)],
      // u5: two shop visits (the added mission, once: lifetime) and a name no changed mission counts.
      ['u5', 'shop_visit', at(2)],
      ['u5', 'shop_visit', at(1)],
      ['u5', 'chat', at(1)],
      // An event after the service clock (the period ends now).
      ['u5', 'shop_visit', NOW + 1],
    ]);
    const otherApp = uniqueId('app');
    await store(otherApp, [['u1', 'match_won', at(1), ranked]]);
    const live = catalogOf(appId, liveMissions);
    const draft = catalogOf(appId, draftMissions);
    const ctx: ServiceContext = { ...base, appId };

    const report = await replayImpact({ ctx, input: { live, draft } });
    expect(report.from).toBe(NOW - 30 * DAY);
    expect(report.to).toBe(NOW);
    // match_won, match_played, login, shop_visit of the period: 6 + 5 + 1 + 3 + 2.
    expect(report.events).toBe(17);
    expect(report.missions).toEqual([
      {
        missionId: 'ace',
        change: 'changed',
        live: { inProgress: 1, completed: 2 },
        draft: { inProgress: 2, completed: 1 },
        payout: { live: { gems: 100 }, draft: { gems: 50 } },
        ...PLAIN,
      },
      {
        missionId: 'daily',
        change: 'changed',
        live: { inProgress: 0, completed: 1 },
        draft: { inProgress: 0, completed: 1 },
        payout: { live: { coins: 9 }, draft: { coins: 12 } },
        ...PLAIN,
      },
      {
        missionId: 'new',
        change: 'added',
        live: { inProgress: 0, completed: 0 },
        draft: { inProgress: 0, completed: 1 },
        payout: { live: {}, draft: { coins: 7 } },
        ...PLAIN,
        // Not live yet: its figures as if live are its draft ones (it has no campaign to open).
        notLive: { live: null, draft: 'new_mission' },
        asIfLive: { live: { inProgress: 0, completed: 0 }, draft: { inProgress: 0, completed: 1 }, payout: { live: {}, draft: { coins: 7 } }, payoutAtClaimRate: null },
      },
      {
        missionId: 'old',
        change: 'removed',
        live: { inProgress: 0, completed: 1 },
        draft: { inProgress: 0, completed: 0 },
        payout: { live: { gems: 5 }, draft: {} },
        ...PLAIN,
      },
      {
        missionId: 'play',
        change: 'changed',
        live: { inProgress: 1, completed: 1 },
        draft: { inProgress: 0, completed: 2 },
        payout: { live: { coins: 10 }, draft: { coins: 20 } },
        ...PLAIN,
      },
    ]);

    // Pages of 2 rows (keyset continuation inside users and across them) answer the same.
    expect(await replayImpact({ ctx, input: { live, draft, pageSize: 2 } })).toEqual(report);
    // A shorter period: the logins 4 and 5 days ago and u1's events 3 days ago fall out.
    const twoDays = await replayImpact({ ctx, input: { live, draft, days: 2 } });
    expect(twoDays.events).toBe(5 + 1 + 2);
    expect(twoDays.missions.find((m) => m.missionId === 'ace')).toMatchObject({ live: { inProgress: 1, completed: 1 }, draft: { inProgress: 2, completed: 0 } });
    expect(twoDays.missions.find((m) => m.missionId === 'daily')).toMatchObject({ live: { inProgress: 0, completed: 0 }, payout: { live: {}, draft: {} } });
  });

  it('applies prerequisites and campaign starts at each event’s time', async () => {
    const appId = uniqueId('app');
    const at = (daysAgo: number, minute = 0) => NOW - daysAgo * DAY + minute * 60_000;
    const first = { id: 'first', criteria: { eventName: 'tutorial', count: 1 }, reward: gems(1) };
    const second = { id: 'second', criteria: { eventName: 'quest', count: 2 }, reward: gems(10), prerequisites: ['first'] };
    const seasonal = { id: 'seasonal', criteria: { eventName: 'quest2', count: 1 }, reward: coins(30), campaignId: 'season' };
    const live = catalogOf(appId, [first, second, seasonal], [{ id: 'season', startAt: at(2), endAt: NOW + 30 * DAY }]);
    const draft = catalogOf(
      appId,
      [first, { ...second, criteria: { eventName: 'quest', count: 1 } }, seasonal],
      [{ id: 'season', startAt: at(10), endAt: NOW + 30 * DAY }],
    );
    await store(appId, [
      // u1: a quest while locked, the tutorial (claimed at once: unlocks), two quests.
      ['u1', 'quest', at(6, 1)],
      ['u1', 'tutorial', at(6, 2)],
      ['u1', 'quest', at(6, 3)],
      ['u1', 'quest', at(6, 4)],
      // u2: two quests while locked, the tutorial, one quest: live 1 of 2, the draft's 1 completes.
      ['u2', 'quest', at(6, 1)],
      ['u2', 'quest', at(6, 2)],
      ['u2', 'tutorial', at(6, 3)],
      ['u2', 'quest', at(6, 4)],
      // u3: quests without the tutorial: locked on both sides, so not even in progress.
      ['u3', 'quest', at(6, 1)],
      ['u3', 'quest', at(6, 2)],
      // u4: quest2 five days ago: before the live campaign's start, after the draft's.
      ['u4', 'quest2', at(5)],
      // u5: quest2 yesterday: inside both.
      ['u5', 'quest2', at(1)],
    ]);
    const report = await replayImpact({ ctx: { ...base, appId }, input: { live, draft } });
    expect(report.events).toBe(12);
    expect(report.missions).toEqual([
      {
        missionId: 'seasonal',
        change: 'changed',
        live: { inProgress: 0, completed: 1 },
        draft: { inProgress: 0, completed: 2 },
        payout: { live: { coins: 30 }, draft: { coins: 60 } },
        ...PLAIN,
      },
      {
        missionId: 'second',
        change: 'changed',
        live: { inProgress: 1, completed: 1 },
        draft: { inProgress: 0, completed: 2 },
        payout: { live: { gems: 10 }, draft: { gems: 20 } },
        ...PLAIN,
      },
    ]);
  });

  it('replays events of the same time in id order, whatever order they were stored in', async () => {
    const appId = uniqueId('app');
    const at = NOW - 3 * DAY;
    const first = { id: 'first', criteria: { eventName: 'tutorial', count: 1 }, reward: gems(1) };
    const second = { id: 'second', criteria: { eventName: 'quest', count: 1 }, reward: gems(10), prerequisites: ['first'] };
    const live = catalogOf(appId, [first, second]);
    const draft = catalogOf(appId, [first, { ...second, reward: gems(20) }]);
    // Stored quest first, tutorial second, at the same ms: by id the tutorial ("…-a") comes first, so it unlocks the quest ("…-b").
    const row = (id: string, name: string) => ({ id: `${appId}-${id}`, appId, userId: 'u1', name, payload: {}, timestamp: at, receivedAt: at });
    await db.insert(eventsTable).values([row('b', 'quest'), row('c', 'login')]);
    await db.insert(eventsTable).values([row('a', 'tutorial')]);
    for (const pageSize of [undefined, 1, 2]) {
      const report = await replayImpact({ ctx: { ...base, appId }, input: { live, draft, pageSize } });
      expect(report.events).toBe(2);
      expect(report.missions).toEqual([
        { missionId: 'second', change: 'changed', live: { inProgress: 0, completed: 1 }, draft: { inProgress: 0, completed: 1 }, payout: { live: { gems: 10 }, draft: { gems: 20 } }, ...PLAIN },
      ]);
    }
  });

  it('evaluates a campaign that has not started and a new mission as if live over the period; the payout at the observed claim rate', async () => {
    const appId = uniqueId('app');
    const at = (daysAgo: number, minute = 0) => NOW - daysAgo * DAY + minute * 60_000;
    // The campaign starts in 5 days on both sides: live, its mission counted nothing.
    const winter = { id: 'winter', startAt: NOW + 5 * DAY, endAt: NOW + 20 * DAY };
    const play = { id: 'play-2', criteria: { eventName: 'match_played', count: 2 }, reward: coins(100), campaignId: 'winter' };
    const login = { id: 'login', criteria: { eventName: 'login', count: 1 }, reward: gems(5) };
    const live = catalogOf(appId, [play, login], [winter]);
    const draft = catalogOf(
      appId,
      [
        { ...play, reward: coins(10_000) }, // the reward raised 100×
        { ...login, reward: gems(6) },
        { id: 'shop', criteria: { eventName: 'shop_visit', count: 1 }, reward: coins(7) }, // a new mission
        { id: 'winter-bonus', criteria: { eventName: 'match_played', count: 1 }, reward: coins(40), campaignId: 'winter' }, // new, in the campaign
      ],
      [winter],
    );
    await store(appId, [
      // u1: three matches (play-2 once: lifetime), a login, a shop visit; u2: two matches, a login; u3: one match, a login.
      ['u1', 'match_played', at(3, 1)],
      ['u1', 'match_played', at(3, 2)],
      ['u1', 'match_played', at(3, 3)],
      ['u1', 'login', at(3, 4)],
      ['u1', 'shop_visit', at(3, 5)],
      ['u2', 'match_played', at(2, 1)],
      ['u2', 'match_played', at(2, 2)],
      ['u2', 'login', at(2, 3)],
      ['u3', 'match_played', at(1, 1)],
      ['u3', 'login', at(1, 2)],
    ]);
    // The dashboard's counters: login 3 completions and 2 claims in the period, 'steady' 1 and 1;
    // a claim of login 40 days ago (outside) and another app's counters are not counted.
    const rollup = (app: string, daysAgo: number, kind: 'completion' | 'claim', key: string, count: number) => ({ appId: app, bucketStart: at(daysAgo) - (at(daysAgo) % 60_000), kind, key, shard: 0, count, amount: 0 });
    await db.insert(analyticsRollups).values([
      rollup(appId, 3, 'completion', 'login', 2),
      rollup(appId, 1, 'completion', 'login', 1),
      rollup(appId, 2, 'claim', 'login', 2),
      rollup(appId, 40, 'claim', 'login', 5),
      rollup(appId, 2, 'completion', 'steady', 1),
      rollup(appId, 2, 'claim', 'steady', 1),
      rollup(uniqueId('app'), 2, 'completion', 'login', 9),
    ]);
    const appRate = { rate: 0.75, basis: 'app', claims: 3, completions: 4 };
    const report = await replayImpact({ ctx: { ...base, appId }, input: { live, draft } });
    expect(report.events).toBe(10);
    expect(report.missions).toEqual([
      {
        missionId: 'login',
        change: 'changed',
        live: { inProgress: 0, completed: 3 },
        draft: { inProgress: 0, completed: 3 },
        payout: { live: { gems: 15 }, draft: { gems: 18 } },
        notLive: { live: null, draft: null },
        asIfLive: null,
        claimRate: { rate: 2 / 3, basis: 'mission', claims: 2, completions: 3 },
        payoutAtClaimRate: { live: { gems: 10 }, draft: { gems: 12 } },
      },
      {
        missionId: 'play-2',
        change: 'changed',
        // Judged as it was: the campaign had not started, nothing counted ("no change").
        live: { inProgress: 0, completed: 0 },
        draft: { inProgress: 0, completed: 0 },
        payout: { live: {}, draft: {} },
        notLive: { live: 'campaign_not_started', draft: 'campaign_not_started' },
        // As if live over the 30 days: u1 and u2 complete, u3 is in progress.
        asIfLive: {
          live: { inProgress: 1, completed: 2 },
          draft: { inProgress: 1, completed: 2 },
          payout: { live: { coins: 200 }, draft: { coins: 20_000 } },
          payoutAtClaimRate: { live: { coins: 150 }, draft: { coins: 15_000 } },
        },
        claimRate: appRate,
        payoutAtClaimRate: { live: {}, draft: {} },
      },
      {
        missionId: 'shop',
        change: 'added',
        live: { inProgress: 0, completed: 0 },
        draft: { inProgress: 0, completed: 1 },
        payout: { live: {}, draft: { coins: 7 } },
        notLive: { live: null, draft: 'new_mission' },
        asIfLive: { live: { inProgress: 0, completed: 0 }, draft: { inProgress: 0, completed: 1 }, payout: { live: {}, draft: { coins: 7 } }, payoutAtClaimRate: { live: {}, draft: { coins: 5 } } },
        claimRate: appRate,
        payoutAtClaimRate: { live: {}, draft: { coins: 5 } },
      },
      {
        missionId: 'winter-bonus',
        change: 'added',
        live: { inProgress: 0, completed: 0 },
        draft: { inProgress: 0, completed: 0 },
        payout: { live: {}, draft: {} },
        notLive: { live: null, draft: 'campaign_not_started' },
        asIfLive: { live: { inProgress: 0, completed: 0 }, draft: { inProgress: 0, completed: 3 }, payout: { live: {}, draft: { coins: 120 } }, payoutAtClaimRate: { live: {}, draft: { coins: 90 } } },
        claimRate: appRate,
        payoutAtClaimRate: { live: {}, draft: {} },
      },
    ]);
    // Pages of 2 rows answer the same; over 2 days only u2 and u3 count (u2 completes play-2).
    expect(await replayImpact({ ctx: { ...base, appId }, input: { live, draft, pageSize: 2 } })).toEqual(report);
    const twoDays = await replayImpact({ ctx: { ...base, appId }, input: { live, draft, days: 2 } });
    expect(twoDays.missions.find((m) => m.missionId === 'play-2')?.asIfLive).toMatchObject({ live: { inProgress: 1, completed: 1 }, payout: { draft: { coins: 10_000 } } });
    // The draft moves the campaign's start into the past: the draft side is live (judged as it is), the live side as if live.
    const started = catalogOf(appId, [{ ...play, reward: coins(10_000) }, login], [{ ...winter, startAt: at(2, 3) }]);
    const moved = (await replayImpact({ ctx: { ...base, appId }, input: { live, draft: started } })).missions.find((m) => m.missionId === 'play-2');
    expect(moved).toMatchObject({
      notLive: { live: 'campaign_not_started', draft: null },
      // Only u3's match is after the draft's start; as if live, u1 and u2 complete the live one.
      draft: { inProgress: 1, completed: 0 },
      asIfLive: { live: { inProgress: 1, completed: 2 }, draft: { inProgress: 1, completed: 0 }, payout: { live: { coins: 200 }, draft: {} } },
    });
  });

  it('nothing changed: no mission, no event read; days outside 1..90 are refused', async () => {
    const appId = uniqueId('app');
    await store(appId, [['u1', 'login', NOW - DAY]]);
    const live = catalogOf(appId, [{ id: 'm', criteria: { eventName: 'login', count: 1 }, reward: gems(1) }]);
    const same = catalogOf(appId, [{ id: 'm', criteria: { eventName: 'login', count: 1 }, reward: gems(1) }]);
    expect(await replayImpact({ ctx: { ...base, appId }, input: { live, draft: same, days: 7 } })).toEqual({
      from: NOW - 7 * DAY,
      to: NOW,
      events: 0,
      missions: [],
    });
    for (const days of [0, 91, 1.5]) {
      const refused = replayImpact({ ctx: { ...base, appId }, input: { live, draft: same, days } });
      await expect(refused).rejects.toBeInstanceOf(AppError);
      await expect(refused).rejects.toMatchObject({ code: 'validation_error' });
    }
  });
});
