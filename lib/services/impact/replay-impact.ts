// What-if impact over real events (issue 18 §2): the app's stored events of
// the last `days` replayed through THE criteria engine (explainEvent, with
// missionLock and claimedMissionIds exactly as ingestion calls them in
// lib/events/recording.ts), once with the live catalog and once with the
// draft, from empty progress, for the missions the draft adds, changes or
// removes. Read-only and streamed: the events are read in keyset pages
// of whole users ordered by (user, time), each page its own short statement
// with no transaction, so ingestion never waits for more than one page (on the
// embedded database's single connection, events interleave between pages),
// and only one user's records are held at a time.
//
// The replay's rules (docs/api.md, "Draft impact"):
// - an event is judged at its own timestamp (`now` = the event's timestamp),
//   so windows, campaign start/end, expiry and locks apply as they would
//   have when the event happened;
// - every completion is taken as claimed at once (the payout "if claimed"):
//   a recurring mission then starts its next cycle in the next window, and a
//   prerequisite completed unlocks its dependents from the next event on;
// - the missions replayed are the changed ones and (transitively) their
//   prerequisites, so locks come out as the engine would decide them; events
//   whose name none of those missions counts are not read at all.
// - a mission not live yet at `to` (issue 39 §5: a new mission, or one whose
//   campaign starts after `to`) is also evaluated as if it had been live over
//   the whole period: its side is replayed a second time with every campaign
//   that has not started taken as started at `from` (`asIfLive`); only when
//   such a mission is reported, so the usual replay pays nothing for it;
// - the payout is also given at the observed claim rate: claims ÷ completions
//   of the mission in the period from the dashboard's per-minute counters
//   (lib/analytics/rollups.ts), or of the whole app when the mission has none.
import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { claimedMissionIds, evaluateEvent, missionLock } from '@/lib/missions/engine';
import type { Catalog } from '@/lib/catalog/catalog';
import type { Campaign, EngineEvent, Mission, ProgressRecord } from '@/lib/missions/schema';
import { analyticsRollups } from '@/db/schema';
import { bucketOf } from '@/lib/analytics/rollups';
import { runPrepared, textArray, type Prepared } from '@/db/prepared';
import { AppError } from '@/lib/errors';
import type { ServiceContext } from '../context';
import { rewardsOf } from '@/lib/contract/mission';

const DAY_MS = 86_400_000;
/** Rows per page: small enough that one page never holds the embedded database's single connection for long. */
const DEFAULT_PAGE_SIZE = 5_000;

type MissionChange = 'added' | 'changed' | 'removed';

interface ImpactCounts {
  /** Users with at least one counted event who never reached the target in the period. */
  inProgress: number;
  /** Distinct users who reached the target at least once in the period. */
  completed: number;
}

type Payout = Record<string, number>;
/** Why a side's mission was not live at `to`; null: it was (or it is absent from that side). */
type NotLive = 'new_mission' | 'campaign_not_started' | null;

interface ClaimRate {
  /** claims ÷ completions, at most 1; null when basis is none. */
  rate: number | null;
  basis: 'mission' | 'app' | 'none';
  claims: number;
  completions: number;
}

interface MissionImpact {
  missionId: string;
  change: MissionChange;
  live: ImpactCounts;
  draft: ImpactCounts;
  /** Currency the completions would grant if claimed (every cycle of a recurring mission), per currency. */
  payout: { live: Payout; draft: Payout };
  notLive: { live: NotLive; draft: NotLive };
  /** The figures as if the sides not live had been live over the whole period; null when both are live. */
  asIfLive: { live: ImpactCounts; draft: ImpactCounts; payout: { live: Payout; draft: Payout }; payoutAtClaimRate: { live: Payout; draft: Payout } | null } | null;
  claimRate: ClaimRate;
  /** `payout` × the claim rate, rounded; null when no rate was observed. */
  payoutAtClaimRate: { live: Payout; draft: Payout } | null;
}

export interface ImpactReport {
  /** Start of the period (Unix ms, inclusive): `to` minus `days` days. */
  from: number;
  /** End of the period (Unix ms, exclusive): the service clock when the replay started. */
  to: number;
  /** Stored events of the period the replay read (those whose name a replayed mission counts). */
  events: number;
  missions: MissionImpact[];
}

