// Claiming a completed mission in one statement (autocommit): completed →
// claimed, the user's sequence number bumped, the reward written to the
// ledger and, for currency, the balance credited (balance_after from the
// same statement), the dashboard's rollups, and the idempotency key's row
// with the answer. The status guard (re-checked on the locked row), the
// ledger's unique grant key and the key row's primary key make it
// exactly-once; a key already taken fails the statement (nothing written).
//
// Lock order, as every writer of a user's progress: the user's sequence row
// first (the statement's first CTE; every later part selects from it), then
// the progress row, balance, ledger, the campaign's budget row, rollups and,
// last, the key row (only a request of the same user, which queues on the
// sequence row first, can hold that key).
//
// Campaign budgets: a currency reward of a campaign's mission adds to the
// campaign's spent row (campaign_budget_spent) in the same statement, with the
// campaign's budget of that currency as the row's `cap`; the row's check
// (spent <= cap) fails the whole statement when the grant would pass the
// budget, so nothing is written (409 budget_exhausted). Concurrent claims of
// the same campaign and currency queue on that one row only for the rest of
// their statement, each re-reading the row its predecessor committed, so
// exactly as many are granted as the budget holds; other claims never wait on
// it. The grant that reaches 80 % or 100 % of the budget records the alert
// (its primary key: once per threshold) and its audit row, in the statement.
// A refused claim is counted after the failed statement, by one of its own
// (lib/claims/record-refusal.ts), before the 409 is answered.
import { serviceNow } from '@/lib/clock';
import type { z } from 'zod';
import type { DbOrTx } from '@/db/client';
import { runPrepared, type Prepared } from '@/db/prepared';
import { rollupParam, rollupRows, claimRollups } from '@/lib/analytics/rollups';
import type { Catalog } from '@/lib/catalog/catalog';
import { rewardsOf, type Reward } from '@/lib/contract/mission';
import { and, eq, inArray } from 'drizzle-orm';
import { balances, campaignBudgetSpent } from '@/db/schema';
import type { claimResponseSchema } from '@/lib/contract/v1';
import type { SdkUpdate } from '@/lib/contract/updates';
import { BUDGET_ALERT_THRESHOLDS, BUDGET_ALERT_TYPE } from '@/lib/contract/campaign';
import { AppError } from '@/lib/errors';
import { metrics } from '@/lib/metrics';
import { claimRule } from '@/lib/missions/engine';
import { readRecords } from '@/lib/progress/records';
import { readAttributes, zoneOf } from '@/lib/users/attributes';
import { outboxRows, wantsAny } from '@/lib/outbound/outbox';
import { kickOutbound } from '@/lib/outbound/worker';
import { countRefusal } from './record-refusal';
import { balanceLimit } from '@/lib/balances/balance-limit';

const CLAIM_NOTICES = ['reward.granted', 'balance.changed'] as const;
/** The claim statement committed (autocommit) with outbox rows: the worker sends them now. */
const afterClaimCommit = () => kickOutbound();

/** The body of POST /v1/missions/:id/claim. */
export type ClaimResult = z.output<typeof claimResponseSchema>;

/**
 * $1 app, $2 user, $3 mission, $4 now, $5 the bundle (JSON array: one record
 * per reward, `i` its place, `cap` the campaign's budget of a currency
 * reward's currency (null: none), `max_balance` that currency's maxBalance
 * (null: none; issue 39 §1)), $6 stored key (null: none), $7 request hash,
 * $8 rollups (JSON), $9 the rewards as the answer shows them (JSON array),
 * $10 the mission's campaign (null: none), $11 the outbox rows (JSON; null in
 * the statement without an outbox part), $12 the progress's streak (JSON;
 * null: not a streak mission, no key), $13 the endpoint ids receiving
 * budget.alert (JSON array; null in the statement without an outbox part).
 * The answer is built by the statement (its values come from the rows it
 * wrote) and stored as text in the key row, so a replay is byte for byte.
 *
 * A bundle (issue 39 §2) is all or nothing because it is one statement: a
 * ledger row per reward (the first keeps the single reward's grant key, the
 * others add `:reward:<i>`), a balance per currency (a bundle names each
 * currency once, lib/contract/mission.ts), a spent row per currency of a
 * campaign's mission; one failing check (budget, maxBalance) fails it all.
 *
 * The statement is assembled from its parts (claimStatement): the same CTEs
 * in both variants, the outbox variant adding its two delivery inserts.
 */
