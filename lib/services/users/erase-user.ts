// A data-erasure request, in one transaction under the player's lock: every
// token of the user so far is revoked; their events, progress, balances,
// ledger rows, notes, idempotency keys and app_users row are deleted; the
// audit entries about them keep who did what when, without the data (their
// before and after are cleared); one audit entry records the erasure (who,
// when, reason, how many rows). After commit: the revocation reaches the
// key-value store, the stream log is dropped, and the player's change number
// (bumped, so no cache of their old records is trusted again) is published
// empty, and the key-value store forgets the user's cached answers (the 24 h
// idempotency replays: a claim's holds progress and balance) and cached
// recommendations. The dashboard's aggregate counters stay (they hold no user id),
// and so does staff_grant_usage (no user id): a support member's daily grant
// total survives the erasure of a player they gave to.
// A later event for the same id starts a new, empty user.
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { auditLog, idempotencyKeys } from '@/db/schema';
import { revokeUserInTransaction } from '@/lib/auth/revocation';
import type { ErasureResult } from '@/lib/contract/desk';
import { recordAudit } from '@/lib/audit';
import { idempotencyCacheKey } from '@/lib/idempotency/run-idempotent';
import type { KV } from '@/lib/kv/types';
import { lockUser } from '@/lib/progress/records';
import { recommendationCacheKey } from '@/lib/recommendations/recommend';
import { actorLabel, withTransaction, type ServiceContext } from '../context';
import { nextUserSeq, userTarget } from '../_shared/staff-write';

/** The user's rows of each table erased, and the name the answer gives their count. */
const ERASED = [
  ['events', 'events'],
  ['progress', 'progress'],
  ['balances', 'balances'],
  ['ledger', 'ledger'],
  ['user_notes', 'notes'],
  ['idempotency_keys', 'idempotencyKeys'],
  ['app_users', null],
  // Outbound-webhook deliveries about the user (their data names the user), sent or not.
  ['webhook_deliveries', null],
  // The user's claims refused by a campaign's budget (the campaign's counters stay: no user id).
  ['claim_refusals', null],
] as const;

async function deleteRows(tx: Tx, table: string, appId: string, userId: string): Promise<number> {
  const result = await tx.execute(
    sql`with d as (delete from ${sql.identifier(table)} where app_id = ${appId} and user_id = ${userId} returning 1) select count(*)::int as n from d`,
  );
  return Number((result as unknown as { rows: Array<{ n: number }> }).rows[0].n);
}

/** Deletes the store's cached answers of the user's idempotency keys and their cached recommendations, a few at a time. */
async function forgetCached(kv: KV, appId: string, userId: string, keys: string[]): Promise<void> {
  const cached = [recommendationCacheKey(appId, userId), ...keys.map((key) => idempotencyCacheKey(appId, userId, key))];
  for (let i = 0; i < cached.length; i += 100) await Promise.all(cached.slice(i, i + 100).map((key) => kv.del(key)));
}

export async function eraseUser({ ctx, input }: { ctx: ServiceContext; input: { userId: string; reason: string } }): Promise<ErasureResult> {
  const { appId } = ctx;
  const { userId, reason } = input;
  return withTransaction(ctx, async (tx) => {
    const db = tx.uow.tx;
    const now = ctx.now();
    await lockUser(db, appId, userId);
    // The keys whose answers the key-value store may still cache, read before their rows go.
    const keys = (await db.select({ key: idempotencyKeys.key }).from(idempotencyKeys).where(and(eq(idempotencyKeys.appId, appId), eq(idempotencyKeys.userId, userId)))).map((r) => r.key);
    const removed = { events: 0, progress: 0, balances: 0, ledger: 0, notes: 0, idempotencyKeys: 0 };
    for (const [table, name] of ERASED) {
      const n = await deleteRows(db, table, appId, userId);
      if (name) removed[name] = n;
    }
    // What staff did stays (who, what, when); what it was about goes.
    await db.update(auditLog).set({ before: null, after: null }).where(and(eq(auditLog.appId, appId), eq(auditLog.target, userTarget(userId))));
    const cacheRevocation = await revokeUserInTransaction(db, appId, userId, now);
    const seq = await nextUserSeq(db, appId, userId);
    await recordAudit(db, { actor: actorLabel(ctx.actor), action: 'user.erase', appId, target: userTarget(userId), after: { reason, removed, tokensRevokedBefore: now } }, now);
    tx.uow.afterCommit(async () => {
      await cacheRevocation();
      await ctx.deps.eraseStream(appId, userId);
      await ctx.deps.publish(appId, userId, seq, []);
    });
    // A step of its own: an unreachable store at this moment leaves the answers to expire (logged), nothing else.
    tx.uow.afterCommit(() => forgetCached(ctx.deps.kv, appId, userId, keys));
    return { erased: true, userId, removed };
  });
}
