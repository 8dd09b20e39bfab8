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
import type { Reward } from '@/lib/contract/mission';
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

const CLAIM_NOTICES = ['reward.granted', 'balance.changed'] as const;
/** The claim statement committed (autocommit) with outbox rows: the worker sends them now. */
const afterClaimCommit = () => kickOutbound();

/** The body of POST /v1/missions/:id/claim. */
export type ClaimResult = z.output<typeof claimResponseSchema>;

/**
 * $1 app, $2 user, $3 mission, $4 now, $5 reward kind, $6 currency, $7 amount,
 * $8 item, $9 quantity, $10 badge, $11 stored key (null: none), $12 request
 * hash, $13 rollups (JSON), $14 the reward as the answer shows it (JSON),
 * $15 the mission's campaign (null: none), $16 that campaign's budget of the
 * reward's currency (null: none), $17 the outbox rows (JSON; null in
 * the statement without an outbox part), $18 the progress's streak (JSON;
 * null: not a streak mission, no key), $19 the endpoint ids receiving
 * budget.alert (JSON array; null in the statement without an outbox part).
 * The answer is built by the statement (its values come from the rows it
 * wrote) and stored as text in the key row, so a replay is byte for byte.
 *
 * The statement is assembled from its parts (claimStatement): the same CTEs
 * in both variants, the outbox variant adding its two delivery inserts.
 */
const CLAIM_PARTS = {
  s: `s as (insert into user_sequences (app_id, user_id, seq, changed_at)
        select $1::text, $2::text, 1, $4::bigint
        where exists (select 1 from progress where app_id = $1 and user_id = $2 and mission_id = $3::text and status = 'completed')
        on conflict (app_id, user_id) do update set seq = user_sequences.seq + 1, changed_at = excluded.changed_at
        returning seq)`,
  c: `c as (update progress set status = 'claimed', updated_at = $4::bigint from s
        where progress.app_id = $1 and progress.user_id = $2 and progress.mission_id = $3 and progress.status = 'completed'
        returning progress.cycle, progress.target_count, s.seq)`,
  b: `b as (insert into balances (app_id, user_id, currency, amount, updated_at)
        select $1, $2, $6::text, $7::bigint, $4 from c where $6::text is not null
        on conflict (app_id, user_id, currency) do update set amount = balances.amount + excluded.amount, updated_at = excluded.updated_at
        returning amount, updated_at)`,
  l: `l as (insert into ledger (app_id, user_id, grant_key, kind, currency, amount, item_id, quantity, badge_id, mission_id, balance_after, created_at)
        select $1, $2, 'mission:' || $3 || ':cycle:' || c.cycle, $5::text, $6, $7, $8::text, $9::integer, $10::text, $3, (select amount from b), $4
        from c returning 1 as one)`,
  g: `g as (insert into campaign_budget_spent (app_id, campaign_id, currency, spent, cap, updated_at)
        select $1, $15::text, $6::text, $7::bigint, $16::bigint, $4 from c where $15::text is not null and $6::text is not null
        on conflict (app_id, campaign_id, currency) do update
          set spent = campaign_budget_spent.spent + excluded.spent, cap = excluded.cap, updated_at = excluded.updated_at
        returning spent, cap)`,
  a: `a as (insert into campaign_budget_alerts (app_id, campaign_id, currency, threshold, spent, budget, mission_id, at)
        select $1, $15::text, $6::text, t.threshold, g.spent, g.cap, $3, $4
        from g, (values ${BUDGET_ALERT_THRESHOLDS.map((t) => `(${t}::smallint)`).join(', ')}) as t(threshold)
        where g.cap is not null and g.spent * 100 >= g.cap * t.threshold
        on conflict do nothing
        returning threshold, spent, budget)`,
  au: `au as (insert into audit_log (at, actor, action, app_id, target, before, after)
        select $4, 'system', '${BUDGET_ALERT_TYPE}', $1, 'campaign:' || $15::text, null,
          jsonb_build_object('campaignId', $15::text, 'currency', $6::text, 'threshold', a.threshold, 'spent', a.spent, 'budget', a.budget, 'missionId', $3::text)
        from a returning 1 as one)`,
  r: `r as (insert into analytics_rollups (app_id, bucket_start, kind, key, shard, count, amount)
        select $1, x.bucket_start, x.kind, x.key, x.shard, x.count, x.amount
        from c, json_to_recordset($13::json) as x(bucket_start bigint, kind text, key text, shard smallint, count bigint, amount bigint)
        on conflict (app_id, bucket_start, kind, key, shard) do update set count = analytics_rollups.count + excluded.count, amount = analytics_rollups.amount + excluded.amount
        returning 1 as one)`,
  body: `body as (select json_build_object(
          'progress', case when $18::json is null
            then json_build_object('userId', $2, 'missionId', $3, 'status', 'claimed', 'progress', 1,
                                   'currentCount', c.target_count, 'targetCount', c.target_count, 'updatedAt', $4)
            else json_build_object('userId', $2, 'missionId', $3, 'status', 'claimed', 'progress', 1,
                                   'currentCount', c.target_count, 'targetCount', c.target_count, 'updatedAt', $4, 'streak', $18::json) end,
          'balance', (select json_build_object('userId', $2, 'currency', $6, 'amount', b.amount, 'updatedAt', b.updated_at) from b),
          'reward', $14::json)::text as text
        from c)`,
  // Outbox: the claim's notices ($17: a null data is the balance the statement credited, written only when it credited one)…
  o: `o as (insert into webhook_deliveries (id, app_id, endpoint_id, user_id, type, data, status, attempts, next_attempt_at, created_at, retrying_since)
        select x.id, $1, x.endpoint_id, $2, x.type,
          coalesce(x.data::jsonb, (select jsonb_build_object('userId', $2::text, 'currency', $6::text, 'amount', b.amount, 'updatedAt', b.updated_at) from b)),
          'pending', 0, $4, $4, $4
        from c, json_to_recordset($17::json) as x(id text, endpoint_id text, type text, data json)
        where x.data is not null or exists (select 1 from b)
        returning 1 as one)`,
  // …and one budget.alert per threshold this claim reached and endpoint receiving it ($19), the same rows as the alerts.
  oa: `oa as (insert into webhook_deliveries (id, app_id, endpoint_id, user_id, type, data, status, attempts, next_attempt_at, created_at, retrying_since)
        select 'wh_' || replace(gen_random_uuid()::text, '-', ''), $1, e.endpoint_id, $2, 'budget.alert',
          jsonb_build_object('campaignId', $15::text, 'currency', $6::text, 'threshold', a.threshold, 'spent', a.spent, 'budget', a.budget, 'missionId', $3::text, 'at', $4::bigint),
          'pending', 0, $4, $4, $4
        from a, json_array_elements_text($19::json) as e(endpoint_id)
        returning 1 as one)`,
  k: `k as (insert into idempotency_keys (app_id, user_id, key, request_hash, status, response, created_at)
        select $1, $2, $11::text, $12::text, 200, to_jsonb(body.text), $4 from body where $11::text is not null
        returning 1 as one)`,
};

