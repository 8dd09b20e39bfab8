// The at-scale seed (issue 43 §2): one app whose players, events, progress,
// ledger, balances, change counters, player-search rows and dashboard rollups
// are generated inside the database (generate_series, INSERT … SELECT; the
// events a day of the period per statement), and agree with each other as the service would have
// written them. scripts/bench/seed.ts is its command line; checkSeed is the
// SQL consistency check it runs at the end (and scripts/bench/seed.test.ts
// at small scale).
//
// The model, chosen so that every derived row has a closed form in the
// player's number u and the event's number k (0 … n−1 of that player):
// - player u's id is `p-` and 8 hex digits (u × 2654435761 mod 2³²: all
//   distinct, spread like hashed ids); 90 % of the events are spread evenly
//   over all players, 10 % over the "regulars" (0.1 % of the players), so at
//   1,000,000 players and 10,000,000 events most have 9 events and 1,000
//   have about 1,009;
// - event k of a player is, in turn, login, match_played, match_won,
//   item_bought (k mod 4); its occurrence of that name is i = k div 4;
//   match_played and match_won are ranked when i is even; event times are
//   increasing in k, spread over the `days` before the seed (received_at =
//   timestamp, as events sent as they happen);
// - six lifetime count missions (SEED_MISSIONS); every event carries the
//   engine's verdict for each mission with its name (events.outcome), so the
//   inspector reads what it reads in production;
// - a completed mission is claimed an hour after it completed for two in
//   three (player, mission) pairs (when that hour is over before the seed's
//   end): progress `claimed`, one ledger row (grant key
//   mission:<id>:cycle:1) with the balance after it, the balance.
// Events go in through the parent table `events`; on the partitioned table
// (db/event-partitions.ts) the seed first creates one day partition per
// seeded day (ensureEventPartitions), so its events land in day partitions,
// not in events_default, and the retention job drops a seeded day whole.
// Idempotency rows, notes, webhook deliveries and audit rows are not seeded.
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { ensureEventPartitions } from '../../db/event-partitions';
import { missionSchema } from '../../lib/contract/mission';

