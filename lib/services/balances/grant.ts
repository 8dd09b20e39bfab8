// A staff grant (positive amount) or correction (negative) of one currency:
// the balance moves and a ledger row records the amount, the staff member and
// the reason, in one transaction with the audit row, under the player's lock;
// `balance.changed` goes out on the player's stream after commit. A
// correction that would take the balance below zero changes nothing (409
// insufficient_balance), so the balance stays the sum of the ledger.
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { balances, ledger } from '@/db/schema';
import type { GrantInput, GrantResult } from '@/lib/contract/desk';
import { AppError } from '@/lib/errors';
import type { Outcome } from '@/lib/idempotency/run-idempotent';
import { actorLabel, type ServiceContext } from '../context';
import { nextUserSeq, staffWrite } from '../_shared/staff-write';
import { notify } from '../_shared/notify';

export interface GrantCommand extends GrantInput {
  userId: string;
  idempotencyKey: string | null;
}

export async function grant({ ctx, input }: { ctx: ServiceContext; input: GrantCommand }): Promise<Outcome<GrantResult>> {
  const { userId, currency, amount, reason } = input;
  const { appId } = ctx;
  return staffWrite(ctx, { userId, op: 'grant', idempotencyKey: input.idempotencyKey, request: { currency, amount, reason } }, async (tx) => {
    const db = tx.uow.tx;
    const now = ctx.now();
    const where = and(eq(balances.appId, appId), eq(balances.userId, userId), eq(balances.currency, currency));
    const [current] = await db.select({ amount: balances.amount }).from(balances).where(where);
    const before = current?.amount ?? 0;
    if (before + amount < 0) {
      throw new AppError('insufficient_balance', `The ${currency} balance is ${before}; a correction of ${amount} would take it below zero`);
    }
    const moved = { amount: sql`${balances.amount} + ${amount}`, updatedAt: now };
    // A correction only updates (the row exists: checked above); an insert's own row would fail the CHECK (amount >= 0) before any conflict.
    const [row] =
      amount < 0
        ? await db.update(balances).set(moved).where(where).returning()
        : await db
            .insert(balances)
            .values({ appId, userId, currency, amount, updatedAt: now })
            .onConflictDoUpdate({ target: [balances.appId, balances.userId, balances.currency], set: moved })
            .returning();
    const [entry] = await db
      .insert(ledger)
      .values({
        appId,
        userId,
        grantKey: `staff:${randomUUID()}`,
        kind: 'currency',
        currency,
        amount,
        balanceAfter: row.amount,
        createdAt: now,
        actor: actorLabel(ctx.actor),
        reason,
      })
      .returning();
    const seq = await nextUserSeq(db, appId, userId);
    const balance = { userId, currency, amount: row.amount, updatedAt: row.updatedAt };
    tx.uow.afterCommit(() => ctx.deps.publish(appId, userId, seq, [{ type: 'balance.changed', data: balance }]));
    await notify(tx, { appId, userId }, [{ type: 'balance.changed', data: balance }], now);
    const { appId: _a, userId: _u, grantKey: _g, ...shown } = entry;
    return {
      body: { balance, entry: shown },
      audit: { before: { currency, amount: before }, after: { currency, amount: row.amount, change: amount, reason, ledgerId: entry.id } },
    };
  });
}
