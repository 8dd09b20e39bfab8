// GET /v1/balance: every balance of the acting player (by currency code), or
// the one of `currency` (`balance_not_found` when the player has none), each
// with its currency's display name when the app defines its currencies.
import type { Balance } from '@/lib/contract/balance';
import { findBalance, listBalances } from '@/lib/balances/balances';
import { AppError } from '@/lib/errors';

type ShownBalance = Balance & { name?: string };
import type { ServiceContext } from '../context';

export async function readBalances({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { userId: string; currency?: string };
}): Promise<{ balances: ShownBalance[] } | { balance: ShownBalance }> {
  const { db } = ctx.deps;
  // The display name of a defined currency, added (an app that defines none answers as before).
  const defined = (await ctx.deps.catalog(ctx.appId)).economy.currencies;
  const named = (b: Balance): ShownBalance => {
    const name = defined?.find((c) => c.id === b.currency)?.name;
    return name === undefined ? b : { ...b, name };
  };
  if (input.currency === undefined) return { balances: (await listBalances(db, ctx.appId, input.userId)).map(named) };
  const balance = await findBalance(db, ctx.appId, input.userId, input.currency);
  if (!balance) throw new AppError('balance_not_found', `No ${input.currency} balance for this user`);
  return { balance: named(balance) };
}
