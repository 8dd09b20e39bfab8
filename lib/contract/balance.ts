// A user's balance of one currency, identified by (userId, currency).
import { z } from 'zod';

export const balanceSchema = z.object({
  userId: z.string(),
  currency: z.string(),
  amount: z.number().int().nonnegative(),
  updatedAt: z.number(),
  /** GET /v1/balance adds it (issue 39 §1); absent elsewhere and for a currency the app does not define. */
  name: z.string().optional().describe('The currency’s display name, when the app defines its currencies (GET /v1/balance)'),
});
export type Balance = z.infer<typeof balanceSchema>;
