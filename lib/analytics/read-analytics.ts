// The dashboard's read: sums of the per-minute rollups (lib/analytics/rollups.ts)
// over a range, as a zero-filled series per bucket and totals per event name,
// mission and currency, and the claims refused per campaign budget. Two statements, both on the rollups' primary key
// (app, minute, …).
import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { analyticsRollups } from '@/db/schema';
import type { Analytics, AnalyticsBucket } from '@/lib/contract/analytics';
import { parseRefusalRollupKey } from './rollups';

const MAX_EVENT_NAMES = 100;

export interface AnalyticsRange {
  appId: string;
  /** On a bucket boundary (resolveAnalyticsRange). */
  from: number;
  to: number;
  bucket: AnalyticsBucket;
  bucketMs: number;
}


export async function readAnalytics(db: DbOrTx, range: AnalyticsRange): Promise<Analytics> {
  const { appId, from, to, bucket, bucketMs } = range;
  const t = analyticsRollups;
  const inRange = and(eq(t.appId, appId), gte(t.bucketStart, from), lt(t.bucketStart, to));
  // Buckets are UTC-aligned (the epoch is a UTC midnight), so bucket_start − (bucket_start mod size) is the bucket.
  // A literal, not a parameter: GROUP BY must repeat the select's expression exactly.
  if (!Number.isSafeInteger(bucketMs) || bucketMs <= 0) throw new Error(`readAnalytics: bad bucket size ${bucketMs}`);
  const bucketExpr = sql<number>`${t.bucketStart} - mod(${t.bucketStart}, ${sql.raw(String(bucketMs))})`;
  const seriesRows = await db
    .select({ start: bucketExpr, kind: t.kind, n: sql<string>`sum(${t.count})` })
    .from(t)
    .where(and(inRange, inArray(t.kind, ['event', 'completion', 'claim', 'refusal'])))
    .groupBy(bucketExpr, t.kind);
  const keyRows = await db
    .select({ kind: t.kind, key: t.key, n: sql<string>`sum(${t.count})`, amount: sql<string>`sum(${t.amount})` })
    .from(t)
    .where(inRange)
    .groupBy(t.kind, t.key);

  const series: Analytics['series'] = [];
  const index = new Map<number, Analytics['series'][number]>();
  for (let start = from; start < to; start += bucketMs) {
    const entry = { start, events: 0, completions: 0, claims: 0, claimsRefused: 0 };
    series.push(entry);
    index.set(start, entry);
  }
  for (const row of seriesRows) {
    const entry = index.get(Number(row.start));
    if (!entry) continue;
    const n = Number(row.n);
    if (row.kind === 'event') entry.events += n;
    else if (row.kind === 'completion') entry.completions += n;
    else if (row.kind === 'claim') entry.claims += n;
    else if (row.kind === 'refusal') entry.claimsRefused += n;
  }

  const eventNames: Analytics['eventNames'] = [];
  const missions = new Map<string, Analytics['missions'][number]>();
  const currencies: Analytics['currencies'] = [];
  const refusals: Analytics['refusals'] = [];
  const mission = (id: string) => missions.get(id) ?? missions.set(id, { missionId: id, completions: 0, claims: 0 }).get(id)!;
  for (const row of keyRows) {
    const n = Number(row.n);
    if (row.kind === 'event') eventNames.push({ name: row.key, count: n });
    else if (row.kind === 'completion') mission(row.key).completions += n;
    else if (row.kind === 'claim') mission(row.key).claims += n;
    else if (row.kind === 'currency') currencies.push({ currency: row.key, amount: Number(row.amount), grants: n });
    else if (row.kind === 'refusal') refusals.push({ ...parseRefusalRollupKey(row.key), count: n });
  }
  const byCount = <T>(value: (x: T) => number, name: (x: T) => string) => (a: T, b: T) => value(b) - value(a) || name(a).localeCompare(name(b));

  const sum = (pick: (e: Analytics['series'][number]) => number) => series.reduce((acc, e) => acc + pick(e), 0);
  return {
    appId,
    from,
    to,
    bucket,
    bucketMs,
    totals: {
      events: sum((e) => e.events),
      completions: sum((e) => e.completions),
      claims: sum((e) => e.claims),
      claimsRefused: sum((e) => e.claimsRefused),
    },
    series,
    eventNames: eventNames.sort(byCount((e) => e.count, (e) => e.name)).slice(0, MAX_EVENT_NAMES),
    missions: [...missions.values()].sort(byCount((m) => m.completions * 1e6 + m.claims, (m) => m.missionId)),
    currencies: currencies.sort(byCount((c) => c.amount, (c) => c.currency)),
    refusals: refusals.sort(byCount((r) => r.count, (r) => `${r.campaignId} ${r.currency}`)),
  };
}
