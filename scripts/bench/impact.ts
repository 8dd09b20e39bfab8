// `npm run bench:impact [-- --events 1000000] [-- --users 200000] [-- --seed spread|skewed] [-- --page 5000] [-- --runs 3] [-- --keep] [-- --not-started]`
// (a profile: `node --cpu-prof --import tsx scripts/bench/impact.ts …`, then scripts/bench/profile-summary.mjs --marker replayImpact)
//
// The what-if impact replay (lib/services/impact/replay-impact.ts) over N
// stored events: seeds N events of one app in the last 30 days with one SQL
// statement (generate_series), then times replayImpact (live vs draft
// catalog: 20 missions, 6 of them added, changed or removed, among them a
// filtered one, a daily one and one behind a prerequisite) and prints events
// replayed per second, with the process's CPU time (process.cpuUsage, less
// affected by other load on the machine) and the load average. The seed:
// `spread` (default) gives every event a user, a name and a time drawn
// independently (hashes of its number), so 1M events over 200k users are
// ~5 events per user of mixed names; `skewed` is the first seed (user
// g % users and name (7g) % 5: every user sends one name only, so each
// mission sees a fifth of the users). DATABASE_URL picks PostgreSQL (give it a database of
// its own or one you may write to); without it the embedded PGlite in a
// fresh data directory. The seeded rows are deleted at the end unless --keep.
// docs/engineering/benchmarks.md records the figures; no test asserts a time.
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const EVENTS = Number(option('events', '1000000'));
const USERS = Number(option('users', '200000'));
const SEED = option('seed', 'spread');
if (SEED !== 'spread' && SEED !== 'skewed') throw new Error('--seed spread|skewed');
const PAGE = Number(option('page', '5000'));
const RUNS = Number(option('runs', '3'));
const KEEP = argv.includes('--keep');
// --not-started: 'play' sits in a campaign that starts tomorrow on both sides, so the replay also runs its as-if-live sides (issue 39 §5).
const NOT_STARTED = argv.includes('--not-started');

process.env.QUESTLINE_QUIET = '1';
// Seeding a million rows takes longer than a request's query bound.
process.env.DATABASE_QUERY_TIMEOUT_MS ??= '600000';
process.env.JWT_SECRET ??= 'bench-impact-jwt-secret-0123456789abcdef';
process.env.ADMIN_API_KEY ??= 'bench-admin-key-0123456789abcdef';
if (!process.env.DATABASE_URL) process.env.QUESTLINE_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'questline-bench-impact-'));

const DAY = 86_400_000;

