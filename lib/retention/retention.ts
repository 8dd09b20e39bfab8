// Retention: what the service stops keeping, deleted in batches so no
// statement holds many row locks or runs for long.
// - idempotency rows older than 24 h (the replay window of the API; the key
//   answers a db-hit only while its row exists);
// - events older than EVENT_RETENTION_DAYS (default 90; the inspector and
//   future what-if replays read them);
// - the dashboard's per-minute rollups older than ANALYTICS_RETENTION_DAYS
//   (default 400; lib/analytics/rollups.ts deleteRollupsOlderThan);
// - staff grant usage from before yesterday (UTC): a support member's daily
//   grant limit counts only today's rows (lib/services/_shared/grant-limit.ts).
// Scheduled every RETENTION_INTERVAL_MS (default one hour; 0 turns it off) by
// startRetention, on every instance (the deletes are idempotent; concurrent
// runs only share the work).
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { deleteRollupsOlderThan } from '@/lib/analytics/rollups';
import { IDEMPOTENCY_TTL_MS } from '@/lib/idempotency/run-idempotent';
import { logError } from '@/lib/log';
import { processWide } from '@/lib/process-wide';

const DAY_MS = 86_400_000;

export interface RetentionSettings {
  eventDays: number;
  analyticsDays: number;
  /** Rows per delete statement. */
  batch: number;
}

export interface RetentionResult {
  idempotencyKeys: number;
  events: number;
  rollups: number;
  /** Outbound-webhook deliveries delivered or failed longer ago than the event retention period (pending ones stay). */
  deliveries: number;
  /** Staff grant usage rows from before yesterday 00:00 UTC (they count toward no day's grant limit). */
  grantUsage: number;
}

function positiveInt(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text.trim() === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name}: must be a non-negative integer (got "${text}")`);
  return value;
}

/** From EVENT_RETENTION_DAYS (90), ANALYTICS_RETENTION_DAYS (400) and RETENTION_BATCH (5,000). */
export function retentionSettings(): RetentionSettings & { intervalMs: number } {
  return {
    eventDays: Math.max(1, positiveInt('EVENT_RETENTION_DAYS', 90)),
    analyticsDays: Math.max(1, positiveInt('ANALYTICS_RETENTION_DAYS', 400)),
    batch: Math.max(1, positiveInt('RETENTION_BATCH', 5_000)),
    intervalMs: positiveInt('RETENTION_INTERVAL_MS', 3_600_000),
  };
}

function countOf(result: unknown): number {
  return ((result as { rows?: unknown[] }).rows ?? []).length;
}

/** Deletes until a batch comes back short; answers the total. */
async function drain(step: () => Promise<number>, batch: number): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await step();
    total += n;
    if (n < batch) return total;
  }
}

/** One pass over every table with a retention period. */
export async function runRetention(db: DbOrTx, settings: RetentionSettings, now = Date.now()): Promise<RetentionResult> {
  const { batch } = settings;
  const keysBefore = now - IDEMPOTENCY_TTL_MS;
  const eventsBefore = now - settings.eventDays * DAY_MS;
  const idempotencyKeys = await drain(
    async () =>
      countOf(
        await db.execute(sql`delete from idempotency_keys where ctid in
          (select ctid from idempotency_keys where created_at < ${keysBefore} limit ${batch}) returning 1`),
      ),
    batch,
  );
  const events = await drain(
    async () =>
      countOf(await db.execute(sql`delete from "events" where ctid in (select ctid from "events" where received_at < ${eventsBefore} limit ${batch}) returning 1`)),
    batch,
  );
  const rollups = await drain(() => deleteRollupsOlderThan(db, settings.analyticsDays, now, batch), batch);
  const deliveries = await drain(
    async () =>
      countOf(
        await db.execute(sql`delete from webhook_deliveries where ctid in
          (select ctid from webhook_deliveries where status <> 'pending' and created_at < ${eventsBefore} limit ${batch}) returning 1`),
      ),
    batch,
  );
  // Yesterday's rows are kept one more day, as the grant limit's own pruning kept them.
  const usageBefore = now - (now % DAY_MS) - DAY_MS;
  const grantUsage = await drain(
    async () =>
      countOf(
        await db.execute(sql`delete from staff_grant_usage where ctid in
          (select ctid from staff_grant_usage where at < ${usageBefore} limit ${batch}) returning 1`),
      ),
    batch,
  );
  return { idempotencyKeys, events, rollups, deliveries, grantUsage };
}

const scheduler = processWide('retention.scheduler', () => ({ timer: null as ReturnType<typeof setInterval> | null, running: false }));

/** Runs the job on `db` every RETENTION_INTERVAL_MS in this process (first run one interval after start); idempotent. */
export function startRetention(db: DbOrTx): void {
  const settings = retentionSettings();
  if (settings.intervalMs === 0 || scheduler.timer !== null) return;
  scheduler.timer = setInterval(() => {
    if (scheduler.running) return;
    scheduler.running = true;
    void runRetention(db, settings)
      .catch((err: unknown) => logError('retention run failed', err))
      .finally(() => (scheduler.running = false));
  }, settings.intervalMs);
  scheduler.timer.unref?.();
}
