// GET /v1/balance – the caller's currency balances (all, or ?currency=CODE)
import { readBalances } from '@/lib/balances/balances';
import { balanceQuerySchema } from '@/lib/contract/v1';
import { userRoute } from '../handler';
import { json } from '../respond';
import { parseWith, queryOf } from '../validate';

export const getBalance = userRoute({}, async ({ req, auth }) => {
  const { currency } = parseWith(balanceQuerySchema, queryOf(req));
  return json(await readBalances({ ctx: { appId: auth.appId, userId: auth.userId }, input: { currency } }));
});