/** What the seed needs of a SQL client: one session (it uses a temporary table); pg.Client and PGlite both answer it. */
export interface SeedSql {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

export interface SeedOptions {
  appId: string;
  players: number;
  events: number;
  days: number;
  /** The end of the seeded period (Unix ms; default: now, to the minute, less a minute). */
  end?: number;
  log?: (line: string) => void;
}

export interface SeedResult {
  appId: string;
  players: number;
  events: number;
  /** Events' times are in [start, end). */
  start: number;
  end: number;
  seconds: number;
  /** Seconds spent inserting the events themselves (with their rollups). */
  eventSeconds: number;
  rows: Record<string, number>;
  /** The day partitions of `events` the seed created (none when the table is not partitioned, or they existed). */
  partitions: string[];
}

const DAY = 86_400_000;

type PartitionDb = Parameters<typeof ensureEventPartitions>[0];

/** The seed's one session as db/event-partitions.ts wants a database: SQL run as text, a transaction as BEGIN … COMMIT. */
function partitionDb(db: SeedSql): PartitionDb {
  const dialect = new PgDialect();
  const self: PartitionDb = {
    execute: async (query: SQL) => {
      const q = dialect.sqlToQuery(query);
      return db.query(q.sql, q.params);
    },
    transaction: async <T>(run: (tx: PartitionDb) => Promise<T>): Promise<T> => {
      await db.query('begin');
      try {
        const result = await run(self);
        await db.query('commit');
        return result;
      } catch (err) {
        await db.query('rollback');
        throw err;
      }
    },
  };
  return self;
}
const HOUR = 3_600_000;
const NAMES = ['login', 'match_played', 'match_won', 'item_bought'] as const;
/** Of the players, the share that are regulars; of the events, the share the regulars send on top of the even spread. */
const REGULAR_PLAYERS = 0.001;
const REGULAR_EVENTS = 0.1;

type Reward =
  | { kind: 'currency'; currency: string; amount: number }
  | { kind: 'item'; itemId: string; quantity: number }
  | { kind: 'badge'; badgeId: string };

interface SeedMission {
  id: string;
  title: string;
  /** Index of its event name in NAMES. */
  name: number;
  count: number;
  /** Counts only ranked events (payload mode = ranked). */
  ranked: boolean;
  reward: Reward;
}

/** The seeded app's catalog, in its order (the engine judges an event's missions in catalog order). */
export const SEED_MISSIONS: readonly SeedMission[] = [
  { id: 'login_1', title: 'First login', name: 0, count: 1, ranked: false, reward: { kind: 'currency', currency: 'gems', amount: 5 } },
  { id: 'login_100', title: 'Hundred logins', name: 0, count: 100, ranked: false, reward: { kind: 'currency', currency: 'gems', amount: 50 } },
  { id: 'play_20', title: 'Play 20 matches', name: 1, count: 20, ranked: false, reward: { kind: 'currency', currency: 'gold', amount: 100 } },
  { id: 'ranked_10', title: 'Play 10 ranked matches', name: 1, count: 10, ranked: true, reward: { kind: 'currency', currency: 'gems', amount: 25 } },
  { id: 'win_3', title: 'Win 3 matches', name: 2, count: 3, ranked: false, reward: { kind: 'item', itemId: 'chest', quantity: 1 } },
  { id: 'shop_50', title: 'Buy 50 items', name: 3, count: 50, ranked: false, reward: { kind: 'badge', badgeId: 'shopper' } },
];

/** The seeded catalog as the admin API takes it (PUT …/catalog, PUT …/draft). */
export function seedCatalog(): { missions: Array<Record<string, unknown>> } {
  return {
    missions: SEED_MISSIONS.map((m) => ({
      id: m.id,
      title: m.title,
      criteria: { eventName: NAMES[m.name], count: m.count, ...(m.ranked ? { filter: { mode: 'ranked' } } : {}) },
      reward: m.reward,
    })),
  };
}

/** The player id of number u (SQL, over an integer column or expression `u`). */
const playerIdSql = (u: string) => `'p-' || lpad(to_hex(((${u})::bigint * 2654435761) % 4294967296), 8, '0')`;

/** The k of the event that completes mission m (the count-th event of its name that it counts). */
function completingK(m: SeedMission): number {
  const occurrence = m.ranked ? 2 * (m.count - 1) : m.count - 1;
  return 4 * occurrence + m.name;
}

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** SQL fragments over a row of seed_players `p` (u, user_id, n, f, shard), for one seed's period. */
function model(start: number, end: number) {
  const span = end - start;
  /** The time of event k of player p (strictly increasing in k: n ≤ span). */
  const ts = (k: string) => `(${start}::bigint + ((${k})::bigint * 1000 + p.f) * ${span}::bigint / (p.n::bigint * 1000))`;
  /** How many events named NAMES[j] player p sent. */
  const occ = (j: number) => `(case when p.n > ${j} then (p.n - 1 - ${j}) / 4 + 1 else 0 end)`;
  /** How many events of player p mission m counts (before it stops counting at its target). */
  const total = (m: SeedMission) => (m.ranked ? `((${occ(m.name)} + 1) / 2)` : occ(m.name));
  const index = (m: SeedMission) => SEED_MISSIONS.indexOf(m);
  /** Whether player p claimed mission m (it completed, the draw says so, and the hour after was over before the end). */
  const claimed = (m: SeedMission) =>
    `(${total(m)} >= ${m.count} and (p.u::bigint * 2246822519 + ${index(m) * 7919}) % 3 <> 0 and ${ts(String(completingK(m)))} + ${HOUR} <= ${end}::bigint)`;
  const claimAt = (m: SeedMission) => `(${ts(String(completingK(m)))} + ${HOUR})`;
  return { ts, occ, total, claimed, claimAt };
}

/** The verdict (events.outcome element) of mission m for event k of player p, whose name is m's. */
function verdictSql(m: SeedMission, M: ReturnType<typeof model>): string {
  const i = '(k / 4)';
  const c = m.ranked ? `(${i} / 2 + 1)` : `(${i} + 1)`;
  const id = lit(m.id);
  const filtered = m.ranked
    ? `when ${i} % 2 = 1 then jsonb_build_object('missionId', ${id}, 'counted', false, 'code', 'filter_mismatch', 'key', 'mode', 'condition', 'ranked', 'missing', false, 'seen', 'casual') `
    : '';
  return `case ${filtered}
    when ${c} <= ${m.count} then jsonb_build_object('missionId', ${id}, 'counted', true, 'change', case when ${c} = ${m.count} then 'completed' else 'progress' end, 'currentCount', ${c}, 'targetCount', ${m.count})
    when ${M.claimed(m)} and ${M.ts('k')} > ${M.claimAt(m)} then jsonb_build_object('missionId', ${id}, 'counted', false, 'code', 'already_claimed')
    else jsonb_build_object('missionId', ${id}, 'counted', false, 'code', 'already_completed') end`;
}

/** The payload of event k of player p. */
function payloadSql(): string {
  const i = '(k / 4)';
  const mode = `case when ${i} % 2 = 0 then 'ranked' else 'casual' end`;
  return `case k % 4
    when 0 then jsonb_build_object('platform', case when p.u % 2 = 0 then 'ios' else 'android' end)
    when 1 then jsonb_build_object('mode', ${mode}, 'score', (p.u + k) % 50, 'durationSec', 300 + (p.u * 7 + k) % 400)
    when 2 then jsonb_build_object('mode', ${mode}, 'score', 10 + (p.u + k) % 40)
    else jsonb_build_object('itemId', (array['sword','shield','potion'])[${i} % 3 + 1], 'price', 10 * (1 + ${i} % 20)) end`;
}

/**
 * An event's id as the service makes it (lib/events/event-id.ts, issue 43 §1): `evt_` and a
 * UUIDv7 whose first 48 bits are received_at (`at`), then the random part of a UUIDv4 after its version.
 */
const EVENT_ID_SQL = `'evt_' || substr(lpad(to_hex(at), 12, '0'), 1, 8) || '-' || substr(lpad(to_hex(at), 12, '0'), 9, 4) || '-7' || substr(gen_random_uuid()::text, 16)`;

/** FNV-1a of the user id mod 8: lib/analytics/rollups.ts rollupShard, in SQL (ids are ASCII: a character is its code unit). */
const SHARD_FUNCTION = `create or replace function pg_temp.seed_shard(id text) returns smallint language plpgsql immutable as $$
declare h bigint := 2166136261; i int;
begin
  for i in 1 .. length(id) loop
    h := ((h # ascii(substr(id, i, 1))) * 16777619) & 4294967295;
  end loop;
  return (h % 8)::smallint;
end $$`;

/** Seeds the app; the database must be migrated and the app id unused. */
export async function seed(db: SeedSql, options: SeedOptions): Promise<SeedResult> {
  const { appId, players: P, events: E, days } = options;
  const log = options.log ?? (() => undefined);
  if (!/^[a-z0-9][a-z0-9_-]{0,62}$/.test(appId)) throw new Error(`app id ${appId}: lower-case letters, digits, - and _`);
  if (!Number.isInteger(P) || P < 1 || !Number.isInteger(E) || E < P) throw new Error('--players ≥ 1 and --events ≥ --players (every player sends at least one event)');
  if (!Number.isInteger(days) || days < 1) throw new Error('--days ≥ 1');
  const end = options.end ?? Math.floor(Date.now() / 60_000) * 60_000 - 60_000;
  const start = end - days * DAY + 60_000;
  const M = model(start, end);
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  const used = await db.query('select 1 from apps where id = $1 union all select 1 from events where app_id = $1 limit 1', [appId]);
  if (used.rows.length > 0) throw new Error(`app ${appId} already exists (or has events): seed another app id, or drop it first`);

  // The planner's estimates of generate_series are far off; JIT-compiling each statement cost more than running it.
  await db.query('set jit = off');
  await db.query(SHARD_FUNCTION);
  await db.query(
    `insert into apps (id, name, secret_hash, webhook_secret, created_at, secret_rotated_at)
     values ($1, $2, encode(sha256(convert_to(gen_random_uuid()::text, 'UTF8')), 'hex'), encode(sha256(convert_to(gen_random_uuid()::text, 'UTF8')), 'hex'), $3, $3)`,
    [appId, `Seed ${appId}`, start - DAY],
  );
  for (const [n, input] of seedCatalog().missions.entries()) {
    // As the admin API stores a mission: the contract's parse, with its defaults (the window).
    const m = missionSchema.parse(input);
    await db.query(`insert into missions (app_id, id, title, description, criteria, reward, created_at, updated_at) values ($1, $2, $3, '', $4, $5, $6, $6)`, [
      appId,
      m.id,
      m.title,
      JSON.stringify(m.criteria),
      JSON.stringify(m.reward),
      start - DAY + n,
    ]);
  }

  // The players: number, id, events, time offset (0 … 999 ‰ of one event's spacing), rollup shard.
  const R = Math.max(1, Math.round(P * REGULAR_PLAYERS));
  const regular = Math.round(E * REGULAR_EVENTS);
  const even = E - regular;
  await db.query('drop table if exists pg_temp.seed_players');
  await db.query('create temporary table seed_players (u int primary key, user_id text not null, n int not null, f int not null, shard smallint not null)');
  await db.query(
    `insert into seed_players (u, user_id, n, f, shard)
     select u, ${playerIdSql('u')},
       ${Math.floor(even / P)} + case when u < ${even % P} then 1 else 0 end
         + case when u < ${R} then ${Math.floor(regular / R)} + case when u < ${regular % R} then 1 else 0 end else 0 end,
       ((u::bigint * 40503) % 1000)::int, pg_temp.seed_shard(${playerIdSql('u')})
     from generate_series(0, ${P - 1}) u`,
  );
  await db.query('create index on seed_players (user_id)');
  await db.query('analyze seed_players');
  log(`players: ${P.toLocaleString('en')} (${R.toLocaleString('en')} regulars) in ${seconds().toFixed(1)} s`);

  // Events, one statement per day of the period, in time order (as ingestion writes them: a
  // player's events are spread over the table), with their `event` rollups (the rows just
  // inserted, per minute, name and shard). Event k of player p is in the day of its time; the
  // k range asked of generate_series is a little wider than the day's and the time filters.
  const outcome = `case k % 4 ${NAMES.map(
    (_, j) => `when ${j} then jsonb_build_array(${SEED_MISSIONS.filter((m) => m.name === j).map((m) => verdictSql(m, M)).join(', ')})`,
  ).join(' ')} end`;
  // One partition per seeded day (from the first day's to the last day's), before the first insert.
  const partitions = await ensureEventPartitions(partitionDb(db), start, (Math.floor((end - 1) / DAY) - Math.floor(start / DAY)));
  if (partitions.length > 0) log(`event partitions created: ${partitions.length} (${partitions[0]} … ${partitions.at(-1)})`);
  const span = end - start;
  const eventStarted = performance.now();
  let inserted = 0;
  for (let day = 0; day < days; day++) {
    const from = start + day * DAY;
    const to = Math.min(end, from + DAY);
    const result = await db.query(
      `with x as (
         select p.user_id, ${M.ts('k')} as at,
           (array[${NAMES.map(lit).join(', ')}])[k % 4 + 1] as name, ${payloadSql()} as payload, ${outcome} as outcome
         from seed_players p,
           generate_series(greatest(0, ${from - start}::bigint * p.n / ${span} - 1)::int, least(p.n - 1, ${to - start}::bigint * p.n / ${span} + 1)::int) k
         where ${M.ts('k')} >= ${from}::bigint and ${M.ts('k')} < ${to}::bigint
       ),
       e as (
         insert into events (id, app_id, user_id, name, payload, timestamp, idempotency_key, source, received_at, outcome)
         select ${EVENT_ID_SQL}, $1, user_id, name, payload, at, null, 'api', at, outcome from x order by at, user_id
         returning user_id, name, received_at
       ),
       r as (
         insert into analytics_rollups (app_id, bucket_start, kind, key, shard, count, amount)
         select $1, e.received_at - e.received_at % 60000, 'event', e.name, p.shard, count(*), 0
         from e join seed_players p on p.user_id = e.user_id
         group by 2, 4, 5
         returning 1
       )
       select (select count(*) from e)::int as events, (select count(*) from r)::int as rollups`,
      [appId],
    );
    inserted += (result.rows[0] as { events: number }).events;
    const s = (performance.now() - eventStarted) / 1000;
    log(
      `events: day ${day + 1} / ${days}, ${inserted.toLocaleString('en')} / ${E.toLocaleString('en')} (${((inserted / E) * 100).toFixed(0)} %), ` +
        `${Math.round(inserted / Math.max(s, 0.001)).toLocaleString('en')} events/s`,
    );
  }
  if (inserted !== E) throw new Error(`seed: ${inserted} events written, ${E} meant (a bug of the seed's model)`);
  const eventSeconds = (performance.now() - eventStarted) / 1000;

  // Progress: one row per (player, mission) with a counted event.
  for (const m of SEED_MISSIONS) {
    const c = M.total(m);
    const lastCounted = m.ranked ? `8 * (${c} - 1) + ${m.name}` : `4 * (${c} - 1) + ${m.name}`;
    await db.query(
      `insert into progress (app_id, user_id, mission_id, status, current_count, target_count, window_start, cycle, updated_at, state)
       select $1, p.user_id, $2,
         case when ${M.claimed(m)} then 'claimed' when ${c} >= ${m.count} then 'completed' else 'active' end,
         least(${c}, ${m.count}), ${m.count}, 0, 1,
         case when ${M.claimed(m)} then ${M.claimAt(m)} when ${c} >= ${m.count} then ${M.ts(String(completingK(m)))} else ${M.ts(lastCounted)} end, null
       from seed_players p where ${c} >= 1`,
      [appId, m.id],
    );
  }
  log(`progress in ${seconds().toFixed(1)} s`);

  // The ledger (claims in time order), then the balances it adds up to.
  const rewards = SEED_MISSIONS.map((m) => {
    const r = m.reward;
    const values = [
      lit(m.id),
      lit(r.kind),
      r.kind === 'currency' ? lit(r.currency) : 'null',
      r.kind === 'currency' ? String(r.amount) : 'null',
      r.kind === 'item' ? lit(r.itemId) : 'null',
      r.kind === 'item' ? String(r.quantity) : 'null',
      r.kind === 'badge' ? lit(r.badgeId) : 'null',
    ];
    return `(${values.join(', ')})`;
  }).join(', ');
  await db.query(
    `insert into ledger (app_id, user_id, grant_key, kind, currency, amount, item_id, quantity, badge_id, mission_id, balance_after, created_at)
     select $1, pr.user_id, 'mission:' || pr.mission_id || ':cycle:1', r.kind, r.currency, r.amount, r.item_id, r.quantity, r.badge_id, pr.mission_id,
       case when r.currency is not null then sum(r.amount) over (partition by pr.user_id, r.currency order by pr.updated_at, pr.mission_id) end,
       pr.updated_at
     from progress pr
     join (values ${rewards}) as r(mission_id, kind, currency, amount, item_id, quantity, badge_id) on r.mission_id = pr.mission_id
     where pr.app_id = $1 and pr.status = 'claimed'
     order by pr.updated_at, pr.user_id, pr.mission_id`,
    [appId],
  );
  await db.query(
    `insert into balances (app_id, user_id, currency, amount, updated_at)
     select $1, user_id, currency, sum(amount), max(created_at) from ledger where app_id = $1 and currency is not null group by user_id, currency`,
    [appId],
  );
  log(`ledger and balances in ${seconds().toFixed(1)} s`);

  // Change counters: every event that changed progress, and every claim. For this catalog the
  // events of a name that change a mission are its first `cap` (the latest completing occurrence).
  const caps = NAMES.map((_, j) => Math.max(...SEED_MISSIONS.filter((m) => m.name === j).map((m) => Math.floor(completingK(m) / 4) + 1)));
  const changes = NAMES.map((_, j) => `least(${M.occ(j)}, ${caps[j]})`);
  await db.query(
    `insert into user_sequences (app_id, user_id, seq, changed_at)
     select $1, p.user_id, ${changes.join(' + ')} + coalesce(cl.claims, 0),
       greatest(${M.ts(`greatest(${changes.map((c, j) => `case when ${c} > 0 then 4 * (${c} - 1) + ${j} end`).join(', ')})`)}, cl.last_claim)
     from seed_players p
     left join (select user_id, count(*)::int as claims, max(updated_at) as last_claim from progress where app_id = $1 and status = 'claimed' group by user_id) cl
       on cl.user_id = p.user_id`,
    [appId],
  );
  // The support desk's search rows (first and last seen, events).
  await db.query(
    `insert into app_users (app_id, user_id, first_seen_at, last_seen_at, events, attributes)
     select $1, p.user_id, ${M.ts('0')}, ${M.ts('p.n - 1')}, p.n, '{}'::jsonb from seed_players p`,
    [appId],
  );
  log(`change counters and player rows in ${seconds().toFixed(1)} s`);

  // Rollups of completions (the completing event's minute), claims and currency granted (the claim's minute).
  const completions = SEED_MISSIONS.map(
    (m) => `select ${M.ts(String(completingK(m)))} as at, ${lit(m.id)} as key, p.shard from seed_players p where ${M.total(m)} >= ${m.count}`,
  ).join(' union all ');
  await db.query(
    `insert into analytics_rollups (app_id, bucket_start, kind, key, shard, count, amount)
     select $1, at - at % 60000, 'completion', key, shard, count(*), 0 from (${completions}) c group by 2, 4, 5`,
    [appId],
  );
  await db.query(
    `insert into analytics_rollups (app_id, bucket_start, kind, key, shard, count, amount)
     select $1, bucket, kind, key, shard, sum(count), sum(amount) from (
       select l.created_at - l.created_at % 60000 as bucket, 'claim' as kind, l.mission_id as key, p.shard, 1 as count, 0 as amount
       from ledger l join seed_players p on p.user_id = l.user_id where l.app_id = $1
       union all
       select l.created_at - l.created_at % 60000, 'currency', l.currency, p.shard, 1, l.amount
       from ledger l join seed_players p on p.user_id = l.user_id where l.app_id = $1 and l.currency is not null
     ) x group by bucket, kind, key, shard`,
    [appId],
  );
  log(`rollups in ${seconds().toFixed(1)} s; analyze…`);
  await db.query('drop table seed_players');
  for (const table of ['events', 'progress', 'ledger', 'balances', 'user_sequences', 'app_users', 'analytics_rollups']) await db.query(`analyze ${table}`);

  const rows: Record<string, number> = {};
  for (const table of ['events', 'progress', 'ledger', 'balances', 'user_sequences', 'app_users', 'analytics_rollups']) {
    rows[table] = Number((await db.query(`select count(*)::bigint as n from ${table} where app_id = $1`, [appId])).rows.map((r) => (r as { n: string }).n)[0]);
  }
  return { appId, players: P, events: inserted, start, end, seconds: seconds(), eventSeconds, rows, partitions };
}

/** One check of checkSeed: its name and how many rows disagree (0: consistent). */
export interface SeedCheck {
  check: string;
  mismatches: number;
}

/**
 * The seeded app's rows checked against its stored events, in SQL (each
 * query counts the rows that disagree): progress against the events each
 * mission counts, the events' verdicts against progress, change counters
 * against verdicts and claims, the ledger against claimed progress, balances
 * against the ledger, player rows and every rollup against what they count.
 * Holds for any app written by the service with the seed's catalog too.
 */
export async function checkSeed(db: SeedSql, appId: string): Promise<SeedCheck[]> {
  await db.query('set jit = off');
  await db.query(SHARD_FUNCTION);
  const counted = SEED_MISSIONS.map(
    (m) => `count(*) filter (where name = ${lit(NAMES[m.name])}${m.ranked ? ` and payload->>'mode' = 'ranked'` : ''}) as ${m.id}`,
  ).join(', ');
  const perMission = SEED_MISSIONS.map((m) => `(${lit(m.id)}, c.${m.id}, ${m.count})`).join(', ');
  const checks: Array<[string, string]> = [
    [
      'progress = the events each mission counts (count capped at the target; done at the target)',
      `with c as (select user_id, ${counted} from events where app_id = $1 group by user_id),
         expected as (select c.user_id, m.mission_id, least(m.c, m.target) as cur, m.c >= m.target as done
                      from c cross join lateral (values ${perMission}) as m(mission_id, c, target) where m.c > 0),
         stored as (select user_id, mission_id, current_count, status <> 'active' as done from progress where app_id = $1)
       select count(*)::int as n from expected e full join stored s on s.user_id = e.user_id and s.mission_id = e.mission_id
       where e.user_id is null or s.user_id is null or s.current_count <> e.cur or s.done <> e.done`,
    ],
    [
      "events' verdicts: counted events per (player, mission) = progress",
      `with v as (select e.user_id, o->>'missionId' as mission_id, count(*) as n
                  from events e, jsonb_array_elements(e.outcome) o where e.app_id = $1 and (o->>'counted')::boolean group by 1, 2)
       select count(*)::int as n from v full join (select user_id, mission_id, current_count from progress where app_id = $1) p
         on p.user_id = v.user_id and p.mission_id = v.mission_id
       where v.user_id is null or p.user_id is null or v.n <> p.current_count`,
    ],
    [
      'change counters = events that changed progress + claims',
      `with ev as (select user_id, count(*) filter (where outcome @> '[{"counted": true}]') as changed from events where app_id = $1 group by user_id),
         cl as (select user_id, count(*) as claims from progress where app_id = $1 and status = 'claimed' group by user_id),
         expected as (select ev.user_id, ev.changed + coalesce(cl.claims, 0) as seq from ev left join cl on cl.user_id = ev.user_id where ev.changed + coalesce(cl.claims, 0) > 0)
       select count(*)::int as n from expected e full join (select user_id, seq from user_sequences where app_id = $1) s on s.user_id = e.user_id
       where e.user_id is null or s.user_id is null or e.seq <> s.seq`,
    ],
    [
      'ledger = one grant per claimed mission (grant key, time)',
      `select count(*)::int as n from (select user_id, mission_id, updated_at from progress where app_id = $1 and status = 'claimed') p
       full join (select user_id, mission_id, grant_key, created_at from ledger where app_id = $1 and mission_id is not null) l
         on l.user_id = p.user_id and l.mission_id = p.mission_id
       where p.user_id is null or l.user_id is null or l.grant_key <> 'mission:' || p.mission_id || ':cycle:1' or l.created_at <> p.updated_at`,
    ],
    [
      'balances = the ledger summed; the latest balance_after = the balance',
      `with l as (select user_id, currency, sum(amount) as total, (array_agg(balance_after order by created_at desc, id desc))[1] as last from ledger
                  where app_id = $1 and currency is not null group by user_id, currency)
       select count(*)::int as n from l full join (select user_id, currency, amount from balances where app_id = $1) b
         on b.user_id = l.user_id and b.currency = l.currency
       where l.user_id is null or b.user_id is null or b.amount <> l.total or b.amount <> l.last`,
    ],
    [
      "player rows (app_users) = each player's events (count, first, last)",
      `with e as (select user_id, count(*) as n, min(received_at) as first, max(received_at) as last from events where app_id = $1 group by user_id)
       select count(*)::int as n from e full join (select * from app_users where app_id = $1) u on u.user_id = e.user_id
       where e.user_id is null or u.user_id is null or u.events <> e.n or u.first_seen_at <> e.first or u.last_seen_at <> e.last`,
    ],
    [
      'event rollups = events per (minute, name, shard)',
      `with s as (select user_id, pg_temp.seed_shard(user_id) as shard from app_users where app_id = $1),
         e as (select received_at - received_at % 60000 as bucket, name, s.shard, count(*) as n from events e join s on s.user_id = e.user_id where e.app_id = $1 group by 1, 2, 3),
         r as (select bucket_start as bucket, key as name, shard, count as n from analytics_rollups where app_id = $1 and kind = 'event')
       select count(*)::int as n from e full join r on r.bucket = e.bucket and r.name = e.name and r.shard = e.shard
       where e.n is null or r.n is null or e.n <> r.n`,
    ],
    [
      'completion, claim and currency rollups = completed missions, claims and currency granted',
      `with r as (select kind, key, sum(count) as n, sum(amount) as amount from analytics_rollups where app_id = $1 and kind in ('completion', 'claim', 'currency') group by 1, 2),
         x as (select 'completion' as kind, mission_id as key, count(*) as n, 0 as amount from progress where app_id = $1 and status <> 'active' group by mission_id
               union all select 'claim', mission_id, count(*), 0 from ledger where app_id = $1 and mission_id is not null group by mission_id
               union all select 'currency', currency, count(*), sum(amount) from ledger where app_id = $1 and currency is not null group by currency)
       select count(*)::int as n from r full join x on x.kind = r.kind and x.key = r.key
       where r.kind is null or x.kind is null or r.n <> x.n or r.amount <> x.amount`,
    ],
  ];
  const out: SeedCheck[] = [];
  for (const [check, query] of checks) out.push({ check, mismatches: Number((await db.query(query, [appId])).rows.map((r) => (r as { n: number }).n)[0]) });
  return out;
}
