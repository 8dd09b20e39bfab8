// GET /v1/balance – the caller's currency balances (all, or ?currency=CODE)
import { readBalances } from '@/lib/services/balances/read-balances';
import { balanceQuerySchema } from '@/lib/contract/v1';
import { userRoute } from '../handler';
import { json } from '../respond';
import { parseWith, queryOf } from '../validate';
import { userServiceContext } from '../service-context';

export const getBalance = userRoute({}, async ({ req, auth, requestId }) => {
  const { currency } = parseWith(balanceQuerySchema, queryOf(req));
  return json(await readBalances({ ctx: await userServiceContext(auth, requestId), input: { userId: auth.userId, currency } }));
});