export interface ReplayImpactInput {
  /** 1 to 90; default 30. */
  days?: number;
  live: Catalog;
  draft: Catalog;
  /** Rows per page (tests and the benchmark); default DEFAULT_PAGE_SIZE. */
  pageSize?: number;
}

/** A JSON text with object keys sorted: two definitions are the same when their canonical texts are. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}

/** What of a campaign decides whether its missions count: its bounds and archived flag (not its title, theme or mission list). */
function campaignRules(campaign: Campaign | undefined): string {
  return campaign ? canonical({ startAt: campaign.startAt, endAt: campaign.endAt, archived: campaign.archived }) : 'none';
}

/**
 * The missions the draft adds, changes or removes, by id. A mission is
 * changed when its definition differs or the rules of its campaign (start,
 * end, archived) do; archived on one side only counts as changed, archived
 * on both is no mission at all.
 */
function missionChanges(live: Catalog, draft: Catalog): Array<{ missionId: string; change: MissionChange }> {
  const ids = new Set([...live.missions.keys(), ...draft.missions.keys()]);
  const changes: Array<{ missionId: string; change: MissionChange }> = [];
  for (const id of [...ids].sort()) {
    const before = live.missions.get(id);
    const after = draft.missions.get(id);
    const liveActive = before !== undefined && !before.archived;
    const draftActive = after !== undefined && !after.archived;
    if (!liveActive && !draftActive) continue;
    if (before === undefined) changes.push({ missionId: id, change: 'added' });
    else if (after === undefined) changes.push({ missionId: id, change: 'removed' });
    else {
      const sameMission = canonical(before) === canonical(after);
      const sameCampaign =
        campaignRules(before.campaignId ? live.campaigns.get(before.campaignId) : undefined) ===
        campaignRules(after.campaignId ? draft.campaigns.get(after.campaignId) : undefined);
      if (!sameMission || !sameCampaign) changes.push({ missionId: id, change: 'changed' });
    }
  }
  return changes;
}

/** Whether the mission's campaign (in that catalog) has not started at `at`. */
function campaignNotStarted(catalog: Catalog, mission: Mission, at: number): boolean {
  const campaign = mission.campaignId ? catalog.campaigns.get(mission.campaignId) : undefined;
  return campaign !== undefined && !campaign.archived && campaign.startAt > at;
}

/** The catalog with every campaign that has not started at `to` taken as started at `from` (its end is after `to` already). */
function startedAt(catalog: Catalog, from: number, to: number): Catalog {
  const campaigns = new Map<string, Campaign>();
  for (const [id, campaign] of catalog.campaigns) campaigns.set(id, !campaign.archived && campaign.startAt > to ? { ...campaign, startAt: from } : campaign);
  return { ...catalog, campaigns };
}

/** One catalog's side of the replay: the missions replayed by event name, and the tallies. */
interface Side {
  catalog: Catalog;
  /** The replayed missions (changed ones and their prerequisites) with each event name, in the catalog's order. */
  byEvent: Map<string, Mission[]>;
  /** Event names with a replayed mission that has prerequisites (only those need the user's claimed set). */
  needsClaimed: Set<string>;
  reported: Set<string>;
  counts: Map<string, ImpactCounts>;
  payout: Map<string, Record<string, number>>;
  /** The current user's records and, per reported mission, whether they counted / completed. */
  records: Map<string, ProgressRecord>;
  touched: Set<string>;
  completed: Set<string>;
}

function sideOf(catalog: Catalog, reportedIds: string[]): Side {
  const replayed = new Set<string>();
  const visit = (id: string) => {
    if (replayed.has(id)) return;
    const mission = catalog.missions.get(id);
    if (!mission) return;
    replayed.add(id);
    mission.prerequisites.forEach(visit);
  };
  reportedIds.forEach(visit);
  const byEvent = new Map<string, Mission[]>();
  // catalog.byEvent: the non-archived missions in the order ingestion judges them.
  for (const [name, missions] of catalog.byEvent) {
    const mine = missions.filter((m) => replayed.has(m.id));
    if (mine.length > 0) byEvent.set(name, mine);
  }
  const reported = new Set(reportedIds.filter((id) => catalog.missions.has(id)));
  const needsClaimed = new Set([...byEvent].filter(([, missions]) => missions.some((m) => m.prerequisites.length > 0)).map(([name]) => name));
  return {
    catalog,
    byEvent,
    needsClaimed,
    reported,
    counts: new Map(reportedIds.map((id) => [id, { inProgress: 0, completed: 0 }])),
    payout: new Map(reportedIds.map((id) => [id, {}])),
    records: new Map(),
    touched: new Set(),
    completed: new Set(),
  };
}