const CLAIM_PARTS = {
  rw: `rw as (select * from json_to_recordset($5::json) as x(i int, kind text, currency text, amount bigint, item_id text, quantity integer, badge_id text, cap bigint, max_balance bigint))`,
  s: `s as (insert into user_sequences (app_id, user_id, seq, changed_at)
        select $1::text, $2::text, 1, $4::bigint
        where exists (select 1 from progress where app_id = $1 and user_id = $2 and mission_id = $3::text and status = 'completed')
        on conflict (app_id, user_id) do update set seq = user_sequences.seq + 1, changed_at = excluded.changed_at
        returning seq)`,
  c: `c as (update progress set status = 'claimed', updated_at = $4::bigint from s
        where progress.app_id = $1 and progress.user_id = $2 and progress.mission_id = $3 and progress.status = 'completed'
        returning progress.cycle, progress.target_count, s.seq)`,
  b: `b as (insert into balances (app_id, user_id, currency, amount, updated_at)
        select $1, $2, rw.currency, rw.amount, $4 from c, rw where rw.currency is not null and (rw.max_balance is null or rw.amount <= rw.max_balance)
        on conflict (app_id, user_id, currency) do update set amount = balances.amount + excluded.amount, updated_at = excluded.updated_at
          where not exists (select 1 from rw where rw.currency = excluded.currency and rw.max_balance is not null and balances.amount + excluded.amount > rw.max_balance)
        returning currency, amount, updated_at)`,
  // The currencies' maxBalance: a claimed record with a reward its balance could not take fails the whole statement (division by zero, 22012), so nothing is written.
  m: `m as (select 1 / (case when exists (select 1 from c)
          and exists (select 1 from rw where rw.currency is not null and rw.max_balance is not null and not exists (select 1 from b where b.currency = rw.currency))
          then 0 else 1 end) as one)`,
  l: `l as (insert into ledger (app_id, user_id, grant_key, kind, currency, amount, item_id, quantity, badge_id, mission_id, balance_after, created_at)
        select $1, $2, 'mission:' || $3 || ':cycle:' || c.cycle || case when rw.i = 0 then '' else ':reward:' || rw.i end,
          rw.kind, rw.currency, rw.amount, rw.item_id, rw.quantity, rw.badge_id, $3, (select amount from b where b.currency = rw.currency), $4
        from c, rw returning 1 as one)`,
  g: `g as (insert into campaign_budget_spent (app_id, campaign_id, currency, spent, cap, updated_at)
        select $1, $10::text, rw.currency, rw.amount, rw.cap, $4 from c, rw where $10::text is not null and rw.currency is not null
        on conflict (app_id, campaign_id, currency) do update
          set spent = campaign_budget_spent.spent + excluded.spent, cap = excluded.cap, updated_at = excluded.updated_at
        returning currency, spent, cap)`,
  a: `a as (insert into campaign_budget_alerts (app_id, campaign_id, currency, threshold, spent, budget, mission_id, at)
        select $1, $10::text, g.currency, t.threshold, g.spent, g.cap, $3, $4
        from g, (values ${BUDGET_ALERT_THRESHOLDS.map((t) => `(${t}::smallint)`).join(', ')}) as t(threshold)
        where g.cap is not null and g.spent * 100 >= g.cap * t.threshold
        on conflict do nothing
        returning currency, threshold, spent, budget)`,
  au: `au as (insert into audit_log (at, actor, action, app_id, target, before, after)
        select $4, 'system', '${BUDGET_ALERT_TYPE}', $1, 'campaign:' || $10::text, null,
          jsonb_build_object('campaignId', $10::text, 'currency', a.currency, 'threshold', a.threshold, 'spent', a.spent, 'budget', a.budget, 'missionId', $3::text)
        from a returning 1 as one)`,
  r: `r as (insert into analytics_rollups (app_id, bucket_start, kind, key, shard, count, amount)
        select $1, x.bucket_start, x.kind, x.key, x.shard, x.count, x.amount
        from c, json_to_recordset($8::json) as x(bucket_start bigint, kind text, key text, shard smallint, count bigint, amount bigint)
        on conflict (app_id, bucket_start, kind, key, shard) do update set count = analytics_rollups.count + excluded.count, amount = analytics_rollups.amount + excluded.amount
        returning 1 as one)`,
  bb: `bb as (select rw.i, json_build_object('userId', $2, 'currency', b.currency, 'amount', b.amount, 'updatedAt', b.updated_at) as balance from b join rw on rw.currency = b.currency)`,
  body: `body as (select json_build_object(
          'progress', case when $12::json is null
            then json_build_object('userId', $2, 'missionId', $3, 'status', 'claimed', 'progress', 1,
                                   'currentCount', c.target_count, 'targetCount', c.target_count, 'updatedAt', $4)
            else json_build_object('userId', $2, 'missionId', $3, 'status', 'claimed', 'progress', 1,
                                   'currentCount', c.target_count, 'targetCount', c.target_count, 'updatedAt', $4, 'streak', $12::json) end,
          'balance', (select balance from bb order by i limit 1),
          'reward', $9::json -> 0,
          'rewards', $9::json,
          'balances', coalesce((select json_agg(balance order by i) from bb), '[]'::json))::text as text
        from c)`,
  // Outbox: the claim's notices ($11: a null data is the balance of the row's currency the statement credited, written only when it credited one)…
  o: `o as (insert into webhook_deliveries (id, app_id, endpoint_id, user_id, type, data, status, attempts, next_attempt_at, created_at, retrying_since)
        select x.id, $1, x.endpoint_id, $2, x.type,
          coalesce(x.data::jsonb, (select jsonb_build_object('userId', $2::text, 'currency', b.currency, 'amount', b.amount, 'updatedAt', b.updated_at) from b where b.currency = x.currency)),
          'pending', 0, $4, $4, $4
        from c, json_to_recordset($11::json) as x(id text, endpoint_id text, type text, data json, currency text)
        where x.data is not null or exists (select 1 from b where b.currency = x.currency)
        returning 1 as one)`,
  // …and one budget.alert per threshold this claim reached and endpoint receiving it ($13), the same rows as the alerts.
  oa: `oa as (insert into webhook_deliveries (id, app_id, endpoint_id, user_id, type, data, status, attempts, next_attempt_at, created_at, retrying_since)
        select 'wh_' || replace(gen_random_uuid()::text, '-', ''), $1, e.endpoint_id, $2, 'budget.alert',
          jsonb_build_object('campaignId', $10::text, 'currency', a.currency, 'threshold', a.threshold, 'spent', a.spent, 'budget', a.budget, 'missionId', $3::text, 'at', $4::bigint),
          'pending', 0, $4, $4, $4
        from a, json_array_elements_text($13::json) as e(endpoint_id)
        returning 1 as one)`,
  k: `k as (insert into idempotency_keys (app_id, user_id, key, request_hash, status, response, created_at)
        select $1, $2, $6::text, $7::text, 200, to_jsonb(body.text), $4 from body where $6::text is not null
        returning 1 as one)`,
};

