import { z } from 'zod';

export const balanceSchema = z
  .object({
    userId: z.string(),
    currency: z.string(),
    amount: z.number().int().nonnegative(),
    updatedAt: z.number(),
  })
  .meta({ id: 'Balance' });
export type Balance = z.infer<typeof balanceSchema>;
