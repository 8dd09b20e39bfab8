// A claim refused because its campaign's budget of the reward's currency is
// spent (409 budget_exhausted) is counted here, after the claim's statement
// failed (it wrote nothing), in one statement of its own: the user's last
// refusal of the mission (the inspector's "claim refused"), the campaign's
// refusal counter per currency (count, first and last time) and the
// per-minute `refusal` rollup (the dashboard's analytics). The granted path
// never runs it and never waits on its rows.
//
// Exactly once per claim, a claim being one Idempotency-Key (or one request
// without a key): a refused claim stores no idempotency answer (a retry under
// the same key claims again), so the user's refusal row keeps every key it
// counted within the keys' 24 h (counted_keys, key → when; older ones are
// dropped at the next counted refusal), and a retry of the same mission under
// any of them counts nothing, also when the player alternates keys A, B, A, B
// (the row's upsert updates nothing, so the counter and rollup parts, which
// select from it, insert nothing). Two such retries at once queue on that
// row, the second re-reading the first's keys. A request without a key is a
// new claim each time (nothing tells two of them apart).
// Lock order: the user's refusal row, the campaign's counter, the rollup rows
// (kind `refusal`, written by this statement only).
import type { DbOrTx } from '@/db/client';
import { runPrepared, type Prepared } from '@/db/prepared';
import { refusalRollups, rollupParam, rollupRows } from '@/lib/analytics/rollups';
import { IDEMPOTENCY_TTL_MS } from '@/lib/idempotency/run-idempotent';
import { logError } from '@/lib/log';
import { metrics } from '@/lib/metrics';

/**
 * $1 app, $2 user, $3 mission, $4 campaign, $5 currency, $6 amount, $7 the
 * campaign's budget of the currency (null: none), $8 the stored key (null:
 * none), $9 now, $10 the rollup rows (JSON), $11 the key's lifetime (ms).
 */
const RECORD_REFUSAL: Prepared = {
  name: 'ql_claim_refusal_v2',
  pipelined: true,
  text: `with
  u as (insert into claim_refusals (app_id, user_id, mission_id, campaign_id, currency, amount, budget, idempotency_key, counted_keys, at)
        values ($1::text, $2::text, $3::text, $4::text, $5::text, $6::bigint, $7::bigint, $8::text,
                case when $8::text is null then '{}'::jsonb else jsonb_build_object($8::text, $9::bigint) end, $9::bigint)
        on conflict (app_id, user_id, mission_id) do update
          set campaign_id = excluded.campaign_id, currency = excluded.currency, amount = excluded.amount, budget = excluded.budget,
              idempotency_key = excluded.idempotency_key, at = excluded.at,
              counted_keys = coalesce((select jsonb_object_agg(e.k, e.v) from jsonb_each(claim_refusals.counted_keys) as e(k, v)
                                       where (e.v #>> '{}')::bigint >= excluded.at - $11::bigint), '{}'::jsonb) || excluded.counted_keys
          where excluded.idempotency_key is null or claim_refusals.counted_keys -> excluded.idempotency_key is null
             or (claim_refusals.counted_keys ->> excluded.idempotency_key)::bigint < excluded.at - $11::bigint
        returning 1 as one),
  g as (insert into campaign_budget_refusals (app_id, campaign_id, currency, refused, first_at, last_at)
        select $1, $4, $5, 1, $9, $9 from u
        on conflict (app_id, campaign_id, currency) do update
          set refused = campaign_budget_refusals.refused + 1,
              first_at = least(campaign_budget_refusals.first_at, excluded.first_at),
              last_at = greatest(campaign_budget_refusals.last_at, excluded.last_at)
        returning refused),
  r as (insert into analytics_rollups (app_id, bucket_start, kind, key, shard, count, amount)
        select $1, x.bucket_start, x.kind, x.key, x.shard, x.count, x.amount
        from u, json_to_recordset($10::json) as x(bucket_start bigint, kind text, key text, shard smallint, count bigint, amount bigint)
        on conflict (app_id, bucket_start, kind, key, shard) do update set count = analytics_rollups.count + excluded.count
        returning 1 as one)
  select (select count(*) from u)::int as counted, (select count(*) from g)::int as campaigns, (select count(*) from r)::int as rollups`,
};

export interface Refusal {
  appId: string;
  userId: string;
  missionId: string;
  campaignId: string;
  currency: string;
  amount: number;
  /** The campaign's budget of the currency as the claim read it. */
  budget: number | null;
  /** The stored (namespaced) Idempotency-Key, or null. */
  key: string | null;
  at: number;
}

/** Counts a budget refusal (answers whether it counted: false for a retry under the same key). */
async function recordRefusal(db: DbOrTx, refusal: Refusal): Promise<boolean> {
  const { appId, userId, campaignId, currency, at } = refusal;
  const rollups = rollupRows({ appId, userId, at, deltas: refusalRollups(campaignId, currency) }).map(rollupParam);
  const [row] = await runPrepared(db, RECORD_REFUSAL, [
    appId,
    userId,
    refusal.missionId,
    campaignId,
    currency,
    refusal.amount,
    refusal.budget,
    refusal.key,
    at,
    JSON.stringify(rollups),
    IDEMPOTENCY_TTL_MS,
  ]);
  const counted = Number(row?.counted ?? 0) > 0;
  if (counted) metrics().claimsRefused.inc({ app: appId, campaign: campaignId, currency });
  return counted;
}

/**
 * recordRefusal for the claim path: the refusal is answered (409) whether or
 * not it could be counted, so a failure here is logged, not thrown.
 */
export async function countRefusal(db: DbOrTx, refusal: Refusal): Promise<void> {
  try {
    await recordRefusal(db, refusal);
  } catch (err) {
    logError('claim refusal not counted', err, { app: refusal.appId, campaign: refusal.campaignId, currency: refusal.currency });
  }
}