/** The claim statement, with or without its outbox part (the base one refuses outbox parameters: it answers no row). */
function claimStatement(outbox: boolean): Prepared {
  const p = CLAIM_PARTS;
  const ctes = [p.rw, p.s, p.c, p.b, p.m, p.l, p.g, p.a, p.au, p.r, p.bb, p.body, ...(outbox ? [p.o, p.oa] : []), p.k];
  const answers = [
    '(select seq::text from s) as seq',
    '(select text from body) as body',
    '(select count(*) from l)::int as ledger',
    '(select count(*) from r)::int as rollups',
    '(select count(*) from k)::int as keyed',
    ...(outbox ? ['((select count(*) from o) + (select count(*) from oa))::int as notified'] : []),
    `(select json_agg(json_build_object('currency', currency, 'threshold', threshold, 'spent', spent, 'budget', budget))::text from a) as alerts`,
    '(select count(*) from au)::int as audited',
    '(select one from m) as within_limit',
  ];
  return {
    name: outbox ? 'ql_claim_outbox_v5' : 'ql_claim_v6',
    pipelined: true,
    text: `with\n  ${ctes.join(',\n  ')}\n  select ${answers.join(',\n    ')}${outbox ? '' : '\n  where $11::json is null and $13::json is null'}`,
  };
}

