// GET /v1/balance – the caller's currency balances (all, or ?currency=CODE)
import { getDb } from '@/db/client';
import { findBalance, listBalances } from '@/lib/balances/balances';
import { balanceQuerySchema } from '@/lib/contract/v1';
import { AppError } from '@/lib/errors';
import { userRoute } from '../handler';
import { json } from '../respond';
import { parseWith, queryOf } from '../validate';

export const getBalance = userRoute({}, async ({ req, auth }) => {
  const { currency } = parseWith(balanceQuerySchema, queryOf(req));
  const db = await getDb();
  if (currency === undefined) return json({ balances: await listBalances(db, auth.appId, auth.userId) });
  const balance = await findBalance(db, auth.appId, auth.userId, currency);
  if (!balance) throw new AppError('balance_not_found', `No ${currency} balance for this user`);
  return json({ balance });
});
