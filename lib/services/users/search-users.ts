// Finding a player: the app's users whose id contains the query anywhere, in
// any case (all of them without one), most recently seen first, a page at a
// time. Served by app_users (upserted by each event's write): first the most
// recent users through the (app, last seen, user) index, then, for a fragment
// too rare to fill a page there, the trigram index (pg_trgm; a fragment under
// 3 characters has no trigram and walks the recency index). The cursor is the
// last row's (lastSeenAt, userId): keyset, never an offset.
import { and, desc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import { appUsers } from '@/db/schema';
import type { UserPage, UserSearchQuery } from '@/lib/contract/desk';
import { AppError } from '@/lib/errors';
import type { ServiceContext } from '../context';

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function encodeCursor(lastSeenAt: number, userId: string): string {
  return Buffer.from(JSON.stringify([lastSeenAt, userId])).toString('base64url');
}

function decodeCursor(cursor: string): [number, string] {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && value.length === 2 && Number.isSafeInteger(value[0]) && typeof value[1] === 'string') return [value[0], value[1]];
  } catch {
    // answered below
  }
  throw new AppError('validation_error', 'query.cursor: not a cursor this endpoint gave (pass nextCursor as it came)');
}

/**
 * How many of the most recently seen users (from the cursor) a search reads
 * first, through the recency index alone: a fragment that many players share
 * ("p-7f": one id in 256) fills its page there in a few milliseconds, where
 * the trigram index would fetch and sort every one of its thousands of rows.
 * A rarer fragment (fewer than a page among these) is looked up through the
 * trigram index, which then has few rows to fetch (docs/benchmarks.md,
 * "Player search at 1 million users").
 */
const RECENT_FIRST = 20_000;

export async function searchUsers({ ctx, input }: { ctx: ServiceContext; input: UserSearchQuery }): Promise<UserPage> {
  const where: SQL[] = [eq(appUsers.appId, ctx.appId)];
  if (input.cursor) {
    const [seen, userId] = decodeCursor(input.cursor);
    where.push(sql`(${appUsers.lastSeenAt}, ${appUsers.userId}) < (${seen}, ${userId})`);
  }
  const columns = { userId: appUsers.userId, firstSeenAt: appUsers.firstSeenAt, lastSeenAt: appUsers.lastSeenAt, events: appUsers.events };
  const order = [desc(appUsers.lastSeenAt), desc(appUsers.userId)];
  const { db } = ctx.deps;
  let rows: Array<{ userId: string; firstSeenAt: number; lastSeenAt: number; events: number }>;
  if (input.query) {
    const pattern = `%${escapeLike(input.query)}%`;
    // Only the recency index's own columns: read from the index, not the table.
    const recent = db.select({ userId: appUsers.userId, lastSeenAt: appUsers.lastSeenAt }).from(appUsers).where(and(...where)).orderBy(...order).limit(RECENT_FIRST).as('recent');
    const found = await db
      .select()
      .from(recent)
      .where(ilike(recent.userId, pattern))
      .orderBy(desc(recent.lastSeenAt), desc(recent.userId))
      .limit(input.limit + 1);
    // A full page among the most recent users is the page: nobody seen earlier comes before them.
    rows =
      found.length > input.limit
        ? await db.select(columns).from(appUsers).where(and(eq(appUsers.appId, ctx.appId), inArray(appUsers.userId, found.map((r) => r.userId)))).orderBy(...order)
        : await db.select(columns).from(appUsers).where(and(...where, ilike(appUsers.userId, pattern))).orderBy(...order).limit(input.limit + 1);
  } else {
    rows = await db.select(columns).from(appUsers).where(and(...where)).orderBy(...order).limit(input.limit + 1);
  }
  const users = rows.slice(0, input.limit);
  const last = users[users.length - 1];
  return { users, nextCursor: rows.length > input.limit && last ? encodeCursor(last.lastSeenAt, last.userId) : null };
}
