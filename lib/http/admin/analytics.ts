// GET /api/admin/apps/:appId/analytics – the dashboard's counts over a range:
// events, completions and claims per bucket, per event name, per mission, and
// currency granted per currency (lib/services/analytics/get-analytics.ts).
// The range is checked first (400), then the app (404).
import { serviceNow } from '@/lib/clock';
import { analyticsQuerySchema, resolveAnalyticsRange } from '@/lib/contract/analytics';
import { AppError } from '@/lib/errors';
import { getAnalytics as readAppAnalytics } from '@/lib/services/analytics/get-analytics';
import { adminRoute } from '../handler';
import { json } from '../respond';
import { adminServiceContext } from '../service-context';
import { parseWith, queryOf } from '../validate';

export const getAnalytics = adminRoute('analytics.read', async (request) => {
  const query = parseWith(analyticsQuerySchema, queryOf(request.req));
  const range = resolveAnalyticsRange(query, serviceNow());
  if ('error' in range) throw new AppError('validation_error', range.error);
  const ctx = await adminServiceContext(request, request.params.appId);
  return json(await readAppAnalytics({ ctx, input: { bucket: query.bucket, ...range } }));
});