const CLAIM = claimStatement(false);
/** Used only when the app has an endpoint for reward.granted, balance.changed or (for a campaign currency reward with a budget) budget.alert. */
const CLAIM_OUTBOX = claimStatement(true);

export interface ClaimWrite {
  appId: string;
  userId: string;
  missionId: string;
  catalog: Catalog;
  /** The stored key (namespaced `claim:`), or null. */
  key: string | null;
  requestHash: string;
}

export type ClaimOutcome =
  /** Claimed: the answer, its stream updates and the sequence number taken. */
  | { kind: 'claimed'; result: ClaimResult; updates: SdkUpdate[]; seq: number }
  /** Nothing written; `seq` (when not null) was taken by a claim that lost a race and must still be published (empty). */
  | { kind: 'not-claimed'; seq: number | null }
  /** The key's row already exists: nothing written; answer from it. */
  | { kind: 'key-taken' };

const isKeyTaken = (err: unknown): boolean => {
  const e = err as { code?: unknown; constraint?: unknown; table?: unknown; message?: unknown };
  return (
    e?.code === '23505' &&
    (e.table === 'idempotency_keys' || String(e.constraint ?? '').startsWith('idempotency_keys') || String(e.message ?? '').includes('idempotency_keys'))
  );
};

/** The spent row's check failed: the grant would take the campaign past its budget (the statement wrote nothing). */
const isBudgetExceeded = (err: unknown): boolean => {
  const e = err as { code?: unknown; constraint?: unknown; message?: unknown };
  return e?.code === '23514' && (e.constraint === 'campaign_budget_within' || String(e.message ?? '').includes('campaign_budget_within'));
};

/** The statement's maxBalance guard (part m) divided by zero: the reward would take the balance past it (nothing written). */
const isPastMaxBalance = (err: unknown): boolean => (err as { code?: unknown })?.code === '22012';

interface BudgetAlertRow {
  currency: string;
  threshold: number;
  spent: number;
  budget: number;
}

function budgetExhausted(title: string, campaignId: string, currency: string, amount: number, cap: number | null): AppError {
  const budget = cap === null ? '' : ` (budget ${cap})`;
  return new AppError('budget_exhausted', `Campaign "${title}" (${campaignId}) has not enough of its ${currency} budget${budget} left to grant ${amount} ${currency}`);
}

/** A currency reward of the bundle as the statement and its refusals see it. */
interface CurrencyLine {
  currency: string;
  amount: number;
  /** The campaign's budget of the currency (null: none, or not a campaign's mission). */
  cap: number | null;
  maxBalance: number | null;
}

/**
 * Which line of a refused bundle did not fit (read after the failed
 * statement; what was spent or held only grows, so the line that failed still
 * does): the first whose `used` (spent, or balance) plus its amount passes its
 * limit; the first limited line when none reads so (a concurrent change).
 */
function overLine(lines: CurrencyLine[], limit: (l: CurrencyLine) => number | null, used: ReadonlyMap<string, number>): CurrencyLine {
  const limited = lines.filter((l) => limit(l) !== null);
  return limited.find((l) => (used.get(l.currency) ?? 0) + l.amount > limit(l)!) ?? limited[0];
}

