// The support-note verbs called directly with a ServiceContext, no server:
// a note is stored with its author (the acting staff member) and time and
// audited in the same transaction; the Idempotency-Key replays it once stored;
// notes are listed newest first, per app and player; nothing goes to the stream.
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { auditLog, userNotes } from '@/db/schema';
import { testServiceContext, type TestServiceContext } from '@/lib/testing/service-context';
import { uniqueId } from '@/lib/testing/test-env';
import { withTransaction, type ServiceContext } from '../context';
import { addNote } from './add-note';
import { listNotes } from './list-notes';

const NOW = 1_764_000_000_000;
let t: TestServiceContext;
let db: Db;

beforeAll(async () => {
  t = await testServiceContext('notes', { actor: { kind: 'staff', id: 'sam@example.com', role: 'support' }, now: NOW });
  db = t.db;
});

/** A context for a fresh app, at `now`. */
const appCtx = (now = NOW): ServiceContext => ({ ...t.ctx, appId: uniqueId('app'), now: () => now });

describe('addNote / listNotes', () => {
  it('stores the note with author and time, audits it as user.note, publishes nothing', async () => {
    const ctx = appCtx();
    const before = t.published.length;
    const outcome = await addNote({ ctx, input: { userId: 'u1', text: 'Called about the lost chest', idempotencyKey: null } });
    expect(outcome.body.note).toMatchObject({ author: 'staff:sam@example.com', text: 'Called about the lost chest', createdAt: NOW });
    const [audit, ...more] = await db.select().from(auditLog).where(eq(auditLog.appId, ctx.appId));
    expect(more).toEqual([]);
    expect(audit).toMatchObject({ actor: 'staff:sam@example.com', action: 'user.note', target: 'user:u1', at: NOW });
    expect(audit.after).toEqual({ noteId: outcome.body.note.id, text: 'Called about the lost chest' });
    expect(t.published.length).toBe(before);
  });

  it('lists the player’s notes newest first, not another player’s or another app’s', async () => {
    const ctx = appCtx();
    await addNote({ ctx, input: { userId: 'u1', text: 'first', idempotencyKey: null } });
    await addNote({ ctx: { ...ctx, now: () => NOW + 1 }, input: { userId: 'u1', text: 'second', idempotencyKey: null } });
    await addNote({ ctx, input: { userId: 'u2', text: 'other player', idempotencyKey: null } });
    await addNote({ ctx: { ...ctx, appId: uniqueId('app') }, input: { userId: 'u1', text: 'other app', idempotencyKey: null } });
    const { notes } = await listNotes({ ctx, input: { userId: 'u1' } });
    expect(notes.map((n) => n.text)).toEqual(['second', 'first']);
    expect(notes[0].createdAt).toBe(NOW + 1);
  });

  it('replays a stored note under the same Idempotency-Key and refuses the key with another text (422)', async () => {
    const ctx = appCtx();
    const first = await addNote({ ctx, input: { userId: 'u1', text: 'once', idempotencyKey: 'k' } });
    const again = await addNote({ ctx, input: { userId: 'u1', text: 'once', idempotencyKey: 'k' } });
    expect(again.replay).not.toBeNull();
    expect(again.body).toEqual(first.body);
    await expect(addNote({ ctx, input: { userId: 'u1', text: 'changed', idempotencyKey: 'k' } })).rejects.toMatchObject({ status: 422 });
    expect((await listNotes({ ctx, input: { userId: 'u1' } })).notes).toHaveLength(1);
    expect(await db.select().from(auditLog).where(eq(auditLog.appId, ctx.appId))).toHaveLength(1);
  });

  it('nests in a caller transaction: a rollback takes the note and its audit row', async () => {
    const ctx = appCtx();
    await expect(
      withTransaction(ctx, async (tx) => {
        await addNote({ ctx: tx, input: { userId: 'u1', text: 'rolled back', idempotencyKey: null } });
        throw new Error('caller fails after the verb');
      }),
    ).rejects.toThrow('caller fails');
    expect(await db.select().from(userNotes).where(eq(userNotes.appId, ctx.appId))).toEqual([]);
    expect(await db.select().from(auditLog).where(eq(auditLog.appId, ctx.appId))).toEqual([]);
  });
});
