// A player's support notes, newest first.
import { and, desc, eq } from 'drizzle-orm';
import { userNotes } from '@/db/schema';
import type { Note } from '@/lib/contract/desk';
import type { ServiceContext } from '../context';

const NOTES_LIMIT = 100;

export async function listNotes({ ctx, input }: { ctx: ServiceContext; input: { userId: string } }): Promise<{ notes: Note[] }> {
  const rows = await ctx.deps.db
    .select({ id: userNotes.id, author: userNotes.author, text: userNotes.text, createdAt: userNotes.createdAt })
    .from(userNotes)
    .where(and(eq(userNotes.appId, ctx.appId), eq(userNotes.userId, input.userId)))
    .orderBy(desc(userNotes.id))
    .limit(NOTES_LIMIT);
  return { notes: rows };
}
