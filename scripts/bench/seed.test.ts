// The at-scale seed (scripts/bench/seed-sql.ts) at small scale: its rows pass
// its own SQL consistency check, and agree with what the service's code makes
// of them (the engine's replay of the stored events, the rollup shard, a
// player's export); a row changed behind its back makes the check fail.
// PostgreSQL: 10,000 players and 100,000 events; the embedded database (PGlite,
// one process, slower): 2,000 players and 20,000 events.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, dayStart, listEventPartitions, partitionName } from '@/db/event-partitions';
import { rollupRows } from '@/lib/analytics/rollups';
import { buildCatalog } from '@/lib/catalog/catalog';
import { missionSchema } from '@/lib/contract/mission';
import { replayImpact } from '@/lib/services/impact/replay-impact';
import { listMissions } from '@/lib/services/missions/list-missions';
import { exportUser } from '@/lib/services/users/export-user';
import { testServiceContext, type TestServiceContext } from '@/lib/testing/service-context';
import { checkSeed, seed, seedCatalog, SEED_MISSIONS, type SeedResult, type SeedSql } from './seed-sql';

const databaseUrl = process.env.DATABASE_URL ?? '';
const postgres = databaseUrl.startsWith('postgres');
const PLAYERS = postgres ? 10_000 : 2_000;
const EVENTS = postgres ? 100_000 : 20_000;
const NOW = 1_764_000_000_000;
const appId = `seed-test-${Date.now().toString(36)}`;
const TABLES = ['events', 'progress', 'ledger', 'balances', 'user_sequences', 'app_users', 'analytics_rollups', 'missions', 'apps'];

let service: TestServiceContext;
let client: SeedSql;
let closeClient: () => Promise<void> = async () => undefined;
let seeded: SeedResult;

const rowsOf = async <T>(text: string, params: unknown[] = [appId]) => (await client.query(text, params)).rows as T[];

beforeAll(async () => {
  service = await testServiceContext(appId, { now: NOW });
  if (postgres) {
    // One session of its own (the seed keeps a temporary table).
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    client = c;
    closeClient = () => c.end();
  } else {
    client = (service.db as unknown as { $client: SeedSql }).$client;
  }
  seeded = await seed(client, { appId, players: PLAYERS, events: EVENTS, days: 30, end: NOW - 60_000 });
}, 600_000);

afterAll(async () => {
  if (client) for (const table of TABLES) await client.query(`delete from ${table} where ${table === 'apps' ? 'id' : 'app_id'} = $1`, [appId]);
  // The day partitions the seed made go again when nothing else landed in them (the next run makes them anew, so its check means something).
  if (client && seeded) {
    for (const name of seeded.partitions) {
      await client.query('begin');
      await client.query(`lock table ${name} in access exclusive mode`);
      const empty = (await client.query(`select 1 from ${name} limit 1`)).rows.length === 0;
      if (empty) await client.query(`alter table events detach partition ${name}`);
      await client.query('commit');
      if (empty) await client.query(`drop table ${name}`);
    }
  }
  await closeClient();
});

