// GET /api/admin/apps/:appId/analytics – the dashboard's counts over a range:
// events, completions and claims per bucket, per event name, per mission, and
// currency granted per currency (lib/analytics/read-analytics.ts).
import { getDb } from '@/db/client';
import { readAnalytics } from '@/lib/analytics/read-analytics';
import { getApp } from '@/lib/apps/apps';
import { analyticsQuerySchema, resolveAnalyticsRange } from '@/lib/contract/analytics';
import { AppError } from '@/lib/errors';
import { adminRoute } from '../handler';
import { json } from '../respond';
import { parseWith, queryOf } from '../validate';

export const getAnalytics = adminRoute('analytics.read', async ({ req, params }) => {
  const query = parseWith(analyticsQuerySchema, queryOf(req));
  const range = resolveAnalyticsRange(query, Date.now());
  if ('error' in range) throw new AppError('validation_error', range.error);
  if (!(await getApp(params.appId))) throw new AppError('app_not_found', `No app "${params.appId}"`);
  return json(await readAnalytics(await getDb(), { appId: params.appId, bucket: query.bucket, ...range }));
});
