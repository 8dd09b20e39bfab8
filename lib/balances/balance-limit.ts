// The refusal of a grant or claim that would take a balance past its
// currency's maxBalance (issue 39 §1): 409 balance_limit, nothing written.
import { AppError } from '@/lib/errors';

export function balanceLimit(currency: string, maxBalance: number, before: number | null, amount: number): AppError {
  const held = before === null ? '' : ` (the balance is ${before})`;
  return new AppError('balance_limit', `A ${currency} balance may hold at most ${maxBalance}${held}; adding ${amount} would take it past that`, {
    extra: { limit: maxBalance },
  });
}