async function main() {
  const [{ getDb, getDbDriver, closeDb }, { buildCatalog }, { missionSchema }, { campaignSchema }, { logger }, { replayImpact }, { sql }] = await Promise.all([
    import('@/db/client'),
    import('@/lib/catalog/catalog'),
    import('@/lib/contract/mission'),
    import('@/lib/contract/campaign'),
    import('@/lib/log'),
    import('@/lib/services/impact/replay-impact'),
    import('drizzle-orm'),
  ]);
  const db = await getDb();
  const driver = await getDbDriver();
  const appId = `bench-impact-${SEED}-${EVENTS}-${USERS}`;
  const now = Date.now();
  // Every name is counted by a changed mission, so all N events are replayed.
  const names = ['match_won', 'match_played', 'login', 'chat', 'level_up'];

  const have = Number(((await db.execute(sql`select count(*)::int as n from events where app_id = ${appId}`)) as unknown as { rows: Array<{ n: number }> }).rows[0].n);
  if (have !== EVENTS) {
    await db.execute(sql`delete from events where app_id = ${appId}`);
    const t0 = performance.now();
    // spread: user, name and time of each event drawn independently (multiplicative hashes of g);
    // skewed: user g % users and name (7g) % 5, so every user sends one name only.
    // Timestamps spread over the last 29.9 days; a third of the events ranked.
    const user = SEED === 'spread' ? sql`((g::bigint * 2246822519) % ${USERS})` : sql`(g % ${USERS})`;
    const name = SEED === 'spread' ? sql`((g::bigint * 3266489917) / 7 % ${names.length})` : sql`((g * 7) % ${names.length})`;
    await db.execute(sql`insert into events (id, app_id, user_id, name, payload, timestamp, received_at, source)
      select ${`evt_bi_${SEED}_${USERS}_`} || g, ${appId}, 'user-' || lpad(${user}::text, 7, '0'),
        (${`{${names.join(',')}}`}::text[])[1 + ${name}],
        case when g % 3 = 0 then '{"mode":"ranked","score":12}'::jsonb else '{"mode":"casual","score":3}'::jsonb end,
        ${now} - ((g::bigint * 2654435761) % ${Math.floor(29.9 * DAY)}), ${now}, 'api'
      from generate_series(1, ${EVENTS}) as g`);
    await db.execute(sql`analyze events`);
    console.log(`seeded ${EVENTS} events of ${USERS} users (${SEED}) on ${driver} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } else console.log(`reusing ${EVENTS} seeded events on ${driver}`);

  const m = (input: Record<string, unknown>) => missionSchema.parse({ title: String(input.id), ...input });
  const gems = (amount: number) => ({ kind: 'currency', currency: 'gems', amount });
  const unchanged = Array.from({ length: 14 }, (_, i) =>
    m({ id: `same-${i}`, criteria: { eventName: names[i % names.length], count: 3 + i }, reward: gems(i + 1) }),
  );
  const inCampaign = NOT_STARTED ? { campaignId: 'later' } : {};
  const campaigns = NOT_STARTED ? [campaignSchema.parse({ id: 'later', title: 'Later', startAt: now + DAY, endAt: now + 8 * DAY })] : [];
  const live = buildCatalog(appId, [
    ...unchanged,
    m({ id: 'ace', criteria: { eventName: 'match_won', count: 2, filter: { mode: 'ranked' } }, reward: gems(50) }),
    m({ id: 'play', criteria: { eventName: 'match_played', count: 5 }, reward: gems(10), ...inCampaign }),
    m({ id: 'daily', criteria: { eventName: 'login', count: 1, window: 'daily' }, reward: gems(3) }),
    m({ id: 'old', criteria: { eventName: 'chat', count: 10 }, reward: gems(5) }),
    m({ id: 'pro', criteria: { eventName: 'match_won', count: 4 }, reward: gems(40), prerequisites: ['ace'] }),
  ], campaigns);
  const draft = buildCatalog(appId, [
    ...unchanged,
    m({ id: 'ace', criteria: { eventName: 'match_won', count: 3, filter: { mode: 'ranked' } }, reward: gems(50) }),
    m({ id: 'play', criteria: { eventName: 'match_played', count: 3 }, reward: gems(10), ...inCampaign }),
    m({ id: 'daily', criteria: { eventName: 'login', count: 1, window: 'daily' }, reward: gems(4) }),
    m({ id: 'pro', criteria: { eventName: 'match_won', count: 4 }, reward: gems(60), prerequisites: ['ace'] }),
    m({ id: 'new', criteria: { eventName: 'level_up', count: 2, window: 'weekly' }, reward: gems(8) }),
  ], campaigns);
  const log = logger();
  const ctx = {
    appId,
    actor: { kind: 'system' as const, id: 'bench', role: null },
    now: () => now + 1,
    requestId: 'bench-impact',
    deps: { db, log } as never,
  };
  const timings: number[] = [];
  let report: Awaited<ReturnType<typeof replayImpact>> | null = null;
  const users = Number(((await db.execute(sql`select count(distinct user_id)::int as n from events where app_id = ${appId}`)) as unknown as { rows: Array<{ n: number }> }).rows[0].n);
  console.log(`${users} distinct users, ${(EVENTS / users).toFixed(1)} events per user`);
  for (let run = 0; run < RUNS; run++) {
    const load = loadavg()[0];
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    report = await replayImpact({ ctx, input: { live, draft, days: 30, pageSize: PAGE } });
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    timings.push(ms);
    console.log(
      `run ${run + 1}: ${report.events} events replayed in ${(ms / 1000).toFixed(2)} s (${Math.round(report.events / (ms / 1000)).toLocaleString('en')} events/s), ` +
        `process CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s (user ${(cpu.user / 1e6).toFixed(2)}), load average ${load.toFixed(2)} → ${loadavg()[0].toFixed(2)}`,
    );
  }
  const best = Math.min(...timings);
  const median = [...timings].sort((a, b) => a - b)[Math.floor(timings.length / 2)];
  console.log(`driver ${driver}, page ${PAGE}: median ${(median / 1000).toFixed(2)} s, best ${(best / 1000).toFixed(2)} s for ${report!.events} events`);
  for (const row of report!.missions) {
    console.log(`  ${row.missionId.padEnd(6)} ${row.change.padEnd(8)} completed ${row.live.completed} → ${row.draft.completed}, in progress ${row.live.inProgress} → ${row.draft.inProgress}, gems ${row.payout.live.gems ?? 0} → ${row.payout.draft.gems ?? 0}`);
    const a = row.asIfLive;
    if (a) console.log(`         as if live: completed ${a.live.completed} → ${a.draft.completed}, in progress ${a.live.inProgress} → ${a.draft.inProgress}, gems ${a.payout.live.gems ?? 0} → ${a.payout.draft.gems ?? 0}`);
  }
  if (!KEEP) await db.execute(sql`delete from events where app_id = ${appId}`);
  await closeDb();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
