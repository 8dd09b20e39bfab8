// Currency balances: every change is a ledger row; the balance row is the
// running sum, guarded never to go negative by a CHECK constraint.
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { balances } from '@/db/schema';
import type { Balance } from '@/lib/contract/balance';

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

export async function findBalance(db: DbOrTx, appId: string, userId: string, currency: string): Promise<Balance | null> {
  const rows = await db
    .select()
    .from(balances)
    .where(and(eq(balances.appId, appId), eq(balances.userId, userId), eq(balances.currency, currency)));
  return rows[0] ? toBalance(rows[0]) : null;
}
