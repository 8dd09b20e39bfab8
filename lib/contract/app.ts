// Apps (admin API): the shapes it validates and answers, shared with the
// console's forms and the admin OpenAPI document. Imports nothing server-side.
import { z } from 'zod';
import { idSchema } from './common';

export const createAppSchema = z.object({ id: idSchema, name: z.string().trim().min(1, { error: 'Enter a name' }).max(200) });
export type CreateAppInput = z.infer<typeof createAppSchema>;

export const publicAppSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    createdAt: z.number(),
    secretRotatedAt: z.number(),
    /** While a rotated-out webhook secret is still accepted: until when (Unix ms); else null. */
    previousWebhookSecretExpiresAt: z.number().nullable(),
  })
  .meta({ id: 'App' });
export type PublicApp = z.infer<typeof publicAppSchema>;

/** The answer of POST /api/admin/apps/:appId/rotate-webhook-secret (the secret is shown this once). */
export const rotatedWebhookSecretSchema = z
  .object({ appId: z.string(), webhookSecret: z.string(), previousSecretExpiresAt: z.number().nullable() })
  .meta({ id: 'RotatedWebhookSecret' });
export type RotatedWebhookSecret = z.infer<typeof rotatedWebhookSecretSchema>;