/** No claimed mission: what missionLock reads for a mission without prerequisites (it never looks). */
const NONE_CLAIMED: ReadonlySet<string> = new Set();

/**
 * One event on one side, as ingestion's evaluate() judges it (missionLock,
 * then the engine's rules: evaluateEvent is explainEvent without building the
 * verdict), then every completion claimed at once.
 */
function judge(side: Side, event: EngineEvent): void {
  const candidates = side.byEvent.get(event.name);
  if (!candidates) return;
  const now = event.timestamp;
  const { catalog, records } = side;
  // missionLock reads the claimed set only for a mission with prerequisites.
  const claimed = side.needsClaimed.has(event.name) ? claimedMissionIds(records.values()) : NONE_CLAIMED;
  for (const mission of candidates) {
    const campaign = mission.campaignId ? (catalog.campaigns.get(mission.campaignId) ?? null) : null;
    const lock = missionLock({ mission, campaign, claimedMissionIds: claimed, now });
    const evaluation = evaluateEvent({ mission, campaign, record: records.get(mission.id) ?? null, event, lock, now });
    if (!evaluation) continue;
    const record = evaluation.record;
    if (side.reported.has(mission.id)) side.touched.add(mission.id);
    if (evaluation.change === 'completed') {
      // Claimed at once: the payout counts every cycle, and a recurring mission restarts in its next window.
      records.set(mission.id, { ...record, status: 'claimed' });
      if (side.reported.has(mission.id)) {
        side.completed.add(mission.id);
        for (const reward of rewardsOf(mission)) {
          if (reward.kind !== 'currency') continue;
          const payout = side.payout.get(mission.id)!;
          payout[reward.currency] = (payout[reward.currency] ?? 0) + reward.amount;
        }
      }
    } else records.set(mission.id, record);
  }
}

/** The current user is done: add their outcome to the tallies and start the next user from empty progress. */
function closeUser(side: Side): void {
  for (const id of side.touched) {
    const counts = side.counts.get(id)!;
    if (side.completed.has(id)) counts.completed += 1;
    else counts.inProgress += 1;
  }
  side.records.clear();
  side.touched.clear();
  side.completed.clear();
}

// Whole users in (user, time) order, straight off events_user_idx (app_id,
// user_id, timestamp) with no sort: the page after `$2` (the last user read
// whole). A page that ends inside a user leaves that user to the next page.
const USERS_PAGE: Prepared = {
  name: 'ql_impact_users_page_v1',
  text: `select user_id, timestamp, id, name, payload from "events"
    where app_id = $1 and user_id > $2::text and timestamp >= $3::bigint and timestamp < $4::bigint and name = any($5::text[])
    order by user_id, timestamp limit $6::int`,
};

// One user with more events than a page holds, in keyset pages of (time, id) after ($3, $4).
const ONE_USER_PAGE: Prepared = {
  name: 'ql_impact_user_page_v1',
  text: `select user_id, timestamp, id, name, payload from "events"
    where app_id = $1 and user_id = $2::text and timestamp < $6::bigint and name = any($5::text[])
      and timestamp >= $3::bigint and (timestamp, id) > ($3::bigint, $4::text)
    order by timestamp, id limit $7::int`,
};

type Row = Record<string, unknown>;

/** Ties in time are replayed in id order, whatever order the index gave them. */
function byTimeThenId(a: Row, b: Row): number {
  const ta = Number(a.timestamp);
  const tb = Number(b.timestamp);
  if (ta !== tb) return ta - tb;
  const ia = a.id as string;
  const ib = b.id as string;
  return ia < ib ? -1 : ia > ib ? 1 : 0;
}

