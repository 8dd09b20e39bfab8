// The dashboard's counts over a resolved range of the context's app: events,
// completions and claims per bucket, per event name, per mission, and currency
// granted per currency (lib/analytics/read-analytics.ts reads the rollups).
import { readAnalytics, type AnalyticsRange } from '@/lib/analytics/read-analytics';
import type { Analytics } from '@/lib/contract/analytics';
import type { ServiceContext } from '../context';

export function getAnalytics({ ctx, input }: { ctx: ServiceContext; input: Omit<AnalyticsRange, 'appId'> }): Promise<Analytics> {
  return readAnalytics(ctx.deps.db, { appId: ctx.appId, ...input });
}