/** The claim's one statement. Throws mission_not_found for a mission the catalog does not have. */
export async function claimMission(db: DbOrTx, input: ClaimWrite, now = serviceNow()): Promise<ClaimOutcome> {
  const { appId, userId, missionId } = input;
  const mission = input.catalog.missions.get(missionId);
  if (!mission) throw new AppError('mission_not_found', `No mission "${missionId}"`);
  const rewards: Reward[] = rewardsOf(mission);
  const rollups = rollupRows({ appId, userId, at: now, deltas: claimRollups(missionId, rewards) }).map(rollupParam);
  const campaign = mission.campaignId === null ? undefined : input.catalog.campaigns.get(mission.campaignId);
  // Only currency rewards of a campaign's missions count against (and are counted in) its budget.
  const lines: CurrencyLine[] = rewards.flatMap((r) =>
    r.kind === 'currency'
      ? [
          {
            currency: r.currency,
            amount: r.amount,
            cap: mission.campaignId === null ? null : (campaign?.budget?.find((b) => b.currency === r.currency)?.amount ?? null),
            maxBalance: input.catalog.economy.currencies?.find((c) => c.id === r.currency)?.maxBalance ?? null,
          },
        ]
      : [],
  );
  const lineOf = new Map(lines.map((l) => [l.currency, l]));
  const idempotencyKey = input.key === null ? null : input.key.replace(/^claim:/, '');
  // Outbound webhooks: only an app with an endpoint for these types runs the statement with the outbox part.
  // One reward.granted per reward (the same claim key), one balance.changed per currency credited.
  const outbox = wantsAny(input.catalog.endpoints, CLAIM_NOTICES)
    ? outboxRows(input.catalog.endpoints, [
        ...rewards.map((reward) => ({ type: 'reward.granted' as const, data: { userId, missionId, reward, idempotencyKey } })),
        ...lines.map((l) => ({ type: 'balance.changed' as const, data: null, currency: l.currency })),
      ])
    : [];
  const budgeted = mission.campaignId !== null && lines.some((l) => l.cap !== null);
  // budget.alert goes out only for a grant that counts against a budget (the alert rows are the statement's).
  const alertEndpoints = budgeted ? (input.catalog.endpoints.get('budget.alert') ?? []) : [];
  const withOutbox = outbox.length > 0 || alertEndpoints.length > 0;
  const bundle = rewards.map((r, i) => ({
    i,
    kind: r.kind,
    currency: r.kind === 'currency' ? r.currency : null,
    amount: r.kind === 'currency' ? r.amount : null,
    item_id: r.kind === 'item' ? r.itemId : null,
    quantity: r.kind === 'item' ? r.quantity : null,
    badge_id: r.kind === 'badge' ? r.badgeId : null,
    cap: r.kind === 'currency' ? (lineOf.get(r.currency)?.cap ?? null) : null,
    max_balance: r.kind === 'currency' ? (lineOf.get(r.currency)?.maxBalance ?? null) : null,
  }));
  let row: Record<string, unknown>;
  try {
    [row] = await runPrepared(db, withOutbox ? CLAIM_OUTBOX : CLAIM, [
      appId,
      userId,
      missionId,
      now,
      JSON.stringify(bundle),
      input.key,
      input.requestHash,
      JSON.stringify(rollups),
      JSON.stringify(rewards),
      mission.campaignId,
      withOutbox ? JSON.stringify(outbox) : null,
      // A claimed streak is complete: its streak reads current = length (MissionProgress.streak).
      mission.criteria.streak ? JSON.stringify({ current: mission.criteria.streak.length, length: mission.criteria.streak.length }) : null,
      withOutbox ? JSON.stringify(alertEndpoints) : null,
    ]);
  } catch (err) {
    if (input.key !== null && isKeyTaken(err)) return { kind: 'key-taken' };
    if (lines.some((l) => l.maxBalance !== null) && isPastMaxBalance(err)) {
      const held = await readAmounts(db, 'balances', { appId, userId }, lines);
      const line = overLine(lines, (l) => l.maxBalance, held);
      throw balanceLimit(line.currency, line.maxBalance!, held.get(line.currency) ?? null, line.amount);
    }
    if (budgeted && isBudgetExceeded(err)) {
      const campaignId = mission.campaignId!;
      const spent = await readAmounts(db, 'spent', { appId, campaignId }, lines);
      const line = overLine(lines, (l) => l.cap, spent);
      // Counted in a statement of its own (the failed one wrote nothing); the 409 is answered after it.
      await countRefusal(db, { appId, userId, missionId, campaignId, currency: line.currency, amount: line.amount, budget: line.cap, key: input.key, at: now });
      throw budgetExhausted(campaign?.title ?? campaignId, campaignId, line.currency, line.amount, line.cap);
    }
    throw err;
  }
  if (typeof row?.alerts === 'string' && mission.campaignId !== null) {
    for (const alert of JSON.parse(row.alerts) as BudgetAlertRow[]) {
      metrics().budgetAlerts.inc({ app: appId, campaign: mission.campaignId, currency: alert.currency, threshold: String(alert.threshold) });
    }
  }
  const seq = row?.seq === null || row?.seq === undefined ? null : Number(row.seq);
  if (typeof row?.body !== 'string' || seq === null) return { kind: 'not-claimed', seq };
  if (Number(row.notified ?? 0) > 0) afterClaimCommit();
  const result = JSON.parse(row.body) as ClaimResult;
  // One stream update (one sequence number): a reward.granted per reward, a balance.changed per currency.
  const updates: SdkUpdate[] = [
    ...result.rewards.map((reward): SdkUpdate => ({ type: 'reward.granted', data: { userId, missionId, reward } })),
    ...result.balances.map((balance): SdkUpdate => ({ type: 'balance.changed', data: balance })),
  ];
  return { kind: 'claimed', result, updates, seq };
}

