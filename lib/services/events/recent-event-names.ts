// Event-name suggestions for the console's criteria builder: the distinct
// names among the app's most recent events (a bounded slice read backwards
// along events_app_received_idx, so the cost does not grow with history),
// then the names its missions already use.
import { desc, eq, sql } from 'drizzle-orm';
import { events, missions } from '@/db/schema';
import { EVENT_NAME_SUGGESTIONS, type EventNameList } from '@/lib/contract/mission-admin';
import type { ServiceContext } from '../context';

export async function recentEventNames({ ctx }: { ctx: ServiceContext }): Promise<EventNameList> {
  const { appId } = ctx;
  const { db } = ctx.deps;
  const limits = EVENT_NAME_SUGGESTIONS;
  const recent = db
    .select({ name: events.name, receivedAt: events.receivedAt })
    .from(events)
    .where(eq(events.appId, appId))
    .orderBy(desc(events.receivedAt))
    .limit(limits.scanned)
    .as('recent');
  const lastSeen = sql<number>`max(${recent.receivedAt})`.mapWith(Number);
  const [seen, used] = await Promise.all([
    db.select({ name: recent.name, lastSeenAt: lastSeen }).from(recent).groupBy(recent.name).orderBy(desc(lastSeen)).limit(limits.max),
    db
      .selectDistinct({ name: sql<string>`${missions.criteria}->>'eventName'` })
      .from(missions)
      .where(eq(missions.appId, appId))
      .limit(limits.max),
  ]);
  const names = new Set(seen.map((s) => s.name));
  const eventNames: EventNameList['eventNames'] = seen.map((s) => ({ name: s.name, lastSeenAt: s.lastSeenAt }));
  for (const { name } of used.sort((a, b) => a.name.localeCompare(b.name))) {
    if (eventNames.length >= limits.max) break;
    if (!names.has(name)) eventNames.push({ name, lastSeenAt: null });
  }
  return { eventNames };
}
