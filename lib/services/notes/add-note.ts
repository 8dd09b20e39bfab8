// A support note on a player, with its author and time: stored and audited in
// one transaction, idempotent under the caller's key. Notes are staff-only:
// nothing goes to the player's stream.
import { userNotes } from '@/db/schema';
import type { Note } from '@/lib/contract/desk';
import type { Outcome } from '@/lib/idempotency/run-idempotent';
import { actorLabel, type ServiceContext } from '../context';
import { staffWrite } from '../_shared/staff-write';

export async function addNote({ ctx, input }: { ctx: ServiceContext; input: { userId: string; text: string; idempotencyKey: string | null } }): Promise<Outcome<{ note: Note }>> {
  const { userId, text } = input;
  return staffWrite(ctx, { userId, op: 'note', idempotencyKey: input.idempotencyKey, request: { text }, unseenUser: 'allow' }, async (tx) => {
    const [row] = await tx.uow.tx
      .insert(userNotes)
      .values({ appId: ctx.appId, userId, author: actorLabel(ctx.actor), text, createdAt: ctx.now() })
      .returning();
    const note = { id: row.id, author: row.author, text: row.text, createdAt: row.createdAt };
    return { body: { note }, audit: { after: { noteId: note.id, text } } };
  });
}
