// The user verbs with rules, called directly with a ServiceContext, no server:
// setAttributes merges under the user's lock (null removes a key, at most 32
// after the merge or nothing is written) and publishes the bumped change
// number, empty, after commit; eraseUser deletes the player's rows, clears
// what the audit said about them (keeping who did what when), records the
// erasure, and drops the stream log and publishes after commit.
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { auditLog, balances, ledger, userNotes } from '@/db/schema';
import { MAX_ATTRIBUTES } from '@/lib/contract/attributes';
import { readAttributes } from '@/lib/users/attributes';
import { testServiceContext, type TestServiceContext } from '@/lib/testing/service-context';
import { uniqueId } from '@/lib/testing/test-env';
import { withTransaction, type ServiceContext } from '../context';
import { grant } from '../balances/grant';
import { addNote } from '../notes/add-note';
import { eraseUser } from './erase-user';
import { setAttributes } from './set-attributes';

const NOW = 1_764_000_000_000;
let t: TestServiceContext;
let db: Db;

beforeAll(async () => {
  t = await testServiceContext('users', { actor: { kind: 'staff', id: 'ana@example.com', role: 'admin' }, now: NOW });
  db = t.db;
});

/** A fresh app's context recording what it publishes and which stream logs it drops. */
function appCtx() {
  const published: TestServiceContext['published'] = [];
  const erasedStreams: string[] = [];
  const ctx: ServiceContext = {
    ...t.ctx,
    appId: uniqueId('app'),
    deps: {
      ...t.ctx.deps,
      publish: async (_a, userId, seq, updates) => void published.push({ userId, seq, updates }),
      eraseStream: async (_a, userId) => void erasedStreams.push(userId),
    },
  };
  return { ctx, published, erasedStreams };
}

describe('setAttributes({ ctx, input })', () => {
  it('merges into the stored attributes (null removes a key) and publishes each change number, empty, after commit', async () => {
    const { ctx, published } = appCtx();
    expect(await setAttributes({ ctx, input: { userId: 'u1', attributes: { level: 3, vip: true } } })).toEqual({ attributes: { level: 3, vip: true } });
    expect(await setAttributes({ ctx, input: { userId: 'u1', attributes: { level: 4, vip: null } } })).toEqual({ attributes: { level: 4 } });
    expect(await readAttributes(db, ctx.appId, 'u1')).toEqual({ level: 4 });
    expect(published).toEqual([
      { userId: 'u1', seq: 1, updates: [] },
      { userId: 'u1', seq: 2, updates: [] },
    ]);
  });

  it(`refuses a merge that would hold more than ${MAX_ATTRIBUTES} attributes (validation_error) and writes nothing`, async () => {
    const { ctx, published } = appCtx();
    const many = Object.fromEntries(Array.from({ length: MAX_ATTRIBUTES }, (_, i) => [`k${i}`, i]));
    await setAttributes({ ctx, input: { userId: 'u1', attributes: many } });
    await expect(setAttributes({ ctx, input: { userId: 'u1', attributes: { extra: 1 } } })).rejects.toMatchObject({ code: 'validation_error' });
    expect(Object.keys(await readAttributes(db, ctx.appId, 'u1'))).toHaveLength(MAX_ATTRIBUTES);
    // Replacing one key by another keeps the count: allowed.
    await setAttributes({ ctx, input: { userId: 'u1', attributes: { k0: null, extra: 1 } } });
    expect(await readAttributes(db, ctx.appId, 'u1')).toMatchObject({ extra: 1 });
    expect(published).toHaveLength(2);
  });

  it('inside a caller transaction that rolls back: nothing stored, nothing published', async () => {
    const { ctx, published } = appCtx();
    await expect(
      withTransaction(ctx, async (tx) => {
        await setAttributes({ ctx: tx, input: { userId: 'u1', attributes: { level: 9 } } });
        throw new Error('caller fails after the verb');
      }),
    ).rejects.toThrow('caller fails');
    expect(await readAttributes(db, ctx.appId, 'u1')).toEqual({});
    expect(published).toEqual([]);
  });
});

describe('eraseUser({ ctx, input })', () => {
  it('deletes the player’s rows, clears the audit’s data about them, records the erasure, drops the stream log and publishes', async () => {
    const { ctx, published, erasedStreams } = appCtx();
    await grant({ ctx, input: { userId: 'u1', currency: 'gold', amount: 30, reason: 'ticket 1', idempotencyKey: 'g1', createUser: true } });
    await addNote({ ctx, input: { userId: 'u1', text: 'private detail', idempotencyKey: null } });
    await grant({ ctx, input: { userId: 'u2', currency: 'gold', amount: 5, reason: 'other player', idempotencyKey: null, createUser: true } });
    const result = await eraseUser({ ctx, input: { userId: 'u1', reason: 'GDPR request 7' } });
    expect(result).toEqual({ erased: true, userId: 'u1', removed: { events: 0, progress: 0, balances: 1, ledger: 1, notes: 1, idempotencyKeys: 1 } });
    const ofUser = (table: typeof balances | typeof ledger | typeof userNotes) => db.select().from(table).where(and(eq(table.appId, ctx.appId), eq(table.userId, 'u1')));
    expect(await ofUser(balances)).toEqual([]);
    expect(await ofUser(ledger)).toEqual([]);
    expect(await ofUser(userNotes)).toEqual([]);
    // The other player keeps everything.
    expect(await db.select().from(balances).where(and(eq(balances.appId, ctx.appId), eq(balances.userId, 'u2')))).toHaveLength(1);
    const audit = await db.select().from(auditLog).where(and(eq(auditLog.appId, ctx.appId), eq(auditLog.target, 'user:u1')));
    const earlier = audit.filter((a) => a.action !== 'user.erase');
    expect(earlier.map((a) => a.action).sort()).toEqual(['user.grant', 'user.note']);
    expect(earlier.every((a) => a.before === null && a.after === null && a.actor === 'staff:ana@example.com')).toBe(true);
    const [erasure] = audit.filter((a) => a.action === 'user.erase');
    expect(erasure.after).toMatchObject({ reason: 'GDPR request 7', removed: result.removed, tokensRevokedBefore: NOW });
    expect(erasedStreams).toEqual(['u1']);
    // The grant took change 1 (a note takes none); the erasure takes the next.
    expect(published.at(-1)).toEqual({ userId: 'u1', seq: 2, updates: [] });
  });
});
