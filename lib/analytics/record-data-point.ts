// Analytics data points: one row per ingested event or claim, for the console's
// charts and exports. Written after the change commits; a failure is logged,
// never fails the request.
import { getDb } from '@/db/client';
import { analyticsPoints } from '@/db/schema';
import { logError } from '@/lib/log';

export interface DataPoint {
  appId: string;
  userId: string;
  kind: 'event' | 'claim';
  name: string;
  properties: Record<string, unknown>;
}

export async function recordDataPoint(point: DataPoint, now = Date.now()): Promise<void> {
  try {
    const db = await getDb();
    await db.insert(analyticsPoints).values({ ...point, at: now });
  } catch (err) {
    logError('analytics data point lost', err, { appId: point.appId, kind: point.kind });
  }
}
