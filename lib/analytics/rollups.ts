// Dashboard analytics as per-minute rollups, written by the transaction that
// records the event or claim they count: one multi-row INSERT … ON CONFLICT
// DO UPDATE per event or claim (per webhook delivery: one for all its events,
// last in its transaction), rows always in one global order so concurrent
// writers of shared rows queue instead of deadlocking; no statement after commit. A rolled-back
// write leaves no count; an idempotent replay never runs the write again, so
// it is never counted twice. Read by lib/analytics/read-analytics.ts.
import { lt, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '@/db/client';
import { analyticsRollups } from '@/db/schema';
import type { Reward } from '@/lib/contract/mission';

const ROLLUP_BUCKET_MS = 60_000;
/** Rows per (app, minute, kind, key): concurrent writers of different users seldom share one. */
const ROLLUP_SHARDS = 8;

type RollupKind = (typeof analyticsRollups.kind.enumValues)[number];

/** One counter to add to: `count` occurrences and, for currency, `amount` granted. */
export interface RollupDelta {
  kind: RollupKind;
  key: string;
  count: number;
  amount: number;
}

/** What one recorded event counts: the event (by name) and each mission it completed. */
export function eventRollups(eventName: string, completedMissionIds: readonly string[]): RollupDelta[] {
  return [
    { kind: 'event', key: eventName, count: 1, amount: 0 },
    ...completedMissionIds.map((id): RollupDelta => ({ kind: 'completion', key: id, count: 1, amount: 0 })),
  ];
}

/** What one claim counts: the claim of the mission and, for each currency reward of its bundle, the amount granted. */
export function claimRollups(missionId: string, rewards: readonly Reward[]): RollupDelta[] {
  const deltas: RollupDelta[] = [{ kind: 'claim', key: missionId, count: 1, amount: 0 }];
  for (const reward of rewards) if (reward.kind === 'currency') deltas.push({ kind: 'currency', key: reward.currency, count: 1, amount: reward.amount });
  return deltas;
}

/** The key of a `refusal` rollup: the campaign and the currency (a campaign id has no space). */
const refusalRollupKey = (campaignId: string, currency: string) => `${campaignId} ${currency}`;

/** A `refusal` rollup's key read back: the campaign and the currency. */
export function parseRefusalRollupKey(key: string): { campaignId: string; currency: string } {
  const space = key.indexOf(' ');
  return space < 0 ? { campaignId: key, currency: '' } : { campaignId: key.slice(0, space), currency: key.slice(space + 1) };
}

/** What one claim refused by its campaign's budget counts (lib/claims/record-refusal.ts). */
export function refusalRollups(campaignId: string, currency: string): RollupDelta[] {
  return [{ kind: 'refusal', key: refusalRollupKey(campaignId, currency), count: 1, amount: 0 }];
}

/** The shard of a user's rows: FNV-1a of the user id. */
function rollupShard(userId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < userId.length; i++) {
    h ^= userId.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % ROLLUP_SHARDS;
}

/** Start of the minute of `at` (ms). */
export const bucketOf = (at: number) => at - (at % ROLLUP_BUCKET_MS);

export interface RollupWrite {
  appId: string;
  userId: string;
  /** When it happened (server clock): picks the minute. */
  at: number;
  deltas: readonly RollupDelta[];
}

/** One row to add to: its key (app, minute, kind, key, shard) and the amounts. */
export interface RollupRow {
  appId: string;
  bucketStart: number;
  kind: RollupKind;
  key: string;
  shard: number;
  count: number;
  amount: number;
}

/**
 * The one order every writer locks rollup rows in: (minute, kind, key, shard).
 * Concurrent transactions that upsert overlapping rows, each in this order,
 * queue instead of deadlocking (a delivery's batch and a single event alike).
 */
function byRowKey(a: RollupRow, b: RollupRow): number {
  return a.bucketStart - b.bucketStart || cmp(a.kind, b.kind) || cmp(a.key, b.key) || a.shard - b.shard;
}
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The rows to upsert, deltas of one (kind, key) merged (one statement may not touch a row twice), in the global order. */
export function rollupRows(input: RollupWrite): RollupRow[] {
  const merged = new Map<string, RollupDelta>();
  for (const d of input.deltas) {
    const id = `${d.kind}\u0000${d.key}`;
    const seen = merged.get(id);
    merged.set(id, seen ? { ...seen, count: seen.count + d.count, amount: seen.amount + d.amount } : { ...d });
  }
  const bucketStart = bucketOf(input.at);
  const shard = rollupShard(input.userId);
  return [...merged.values()]
    .map((d) => ({ appId: input.appId, bucketStart, kind: d.kind, key: d.key, shard, count: d.count, amount: d.amount }))
    .sort(byRowKey);
}

/** A rollup row as the write statements' JSON parameters name its columns (the event, claim and refusal statements). */
export function rollupParam(r: RollupRow) {
  return { bucket_start: r.bucketStart, kind: r.kind, key: r.key, shard: r.shard, count: r.count, amount: r.amount };
}

/** Rows of one app merged by their key and sorted in the global order: what a batch (a webhook delivery) upserts once, at its end. */
function mergeRollupRows(rows: readonly RollupRow[]): RollupRow[] {
  const merged = new Map<string, RollupRow>();
  for (const r of rows) {
    const id = `${r.appId}\u0000${r.bucketStart}\u0000${r.kind}\u0000${r.key}\u0000${r.shard}`;
    const seen = merged.get(id);
    merged.set(id, seen ? { ...seen, count: seen.count + r.count, amount: seen.amount + r.amount } : { ...r });
  }
  return [...merged.values()].sort(byRowKey);
}

/**
 * Adds the deltas to the minute of `at`, in the caller's transaction, in one
 * statement. Best run last in the transaction: the rows stay locked until commit.
 */
export async function writeRollups(tx: Tx, input: RollupWrite): Promise<void> {
  await upsertRollupRows(tx, rollupRows(input));
}

/** Upserts rows (merged and sorted here, whatever the caller did) in one statement, in the global order. */
export async function upsertRollupRows(tx: Tx, rows: readonly RollupRow[]): Promise<void> {
  const ordered = mergeRollupRows(rows);
  if (ordered.length === 0) return;
  await tx
    .insert(analyticsRollups)
    .values(ordered)
    .onConflictDoUpdate({
      target: [analyticsRollups.appId, analyticsRollups.bucketStart, analyticsRollups.kind, analyticsRollups.key, analyticsRollups.shard],
      set: {
        count: sql`${analyticsRollups.count} + excluded.count`,
        amount: sql`${analyticsRollups.amount} + excluded.amount`,
      },
    });
}

/**
 * Retention: deletes rollups of minutes that started more than `days` days
 * before `now` (every app), at most `batch` rows per call, and answers how
 * many went; call it again until it answers less than `batch`.
 */
export async function deleteRollupsOlderThan(db: DbOrTx, days: number, now = Date.now(), batch = 10_000): Promise<number> {
  if (!Number.isFinite(days) || days <= 0) throw new Error('deleteRollupsOlderThan: days must be positive');
  const cutoff = bucketOf(now - days * 86_400_000);
  const deleted = await db.execute(sql`
    with doomed as (select ctid from ${analyticsRollups} where ${lt(analyticsRollups.bucketStart, cutoff)} limit ${batch})
    delete from ${analyticsRollups} where ctid in (select ctid from doomed) returning 1`);
  return rowsOf(deleted).length;
}

function rowsOf(result: unknown): unknown[] {
  return Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? []);
}