/** rows[i..j) (one user, in time order off the index) with ties in time put in id order; sorted only when a tie is out of order. */
function inTimeThenIdOrder(rows: Row[], i: number, j: number): Row[] {
  const mine = rows.slice(i, j);
  for (let k = 1; k < mine.length; k++) if (byTimeThenId(mine[k - 1], mine[k]) > 0) return mine.sort(byTimeThenId);
  return mine;
}

/**
 * The observed claim rate of each mission over [from, to): claims ÷
 * completions counted by the dashboard's per-minute rollups (a claim of the
 * period may be of a completion before it, so the ratio is capped at 1); a
 * mission with no completion in the period (a new one, one whose campaign has
 * not started) gets the rate of every mission of the app; with none in the
 * app either, no rate.
 */
async function claimRates(ctx: ServiceContext, missionIds: string[], from: number, to: number): Promise<Map<string, ClaimRate>> {
  const t = analyticsRollups;
  const rows = await ctx.deps.db
    .select({ kind: t.kind, key: t.key, n: sql<string>`sum(${t.count})` })
    .from(t)
    .where(and(eq(t.appId, ctx.appId), gte(t.bucketStart, bucketOf(from)), lt(t.bucketStart, to), inArray(t.kind, ['completion', 'claim'])))
    .groupBy(t.kind, t.key);
  const perMission = new Map<string, { claims: number; completions: number }>();
  const app = { claims: 0, completions: 0 };
  for (const row of rows) {
    const n = Number(row.n);
    const entry = perMission.get(row.key) ?? perMission.set(row.key, { claims: 0, completions: 0 }).get(row.key)!;
    if (row.kind === 'completion') {
      entry.completions += n;
      app.completions += n;
    } else {
      entry.claims += n;
      app.claims += n;
    }
  }
  const rateOf = (c: { claims: number; completions: number }) => Math.min(1, c.claims / c.completions);
  const appRate: ClaimRate = app.completions > 0 ? { rate: rateOf(app), basis: 'app', ...app } : { rate: null, basis: 'none', ...app };
  return new Map(
    missionIds.map((id) => {
      const mine = perMission.get(id);
      return [id, mine && mine.completions > 0 ? { rate: rateOf(mine), basis: 'mission', ...mine } : appRate];
    }),
  );
}

/** Each amount × rate, rounded to a whole number. */
const rated = (payout: Payout, rate: number): Payout => Object.fromEntries(Object.entries(payout).map(([currency, amount]) => [currency, Math.round(amount * rate)]));
const ratedBoth = (payout: { live: Payout; draft: Payout }, rate: number | null) => (rate === null ? null : { live: rated(payout.live, rate), draft: rated(payout.draft, rate) });

