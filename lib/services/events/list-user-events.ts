// Every stored event of one user, newest first (event time, then arrival, then
// id), a page at a time, optionally of one name and within a time range, each
// with its verdicts on the current catalog: the inspector's events (its first
// page is the inspection's). Served by events_user_idx (app, user, timestamp);
// the cursor is the last row's (timestamp, receivedAt, id): keyset, never an offset.
import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { events } from '@/db/schema';
import type { Catalog } from '@/lib/catalog/catalog';
import type { InspectedEventPage, InspectorEventsQuery } from '@/lib/contract/inspector';
import { AppError } from '@/lib/errors';
import type { ServiceContext } from '../context';
import { eventVerdicts } from './event-verdicts';

function encodeCursor(timestamp: number, receivedAt: number, id: string): string {
  return Buffer.from(JSON.stringify([timestamp, receivedAt, id])).toString('base64url');
}

function decodeCursor(cursor: string): [number, number, string] {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && value.length === 3 && Number.isSafeInteger(value[0]) && Number.isSafeInteger(value[1]) && typeof value[2] === 'string') return [value[0], value[1], value[2]];
  } catch {
    // answered below
  }
  throw new AppError('validation_error', 'query.before: not a cursor this endpoint gave (pass nextCursor as it came)');
}

export async function listUserEvents({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: InspectorEventsQuery & { userId: string; catalog?: Catalog };
}): Promise<InspectedEventPage> {
  const { appId } = ctx;
  const where: SQL[] = [eq(events.appId, appId), eq(events.userId, input.userId)];
  if (input.name !== undefined) where.push(eq(events.name, input.name));
  if (input.from !== undefined) where.push(gte(events.timestamp, input.from));
  if (input.to !== undefined) where.push(lt(events.timestamp, input.to));
  if (input.before) {
    const [timestamp, receivedAt, id] = decodeCursor(input.before);
    where.push(sql`(${events.timestamp}, ${events.receivedAt}, ${events.id}) < (${timestamp}, ${receivedAt}, ${id})`);
  }
  const catalog = input.catalog ?? (await ctx.deps.catalog(appId));
  const rows = await ctx.deps.db
    .select()
    .from(events)
    .where(and(...where))
    .orderBy(desc(events.timestamp), desc(events.receivedAt), desc(events.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  // One reading of the clock for the whole page.
  const now = ctx.now();
  const atNow = { now: () => now };
  return {
    events: page.map((e) => ({ id: e.id, name: e.name, payload: e.payload, timestamp: e.timestamp, receivedAt: e.receivedAt, source: e.source, verdicts: eventVerdicts({ ctx: atNow, input: { catalog, event: e } }) })),
    nextCursor: rows.length > input.limit && last ? encodeCursor(last.timestamp, last.receivedAt, last.id) : null,
  };
}
