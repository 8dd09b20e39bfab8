// Apps (admin API): the shapes it validates and answers, shared with the
// console's forms and the admin OpenAPI document. Imports nothing server-side.
import { z } from 'zod';
import { idSchema } from './common';

export const createAppSchema = z.object({ id: idSchema, name: z.string().trim().min(1, { error: 'Enter a name' }).max(200) });
export type CreateAppInput = z.infer<typeof createAppSchema>;

/** The signed webhook's limit of an app that has none of its own: events (not deliveries) per minute. */
export const DEFAULT_WEBHOOK_EVENTS_PER_MINUTE = 60_000;
/** The highest limit an admin may set (1,000,000 events a minute: about 16,700 a second). */
const MAX_WEBHOOK_EVENTS_PER_MINUTE = 1_000_000;

/** An app's own webhook limit: a whole number of events per minute, or null for the default. */
export const webhookEventsPerMinuteSchema = z
  .int({ error: 'webhookEventsPerMinute: a whole number of events per minute, or null for the default' })
  .min(1, { error: `webhookEventsPerMinute: at least 1 event per minute (null restores the default, ${DEFAULT_WEBHOOK_EVENTS_PER_MINUTE})` })
  .max(MAX_WEBHOOK_EVENTS_PER_MINUTE, { error: `webhookEventsPerMinute: at most ${MAX_WEBHOOK_EVENTS_PER_MINUTE} events per minute` })
  .nullable()
  .meta({
    description: `The signed webhook's limit for this app, in events (not deliveries) per minute, 1 to ${MAX_WEBHOOK_EVENTS_PER_MINUTE}; null: the default, ${DEFAULT_WEBHOOK_EVENTS_PER_MINUTE}.`,
    examples: [120_000, null],
  });

/** PATCH /api/admin/apps/:appId: the app's settings to change (each field optional; at least one). */
export const updateAppSchema = z
  .object({
    name: z.string().trim().min(1, { error: 'Enter a name' }).max(200).optional(),
    webhookEventsPerMinute: webhookEventsPerMinuteSchema.optional(),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, { error: 'Send at least one of name, webhookEventsPerMinute' })
  .meta({ id: 'UpdateApp', examples: [{ webhookEventsPerMinute: 120_000 }, { webhookEventsPerMinute: null }] });
export type UpdateAppInput = z.infer<typeof updateAppSchema>;

export const publicAppSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    createdAt: z.number(),
    secretRotatedAt: z.number(),
    /** While a rotated-out webhook secret is still accepted: until when (Unix ms); else null. */
    previousWebhookSecretExpiresAt: z.number().nullable(),
    webhookEventsPerMinute: webhookEventsPerMinuteSchema,
  })
  .meta({ id: 'App' });
export type PublicApp = z.infer<typeof publicAppSchema>;

/** The answer of POST /api/admin/apps/:appId/rotate-webhook-secret (the secret is shown this once). */
export const rotatedWebhookSecretSchema = z
  .object({ appId: z.string(), webhookSecret: z.string(), previousSecretExpiresAt: z.number().nullable() })
  .meta({ id: 'RotatedWebhookSecret' });
export type RotatedWebhookSecret = z.infer<typeof rotatedWebhookSecretSchema>;