function payloadOf(value: unknown): Record<string, unknown> {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

export async function replayImpact({ ctx, input }: { ctx: ServiceContext; input: ReplayImpactInput }): Promise<ImpactReport> {
  const days = input.days ?? 30;
  if (!Number.isInteger(days) || days < 1 || days > 90) throw new AppError('validation_error', 'days must be a whole number from 1 to 90');
  const pageSize = input.pageSize ?? DEFAULT_PAGE_SIZE;
  const to = ctx.now();
  const from = to - days * DAY_MS;
  const changes = missionChanges(input.live, input.draft);
  const ids = changes.map((c) => c.missionId);
  // Not live at `to`: added by the draft, or in a campaign that has not started then.
  const notLive = new Map(
    changes.map(({ missionId, change }) => {
      const on = (catalog: Catalog): NotLive => {
        const mission = catalog.missions.get(missionId);
        if (!mission || mission.archived) return null;
        if (campaignNotStarted(catalog, mission, to)) return 'campaign_not_started';
        return catalog === input.draft && change === 'added' ? 'new_mission' : null;
      };
      return [missionId, { live: on(input.live), draft: on(input.draft) }];
    }),
  );
  // The as-if-live sides replay only the missions whose campaign has not started (a new mission's figures are its draft ones).
  const unstarted = (side: 'live' | 'draft') => ids.filter((id) => notLive.get(id)![side] === 'campaign_not_started');
  const asIfIds = { live: unstarted('live'), draft: unstarted('draft') };
  const sides = [
    sideOf(input.live, ids),
    sideOf(input.draft, ids),
    ...(asIfIds.live.length > 0 ? [sideOf(startedAt(input.live, from, to), asIfIds.live)] : []),
    ...(asIfIds.draft.length > 0 ? [sideOf(startedAt(input.draft, from, to), asIfIds.draft)] : []),
  ];
  const names = [...new Set(sides.flatMap((s) => [...s.byEvent.keys()]))];

  let events = 0;
  if (names.length > 0) {
    const nameList = textArray(names);
    const replay = (rows: Row[]) => {
      for (const row of rows) {
        const event: EngineEvent = { userId: row.user_id as string, name: row.name as string, payload: payloadOf(row.payload), timestamp: Number(row.timestamp) };
        for (const side of sides) judge(side, event);
      }
      events += rows.length;
    };
    const closeUsers = () => sides.forEach(closeUser);
    // The next page is asked for as soon as the current one arrived, so the
    // database reads it while this one is replayed (one statement in flight
    // at a time, as before; on the embedded database they still take turns).
    const page = (after: string) => {
      const next = runPrepared(ctx.deps.db, USERS_PAGE, [ctx.appId, after, from, to, nameList, pageSize]);
      next.catch(() => undefined); // awaited below; a failure while a page is replayed is not unhandled
      return next;
    };
    let pending = page('');
    for (;;) {
      const rows = await pending;
      if (rows.length === 0) break;
      const full = rows.length === pageSize;
      const lastUser = rows[rows.length - 1].user_id as string;
      if (full && rows[0].user_id === lastUser) {
        // One user fills the page: read them alone, page after page, in (time, id) order.
        let cursor = { timestamp: from - 1, id: '' };
        for (;;) {
          const mine = await runPrepared(ctx.deps.db, ONE_USER_PAGE, [ctx.appId, lastUser, cursor.timestamp, cursor.id, nameList, to, pageSize]);
          replay(mine);
          if (mine.length < pageSize) break;
          const end = mine[mine.length - 1];
          cursor = { timestamp: Number(end.timestamp), id: end.id as string };
        }
        closeUsers();
        pending = page(lastUser);
        continue;
      }
      // Whole users only: a full page's last user may go on in the next page, so it is read again there.
      let end = rows.length;
      if (full) while (rows[end - 1].user_id === lastUser) end--;
      if (full) pending = page(rows[end - 1].user_id as string);
      let i = 0;
      while (i < end) {
        const userId = rows[i].user_id as string;
        let j = i + 1;
        while (j < end && rows[j].user_id === userId) j++;
        replay(inTimeThenIdOrder(rows, i, j));
        closeUsers();
        i = j;
      }
      if (!full) break;
    }
  }

  const [live, draft] = sides;
  const liveAsIf = asIfIds.live.length > 0 ? sides[2] : live;
  const draftAsIf = asIfIds.draft.length > 0 ? sides[sides.length - 1] : draft;
  const rates = await claimRates(ctx, ids, from, to);
  return {
    from,
    to,
    events,
    missions: changes.map(({ missionId, change }) => {
      const payout = { live: live.payout.get(missionId)!, draft: draft.payout.get(missionId)! };
      const claimRate = rates.get(missionId)!;
      const why = notLive.get(missionId)!;
      let asIfLive: MissionImpact['asIfLive'] = null;
      if (why.live !== null || why.draft !== null) {
        // A side whose mission is live (or a new mission with no campaign to open) keeps its figures.
        const l = why.live === 'campaign_not_started' ? liveAsIf : live;
        const d = why.draft === 'campaign_not_started' ? draftAsIf : draft;
        const asIfPayout = { live: l.payout.get(missionId)!, draft: d.payout.get(missionId)! };
        asIfLive = { live: l.counts.get(missionId)!, draft: d.counts.get(missionId)!, payout: asIfPayout, payoutAtClaimRate: ratedBoth(asIfPayout, claimRate.rate) };
      }
      return {
        missionId,
        change,
        live: live.counts.get(missionId)!,
        draft: draft.counts.get(missionId)!,
        payout,
        notLive: why,
        asIfLive,
        claimRate,
        payoutAtClaimRate: ratedBoth(payout, claimRate.rate),
      };
    }),
  };
}
