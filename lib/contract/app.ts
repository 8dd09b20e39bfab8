// Apps (admin API): the shapes it validates and answers, shared with the
// console's forms and the admin OpenAPI document. Imports nothing server-side.
import { z } from 'zod';
import { idSchema } from './common';

export const createAppSchema = z.object({ id: idSchema, name: z.string().trim().min(1, { error: 'Enter a name' }).max(200) });
export type CreateAppInput = z.infer<typeof createAppSchema>;

export const publicAppSchema = z
  .object({ id: z.string(), name: z.string(), createdAt: z.number(), secretRotatedAt: z.number() })
  .meta({ id: 'App' });
export type PublicApp = z.infer<typeof publicAppSchema>;
