// GET /v1/balance: every balance of the acting player (by currency code), or
// the one of `currency` (`balance_not_found` when the player has none).
import type { Balance } from '@/lib/contract/balance';
import { findBalance, listBalances } from '@/lib/balances/balances';
import { AppError } from '@/lib/errors';
import type { ServiceContext } from '../context';

export async function readBalances({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; currency?: string };
}): Promise<{ balances: Balance[] } | { balance: Balance }> {
  const { db } = ctx.deps;
  if (input.currency === undefined) return { balances: await listBalances(db, ctx.appId, input.userId) };
  const balance = await findBalance(db, ctx.appId, input.userId, input.currency);
  if (!balance) throw new AppError('balance_not_found', `No ${input.currency} balance for this user`);
  return { balance };
}
