// Currency balances: every change is a ledger row; the balance row is the
// running sum, guarded never to go negative by a CHECK constraint.
import { and, eq } from 'drizzle-orm';
import { getDb, type DbOrTx } from '@/db/client';
import { balances } from '@/db/schema';
import type { Balance } from '@/lib/contract/balance';
import { AppError } from '@/lib/errors';

export function toBalance(row: typeof balances.$inferSelect): Balance {
  return { userId: row.userId, currency: row.currency, amount: row.amount, updatedAt: row.updatedAt };
}

export async function listBalances(db: DbOrTx, appId: string, userId: string): Promise<Balance[]> {
  const rows = await db
    .select()
    .from(balances)
    .where(and(eq(balances.appId, appId), eq(balances.userId, userId)))
    .orderBy(balances.currency);
  return rows.map(toBalance);
}

async function findBalance(db: DbOrTx, appId: string, userId: string, currency: string): Promise<Balance | null> {
  const rows = await db
    .select()
    .from(balances)
    .where(and(eq(balances.appId, appId), eq(balances.userId, userId), eq(balances.currency, currency)));
  return rows[0] ? toBalance(rows[0]) : null;
}

/**
 * GET /v1/balance: every balance of the caller (by currency code), or the one
 * of `currency` (`balance_not_found` when the user has none).
 */
export async function readBalances({
  ctx,
  input,
}: {
  ctx: { appId: string; userId: string; db?: DbOrTx };
  input: { currency?: string };
}): Promise<{ balances: Balance[] } | { balance: Balance }> {
  const db = ctx.db ?? (await getDb());
  if (input.currency === undefined) return { balances: await listBalances(db, ctx.appId, ctx.userId) };
  const balance = await findBalance(db, ctx.appId, ctx.userId, input.currency);
  if (!balance) throw new AppError('balance_not_found', `No ${input.currency} balance for this user`);
  return { balance };
}
