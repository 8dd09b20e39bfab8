// Finding a player: the app's users whose id contains the query anywhere, in
// any case (all of them without one), most recently seen first, a page at a
// time. Served by app_users (upserted by each event's write): the fragment
// through its trigram index (pg_trgm; a fragment under 3 characters has no
// trigram and walks the recency index instead), the order through its (app,
// last seen, user) index. The cursor is the last row's (lastSeenAt, userId):
// keyset, never an offset.
import { and, desc, eq, ilike, sql, type SQL } from 'drizzle-orm';
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

export async function searchUsers({ ctx, input }: { ctx: ServiceContext; input: UserSearchQuery }): Promise<UserPage> {
  const where: SQL[] = [eq(appUsers.appId, ctx.appId)];
  if (input.query) where.push(ilike(appUsers.userId, `%${escapeLike(input.query)}%`));
  if (input.cursor) {
    const [seen, userId] = decodeCursor(input.cursor);
    where.push(sql`(${appUsers.lastSeenAt}, ${appUsers.userId}) < (${seen}, ${userId})`);
  }
  const rows = await ctx.deps.db
    .select({ userId: appUsers.userId, firstSeenAt: appUsers.firstSeenAt, lastSeenAt: appUsers.lastSeenAt, events: appUsers.events })
    .from(appUsers)
    .where(and(...where))
    .orderBy(desc(appUsers.lastSeenAt), desc(appUsers.userId))
    .limit(input.limit + 1);
  const users = rows.slice(0, input.limit);
  const last = users[users.length - 1];
  return { users, nextCursor: rows.length > input.limit && last ? encodeCursor(last.lastSeenAt, last.userId) : null };
}
