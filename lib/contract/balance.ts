// A user's balance of one currency, identified by (userId, currency).
import { z } from 'zod';

export const balanceSchema = z.object({
  userId: z.string(),
  currency: z.string(),
  amount: z.number().int().nonnegative(),
  updatedAt: z.number(),
});
export type Balance = z.infer<typeof balanceSchema>;