/** The amounts a refused bundle's currencies hold: the user's balances, or the campaign's spent rows. */
async function readAmounts(
  db: DbOrTx,
  table: 'balances' | 'spent',
  where: { appId: string; userId?: string; campaignId?: string },
  lines: CurrencyLine[],
): Promise<Map<string, number>> {
  const currencies = lines.map((l) => l.currency);
  const rows =
    table === 'balances'
      ? await db
          .select({ currency: balances.currency, amount: balances.amount })
          .from(balances)
          .where(and(eq(balances.appId, where.appId), eq(balances.userId, where.userId!), inArray(balances.currency, currencies)))
      : await db
          .select({ currency: campaignBudgetSpent.currency, amount: campaignBudgetSpent.spent })
          .from(campaignBudgetSpent)
          .where(and(eq(campaignBudgetSpent.appId, where.appId), eq(campaignBudgetSpent.campaignId, where.campaignId!), inArray(campaignBudgetSpent.currency, currencies)));
  return new Map(rows.map((r) => [r.currency, Number(r.amount)]));
}

/** Why a mission could not be claimed (read after the statement changed nothing): not found, already claimed or not completed. */
export async function claimRefusal(db: DbOrTx, input: { appId: string; userId: string; missionId: string; catalog: Catalog }, now = serviceNow()): Promise<AppError> {
  const { appId, userId, missionId } = input;
  const mission = input.catalog.missions.get(missionId);
  if (!mission) return new AppError('mission_not_found', `No mission "${missionId}"`);
  const record = (await readRecords(db, appId, userId, [missionId])).get(missionId) ?? null;
  // An archived mission exists only for users who have a record of it (as in GET /v1/missions/:id).
  if (mission.archived && record === null) return new AppError('mission_not_found', `No mission "${missionId}"`);
  // As the user reads it, windows in the user's own zone: a claimed record of a window that is over reads as a fresh, active cycle.
  const zone = zoneOf(await readAttributes(db, appId, userId));
  const rule = claimRule({ mission, record, now, zone });
  // The statement refused it; a record completed meanwhile (read after the refusal) still gets its refusal in words.
  return new AppError('claim_not_ready', rule.claimable || rule.reason === 'not completed' ? `Mission "${missionId}" is not completed` : `Mission "${missionId}" is already claimed`);
}