describe(`the at-scale seed, small (${PLAYERS} players, ${EVENTS} events, 30 days; ${postgres ? 'PostgreSQL' : 'embedded'})`, () => {
  it('writes every player and event over the period, and the rows its model derives', async () => {
    expect(seeded.events).toBe(EVENTS);
    const [events] = await rowsOf<{ n: number; users: number; first: string; last: string }>(
      'select count(*)::int as n, count(distinct user_id)::int as users, min(received_at)::text as first, max(received_at)::text as last from events where app_id = $1',
    );
    expect(events.n).toBe(EVENTS);
    expect(events.users).toBe(PLAYERS);
    expect(Number(events.first)).toBeGreaterThanOrEqual(NOW - 30 * 86_400_000);
    expect(Number(events.last)).toBeLessThan(NOW - 60_000);
    // Ids as the service makes them: evt_ and a UUIDv7 carrying received_at in its first 48 bits (a day partition's check).
    const [ids] = await rowsOf<{ wrong: number; distinct: number }>(
      `select count(*) filter (where not (id ~ '^evt_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$'
           and received_at = ('x' || substr(id, 5, 8) || substr(id, 14, 4))::bit(48)::bigint))::int as wrong,
         count(distinct id)::int as distinct
       from events where app_id = $1`,
    );
    expect(ids).toEqual({ wrong: 0, distinct: EVENTS });
    // Every player logged in once at least, so has the first-login mission; the regulars (0.1 %) have them all.
    const perMission = await rowsOf<{ mission_id: string; n: number; claimed: number }>(
      `select mission_id, count(*)::int as n, count(*) filter (where status = 'claimed')::int as claimed from progress where app_id = $1 group by 1 order by 1`,
    );
    const byId = new Map(perMission.map((r) => [r.mission_id, r]));
    expect(byId.get('login_1')?.n).toBe(PLAYERS);
    expect(byId.get('shop_50')?.n).toBeGreaterThanOrEqual(Math.round(PLAYERS * 0.001));
    for (const m of SEED_MISSIONS) expect(byId.get(m.id)?.claimed ?? 0).toBeGreaterThan(0);
    expect(seeded.rows.ledger).toBeGreaterThan(0);
    expect(seeded.rows.balances).toBeGreaterThan(0);
    expect(seeded.rows.user_sequences).toBe(PLAYERS);
    expect(seeded.rows.app_users).toBe(PLAYERS);
  });

  it('puts each seeded day in a day partition of its own (events_default holds none of its events)', async () => {
    const parts = await listEventPartitions(async (text) => (await client.query(text)).rows as Array<Record<string, unknown>>);
    const days: number[] = [];
    for (let day = dayStart(seeded.start); day < seeded.end; day += DAY_MS) days.push(day);
    expect(days).toHaveLength(31);
    // The partition for each day exists with that day's bounds (the seed made those that were missing).
    for (const day of days) expect(parts.find((p) => p.name === partitionName(day))).toEqual({ name: partitionName(day), from: day, to: day + DAY_MS });
    for (const name of seeded.partitions) expect(days.map(partitionName)).toContain(name);
    const [inDefault] = await rowsOf<{ n: number }>('select count(*)::int as n from events_default where app_id = $1');
    expect(inDefault.n).toBe(0);
    // Every event is in its own day's partition.
    const perPartition = await rowsOf<{ part: string; day: string; n: number }>(
      `select tableoid::regclass::text as part, (received_at / ${DAY_MS})::bigint::text as day, count(*)::int as n from events where app_id = $1 group by 1, 2 order by 2`,
    );
    expect(perPartition.map((r) => r.part)).toEqual(perPartition.map((r) => partitionName(Number(r.day) * DAY_MS)));
    expect(perPartition.map((r) => Number(r.day) * DAY_MS)).toEqual(days);
    expect(perPartition.reduce((sum, r) => sum + r.n, 0)).toBe(EVENTS);
  });

  it('passes its consistency check: progress, verdicts, counters, ledger, balances, player rows and rollups agree', async () => {
    const checks = await checkSeed(client, appId);
    expect(checks).toHaveLength(8);
    for (const c of checks) expect(c, c.check).toEqual({ check: c.check, mismatches: 0 });
  });

  it("the engine's replay of the stored events reaches the stored progress (completed and in progress per mission)", async () => {
    const missions = seedCatalog().missions.map((m) => missionSchema.parse(m));
    const report = await replayImpact({
      ctx: service.ctx,
      input: { live: buildCatalog(appId, missions, [], NOW), draft: buildCatalog(appId, [], [], NOW), days: 30 },
    });
    expect(report.events).toBe(EVENTS);
    const stored = await rowsOf<{ mission_id: string; done: number; active: number }>(
      `select mission_id, count(*) filter (where status <> 'active')::int as done, count(*) filter (where status = 'active')::int as active
       from progress where app_id = $1 group by 1`,
    );
    expect(report.missions.map((m) => ({ missionId: m.missionId, completed: m.live.completed, inProgress: m.live.inProgress })).sort((a, b) => a.missionId.localeCompare(b.missionId))).toEqual(
      stored.map((s) => ({ missionId: s.mission_id, completed: s.done, inProgress: s.active })).sort((a, b) => a.missionId.localeCompare(b.missionId)),
    );
  });

  it("the rollups' shard is the service's (lib/analytics/rollups.ts) for every player", async () => {
    const users = await rowsOf<{ user_id: string; shard: number }>('select user_id, pg_temp.seed_shard(user_id) as shard from app_users where app_id = $1');
    expect(users).toHaveLength(PLAYERS);
    const wrong = users.filter((u) => rollupRows({ appId, userId: u.user_id, at: NOW, deltas: [{ kind: 'event', key: 'x', count: 1, amount: 0 }] })[0].shard !== Number(u.shard));
    expect(wrong).toEqual([]);
  });

  it("a regular player's export has their events, six missions, ledger and balances as stored", async () => {
    const [regular] = await rowsOf<{ user_id: string; events: number }>('select user_id, events::int as events from app_users where app_id = $1 order by events desc, user_id limit 1');
    expect(regular.events).toBeGreaterThan(EVENTS / PLAYERS);
    const doc = await exportUser({ ctx: service.ctx, input: { userId: regular.user_id } });
    expect(doc.events).toHaveLength(regular.events);
    expect(doc.progress).toHaveLength(SEED_MISSIONS.length);
    const [ledger] = await rowsOf<{ n: number }>('select count(*)::int as n from ledger where app_id = $1 and user_id = $2', [appId, regular.user_id]);
    expect(doc.ledger).toHaveLength(ledger.n);
    const [balances] = await rowsOf<{ n: number }>('select count(*)::int as n from balances where app_id = $1 and user_id = $2', [appId, regular.user_id]);
    expect(doc.balances).toHaveLength(balances.n);
  });

  it("a regular player's mission list (GET /v1/missions' verb, the catalog as the service loads it) shows the stored progress", async () => {
    const [regular] = await rowsOf<{ user_id: string }>('select user_id from app_users where app_id = $1 order by events desc, user_id limit 1');
    const list = await listMissions({ ctx: service.ctx, input: { userId: regular.user_id, status: 'all', limit: 50, after: null, includeExpired: false } });
    const stored = await rowsOf<{ mission_id: string; status: string; current_count: number }>(
      'select mission_id, status, current_count from progress where app_id = $1 and user_id = $2 order by mission_id',
      [appId, regular.user_id],
    );
    expect(list.views.map((v) => ({ mission_id: v.mission.id, status: v.status, current_count: v.progress?.currentCount })).sort((a, b) => a.mission_id.localeCompare(b.mission_id))).toEqual(stored);
    expect(list.views.map((v) => v.mission.criteria.window)).toEqual(SEED_MISSIONS.map(() => 'lifetime'));
  });

  it('the check fails when a row disagrees (a progress count, a balance)', async () => {
    const [row] = await rowsOf<{ user_id: string }>(`select user_id from progress where app_id = $1 and mission_id = 'play_20' and status = 'active' order by user_id limit 1`);
    await client.query(`update progress set current_count = current_count + 1 where app_id = $1 and user_id = $2 and mission_id = 'play_20'`, [appId, row.user_id]);
    await client.query(`update balances set amount = amount + 1 where app_id = $1 and user_id = (select min(user_id) from balances where app_id = $1)`, [appId]);
    const failing = (await checkSeed(client, appId)).filter((c) => c.mismatches > 0).map((c) => c.check);
    expect(failing).toEqual([
      'progress = the events each mission counts (count capped at the target; done at the target)',
      "events' verdicts: counted events per (player, mission) = progress",
      'balances = the ledger summed; the latest balance_after = the balance',
    ]);
  });
});