/** The claim statement, with or without its outbox part (the base one refuses outbox parameters: it answers no row). */
function claimStatement(outbox: boolean): Prepared {
  const p = CLAIM_PARTS;
  const ctes = [p.s, p.c, p.b, p.l, p.g, p.a, p.au, p.r, p.body, ...(outbox ? [p.o, p.oa] : []), p.k];
  const answers = [
    '(select seq::text from s) as seq',
    '(select text from body) as body',
    '(select count(*) from l)::int as ledger',
    '(select count(*) from r)::int as rollups',
    '(select count(*) from k)::int as keyed',
    ...(outbox ? ['((select count(*) from o) + (select count(*) from oa))::int as notified'] : []),
    `(select json_agg(json_build_object('threshold', threshold, 'spent', spent, 'budget', budget))::text from a) as alerts`,
    '(select count(*) from au)::int as audited',
  ];
  return {
    name: outbox ? 'ql_claim_outbox_v4' : 'ql_claim_v5',
    pipelined: true,
    text: `with\n  ${ctes.join(',\n  ')}\n  select ${answers.join(',\n    ')}${outbox ? '' : '\n  where $17::json is null and $19::json is null'}`,
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

interface BudgetAlertRow {
  threshold: number;
  spent: number;
  budget: number;
}

function budgetExhausted(title: string, campaignId: string, currency: string, amount: number, cap: number | null): AppError {
  const budget = cap === null ? '' : ` (budget ${cap})`;
  return new AppError('budget_exhausted', `Campaign "${title}" (${campaignId}) has not enough of its ${currency} budget${budget} left to grant ${amount} ${currency}`);
}

/** The claim's one statement. Throws mission_not_found for a mission the catalog does not have. */
export async function claimMission(db: DbOrTx, input: ClaimWrite, now = serviceNow()): Promise<ClaimOutcome> {
  const { appId, userId, missionId } = input;
  const mission = input.catalog.missions.get(missionId);
  if (!mission) throw new AppError('mission_not_found', `No mission "${missionId}"`);
  const reward: Reward = mission.reward;
  const rollups = rollupRows({ appId, userId, at: now, deltas: claimRollups(missionId, reward) }).map(rollupParam);
  // Outbound webhooks: only an app with an endpoint for these types runs the statement with the outbox part.
  const outbox = wantsAny(input.catalog.endpoints, CLAIM_NOTICES)
    ? outboxRows(input.catalog.endpoints, [
        { type: 'reward.granted', data: { userId, missionId, reward, idempotencyKey: input.key === null ? null : input.key.replace(/^claim:/, '') } },
        ...(reward.kind === 'currency' ? [{ type: 'balance.changed' as const, data: null }] : []),
      ])
    : [];
  const campaign = mission.campaignId === null ? undefined : input.catalog.campaigns.get(mission.campaignId);
  // Only currency rewards of a campaign's missions count against (and are counted in) its budget.
  const budget =
    mission.campaignId !== null && reward.kind === 'currency'
      ? { campaignId: mission.campaignId, currency: reward.currency, amount: reward.amount, cap: campaign?.budget?.find((b) => b.currency === reward.currency)?.amount ?? null }
      : null;
  // budget.alert goes out only for a grant that counts against a budget (the alert rows are the statement's).
  const alertEndpoints = budget?.cap != null ? (input.catalog.endpoints.get('budget.alert') ?? []) : [];
  const withOutbox = outbox.length > 0 || alertEndpoints.length > 0;
  let row: Record<string, unknown>;
  try {
    [row] = await runPrepared(db, withOutbox ? CLAIM_OUTBOX : CLAIM, [
      appId,
      userId,
      missionId,
      now,
      reward.kind,
      reward.kind === 'currency' ? reward.currency : null,
      reward.kind === 'currency' ? reward.amount : null,
      reward.kind === 'item' ? reward.itemId : null,
      reward.kind === 'item' ? reward.quantity : null,
      reward.kind === 'badge' ? reward.badgeId : null,
      input.key,
      input.requestHash,
      JSON.stringify(rollups),
      JSON.stringify(reward),
      budget?.campaignId ?? null,
      budget?.cap ?? null,
      withOutbox ? JSON.stringify(outbox) : null,
      // A claimed streak is complete: its streak reads current = length (MissionProgress.streak).
      mission.criteria.streak ? JSON.stringify({ current: mission.criteria.streak.length, length: mission.criteria.streak.length }) : null,
      withOutbox ? JSON.stringify(alertEndpoints) : null,
    ]);
  } catch (err) {
    if (input.key !== null && isKeyTaken(err)) return { kind: 'key-taken' };
    if (budget && isBudgetExceeded(err)) {
      // Counted in a statement of its own (the failed one wrote nothing); the 409 is answered after it.
      await countRefusal(db, { appId, userId, missionId, campaignId: budget.campaignId, currency: budget.currency, amount: budget.amount, budget: budget.cap, key: input.key, at: now });
      throw budgetExhausted(campaign?.title ?? budget.campaignId, budget.campaignId, budget.currency, budget.amount, budget.cap);
    }
    throw err;
  }
  if (typeof row?.alerts === 'string' && budget) {
    for (const alert of JSON.parse(row.alerts) as BudgetAlertRow[]) {
      metrics().budgetAlerts.inc({ app: appId, campaign: budget.campaignId, currency: budget.currency, threshold: String(alert.threshold) });
    }
  }
  const seq = row?.seq === null || row?.seq === undefined ? null : Number(row.seq);
  if (typeof row?.body !== 'string' || seq === null) return { kind: 'not-claimed', seq };
  if (Number(row.notified ?? 0) > 0) afterClaimCommit();
  const result = JSON.parse(row.body) as ClaimResult;
  const updates: SdkUpdate[] = [{ type: 'reward.granted', data: { userId, missionId, reward: result.reward } }];
  if (result.balance) updates.push({ type: 'balance.changed', data: result.balance });
  return { kind: 'claimed', result, updates, seq };
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
