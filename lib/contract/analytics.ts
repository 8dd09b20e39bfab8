// The dashboard's analytics (admin API): the query GET
// /api/admin/apps/:appId/analytics validates and the answer it gives, shared
// with the console and the admin OpenAPI document. Imports nothing server-side.
import { z } from 'zod';

export const ANALYTICS_BUCKETS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;
export type AnalyticsBucket = keyof typeof ANALYTICS_BUCKETS;
/** The longest range one request may cover. */
export const ANALYTICS_MAX_RANGE_MS = 31 * ANALYTICS_BUCKETS.day;
/** The most buckets one answer may hold (24 h by the minute is 1,440). */
const ANALYTICS_MAX_BUCKETS = 1_500;
/** Without `from`, the range is the hour before `to`. */
const ANALYTICS_DEFAULT_RANGE_MS = ANALYTICS_BUCKETS.hour;

const instant = () =>
  z.coerce
    .number({ error: 'expected Unix milliseconds' })
    .int({ error: 'expected Unix milliseconds (an integer)' })
    .min(0, { error: 'expected Unix milliseconds (not negative)' })
    .max(8_640_000_000_000_000, { error: 'out of range' });

export const analyticsQuerySchema = z
  .object({
    from: instant().optional().describe('Start of the range, Unix ms (rounded down to the bucket); default: `to` minus one hour'),
    to: instant().optional().describe('End of the range (exclusive), Unix ms (rounded up to the bucket); default: now'),
    bucket: z.enum(['minute', 'hour', 'day']).default('minute').describe('Size of the series buckets (UTC)'),
  })
  .strict();

/**
 * The range as answered: `from` rounded down and `to` rounded up to the
 * bucket, checked against the bounds. An error message, or the range.
 */
export function resolveAnalyticsRange(query: z.output<typeof analyticsQuerySchema>, now: number): { from: number; to: number; bucketMs: number } | { error: string } {
  const bucketMs = ANALYTICS_BUCKETS[query.bucket];
  const rawTo = query.to ?? now;
  const rawFrom = query.from ?? rawTo - ANALYTICS_DEFAULT_RANGE_MS;
  if (rawFrom >= rawTo) return { error: 'from: must be before to' };
  if (rawTo - rawFrom > ANALYTICS_MAX_RANGE_MS) return { error: `to: the range may cover at most ${ANALYTICS_MAX_RANGE_MS / ANALYTICS_BUCKETS.day} days` };
  const from = rawFrom - (rawFrom % bucketMs);
  const to = Math.ceil(rawTo / bucketMs) * bucketMs;
  if ((to - from) / bucketMs > ANALYTICS_MAX_BUCKETS) {
    return { error: `bucket: ${(to - from) / bucketMs} ${query.bucket} buckets is more than ${ANALYTICS_MAX_BUCKETS}; choose a larger bucket or a shorter range` };
  }
  return { from, to, bucketMs };
}

export const analyticsSchema = z
  .object({
    appId: z.string(),
    from: z.number().describe('Start of the range (inclusive), Unix ms, on a bucket boundary'),
    to: z.number().describe('End of the range (exclusive), Unix ms, on a bucket boundary'),
    bucket: z.enum(['minute', 'hour', 'day']),
    bucketMs: z.number(),
    totals: z.object({
      events: z.number().describe('Events recorded (API and webhook; replays not counted)'),
      completions: z.number().describe('Missions completed (each cycle of a recurring mission counts)'),
      claims: z.number().describe('Rewards claimed'),
      claimsRefused: z.number().describe('Claims refused because the campaign’s budget of the reward’s currency was spent (409 budget_exhausted; a retry under the same Idempotency-Key counted once)'),
    }),
    series: z
      .array(z.object({ start: z.number(), events: z.number(), completions: z.number(), claims: z.number(), claimsRefused: z.number() }))
      .describe('One entry per bucket from `from` to `to`, zeros included'),
    eventNames: z.array(z.object({ name: z.string(), count: z.number() })).describe('Events by name, most first (at most 100)'),
    missions: z.array(z.object({ missionId: z.string(), completions: z.number(), claims: z.number() })).describe('Missions completed or claimed in the range, most completions (then claims) first'),
    currencies: z.array(z.object({ currency: z.string(), amount: z.number(), grants: z.number() })).describe('Currency granted by claims, per currency'),
    refusals: z
      .array(z.object({ campaignId: z.string(), currency: z.string(), count: z.number() }))
      .describe('Claims refused by a campaign’s budget in the range, per campaign and currency, most first'),
  })
  .meta({ id: 'Analytics' });
export type Analytics = z.infer<typeof analyticsSchema>;
