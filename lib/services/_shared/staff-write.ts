// The frame of every support-desk write: one transaction (reusing the
// caller's), the player's lock, the Idempotency-Key's row (the project's
// mechanism: lib/idempotency/run-idempotent.ts, 24 h cached answers, 422 on a
// reused key) and the audit row with the staff member and the reason, all in
// it. A failed write stores nothing, so it can be retried under the same key.
// A user the app has never seen (no app_users row) is refused with 404
// user_not_found unless the request says createUser: true, which creates the
// row (first seen now) in the same transaction.
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { appUsers } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import { AppError } from '@/lib/errors';
import { hashRequest, runIdempotent, type Outcome } from '@/lib/idempotency/run-idempotent';
import { actorLabel, withTransaction, type ServiceContext, type TxContext } from '../context';

export interface StaffWrite {
  /** The player acted on. */
  userId: string;
  /** The operation, namespacing the key (`desk:<op>:<key>`) and naming the audit action `user.<op>`. */
  op: string;
  /** The caller's Idempotency-Key, or null. */
  idempotencyKey: string | null;
  /** The request as a whole (the same key with another request is refused). */
  request: Record<string, unknown>;
  /** A user the app has never seen: refused (404 user_not_found), created (first seen now) or left as is (notes). */
  unseenUser: 'refuse' | 'create' | 'allow';
}

export interface Applied<T> {
  body: T;
  /** The audit row's before and after (no more than the change needs). */
  audit: { before?: unknown; after: unknown };
}

/** The audit target of a player: `user:<id>` (GET /api/admin/audit?target=user:<id> lists what staff did to them). */
export const userTarget = (userId: string) => `user:${userId}`;

/** Bumps the player's change counter (already locked) and answers it: the stream publishes the change under that number. */
export async function nextUserSeq(tx: Tx, appId: string, userId: string): Promise<number> {
  // changed_at: this process's clock (a staff change's stream message is published before its request answers).
  const result = await tx.execute(
    sql`update user_sequences set seq = seq + 1, changed_at = ${Date.now()} where app_id = ${appId} and user_id = ${userId} returning seq::text as seq`,
  );
  return Number((result as unknown as { rows: Array<{ seq: string }> }).rows[0].seq);
}

/** Refuses a user the app has never seen unless `create`, which creates them (first seen now); true when it did. */
async function ensureUser(tx: Tx, appId: string, userId: string, create: boolean, now: number): Promise<boolean> {
  const [seen] = await tx.select({ userId: appUsers.userId }).from(appUsers).where(and(eq(appUsers.appId, appId), eq(appUsers.userId, userId))).limit(1);
  if (seen) return false;
  if (!create) {
    throw new AppError('user_not_found', `The app has never seen user "${userId}"; send createUser: true to act on them anyway`);
  }
  await tx.insert(appUsers).values({ appId, userId, firstSeenAt: now, lastSeenAt: now, events: 0 }).onConflictDoNothing();
  return true;
}

export async function staffWrite<T>(ctx: ServiceContext, write: StaffWrite, apply: (tx: TxContext) => Promise<Applied<T>>): Promise<Outcome<T>> {
  const scope = {
    appId: ctx.appId,
    userId: write.userId,
    key: write.idempotencyKey === null ? null : `desk:${write.op}:${write.idempotencyKey}`,
    requestHash: hashRequest({ op: write.op, ...write.request }),
  };
  return withTransaction(ctx, (tx) =>
    runIdempotent<T>(
      scope,
      async () => {
        const created = write.unseenUser !== 'allow' && (await ensureUser(tx.uow.tx, ctx.appId, write.userId, write.unseenUser === 'create', ctx.now()));
        const applied = await apply(tx);
        const audit = created ? { ...applied.audit, after: { ...(applied.audit.after as object), userCreated: true } } : applied.audit;
        await recordAudit(
          tx.uow.tx,
          { actor: actorLabel(ctx.actor), action: `user.${write.op}`, appId: ctx.appId, target: userTarget(write.userId), ...audit },
          ctx.now(),
        );
        return { status: 200, body: applied.body };
      },
      { uow: tx.uow },
    ),
  );
}
