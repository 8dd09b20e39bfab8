// A staff grant (positive amount) or correction (negative) of one currency:
// the balance moves and a ledger row records the amount, the staff member and
// the reason, in one transaction with the audit row, under the player's lock;
// `balance.changed` goes out on the player's stream after commit. A
// correction that would take the balance below zero changes nothing (409
// insufficient_balance), so the balance stays the sum of the ledger.
// The support role is bounded by the app's grant limits of the currency
// (_shared/grant-limit.ts: per grant, and per staff member per UTC day under a
// lock of (app, staff member, currency), so two concurrent grants cannot both
// pass): past one, 403 grant_limit_exceeded and nothing changes. Admins and the admin API key have
// no limit; an over-limit grant of theirs is audited with overLimit: true.
// A user the app has never seen is refused (404 user_not_found) unless createUser.
// An app that defines its currencies (issue 39 §1): a currency it does not
// define is refused (400, the nearest id suggested), and a grant taking the
// balance past the currency's maxBalance answers 409 balance_limit (a
// correction, which lowers it, never does).
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { balances, ledger } from '@/db/schema';
import type { GrantInput, GrantResult } from '@/lib/contract/desk';
import { AppError } from '@/lib/errors';
import { checkGrantCurrency } from '@/lib/catalog/economy';
import { readEconomySections } from '@/lib/catalog/economy-sections';
import { balanceLimit } from '@/lib/balances/balance-limit';
import type { Outcome } from '@/lib/idempotency/run-idempotent';
import { actorLabel, type ServiceContext } from '../context';
import { chargeGrantLimit } from '../_shared/grant-limit';
import { staffWrite } from '../_shared/staff-write';
import { announceBalance } from '../_shared/balance-changed';

export interface GrantCommand extends GrantInput {
  userId: string;
  idempotencyKey: string | null;
}

export async function grant({ ctx, input }: { ctx: ServiceContext; input: GrantCommand }): Promise<Outcome<GrantResult>> {
  const { userId, currency, amount, reason } = input;
  const { appId } = ctx;
  const unseenUser = input.createUser === true ? 'create' : 'refuse';
  // Read before the transaction (the embedded database has one connection, and the catalog may load); inside a
  // caller's transaction (a unit of work holds that one connection) the definitions are read through it.
  const currencies = ctx.catalog
    ? ctx.catalog.economy.currencies
    : ctx.uow
      ? (await readEconomySections(ctx.uow.tx, appId)).currencies
      : (await ctx.deps.catalog(appId)).economy.currencies;
  checkGrantCurrency(currencies ?? null, currency);
  const maxBalance = currencies?.find((c) => c.id === currency)?.maxBalance;
  return staffWrite(ctx, { userId, op: 'grant', idempotencyKey: input.idempotencyKey, request: { currency, amount, reason }, unseenUser }, async (tx) => {
    const db = tx.uow.tx;
    const now = ctx.now();
    const overLimit = await chargeGrantLimit(db, ctx, currency, Math.abs(amount), now);
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
    // Past the currency's maxBalance: thrown inside the transaction, so the balance row above is rolled back with it.
    if (maxBalance !== undefined && amount > 0 && row.amount > maxBalance) throw balanceLimit(currency, maxBalance, before, amount);
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
    const balance = await announceBalance(tx, { appId, userId }, { currency, amount: row.amount, updatedAt: row.updatedAt }, now);
    const { appId: _a, userId: _u, grantKey: _g, ...shown } = entry;
    return {
      body: { balance, entry: shown },
      audit: {
        before: { currency, amount: before },
        after: { currency, amount: row.amount, change: amount, reason, ledgerId: entry.id, ...(overLimit ? { overLimit: true } : {}) },
      },
    };
  });
}
