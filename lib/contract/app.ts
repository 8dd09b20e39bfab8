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

/** The support role's grant limits of a currency the app sets nothing for (docs/api.md "Grant limits"). */
export const DEFAULT_GRANT_LIMIT = { perGrant: 1_000, perStaffPerDay: 5_000 } as const;

const limitValueSchema = z
  .int({ error: 'a whole amount, or null for no limit' })
  .min(1, { error: 'at least 1 (null: no limit)' })
  .max(1_000_000_000)
  .nullable()
  .optional();

const grantLimitSchema = z
  .object({
    perGrant: limitValueSchema.describe('The largest |amount| of one grant or correction; absent: the "*" entry’s, else the default; null: no limit'),
    perStaffPerDay: limitValueSchema.describe('The most one support member may grant or correct (sum of |amount|) per UTC day; absent: the "*" entry’s, else the default; null: no limit'),
  })
  .strict()
  .meta({ id: 'GrantLimit' });
type GrantLimit = z.infer<typeof grantLimitSchema>;

/** An app's grant limits for the support role, per currency; the key "*" applies to every currency not listed. */
const grantLimitsSchema = z
  .record(z.string().min(1).max(32), grantLimitSchema)
  .nullable()
  .meta({
    id: 'GrantLimits',
    description: `The support role's limits on staff grants and corrections, per currency ("*": every currency not listed); null or a field absent: the default, perGrant ${DEFAULT_GRANT_LIMIT.perGrant} and perStaffPerDay ${DEFAULT_GRANT_LIMIT.perStaffPerDay}. Admins and the admin API key have no limit (an over-limit grant of theirs is audited with overLimit: true).`,
    examples: [{ gems: { perGrant: 500, perStaffPerDay: 2_000 }, '*': { perGrant: 5_000 } }, null],
  });
export type GrantLimits = z.infer<typeof grantLimitsSchema>;

/** The limits of one currency: the app's entry for it, else its "*" entry, else the default, field by field (null: no limit). */
export function grantLimitOf(limits: GrantLimits, currency: string): { perGrant: number | null; perStaffPerDay: number | null } {
  const own = limits?.[currency];
  const any = limits?.['*'];
  const pick = (field: keyof GrantLimit) => (own?.[field] !== undefined ? own[field] : any?.[field] !== undefined ? any[field] : DEFAULT_GRANT_LIMIT[field]);
  return { perGrant: pick('perGrant') ?? null, perStaffPerDay: pick('perStaffPerDay') ?? null };
}

/** The two-person rule (docs/api.md "Approval"): a publish of the draft waits for another editor's or admin's approval. */
const requireApprovalSchema = z.boolean().meta({
  description: 'true: publishing the draft (now or scheduled) makes a pending approval that another editor or admin approves (POST …/draft/approve) or rejects; false (the default): a publish goes ahead at once',
  examples: [true],
});

/** PATCH /api/admin/apps/:appId: the app's settings to change (each field optional; at least one). */
export const updateAppSchema = z
  .object({
    name: z.string().trim().min(1, { error: 'Enter a name' }).max(200).optional(),
    webhookEventsPerMinute: webhookEventsPerMinuteSchema.optional(),
    grantLimits: grantLimitsSchema.optional(),
    requireApproval: requireApprovalSchema.optional(),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, { error: 'Send at least one of name, webhookEventsPerMinute, grantLimits, requireApproval' })
  .meta({ id: 'UpdateApp', examples: [{ webhookEventsPerMinute: 120_000 }, { webhookEventsPerMinute: null }, { grantLimits: { gems: { perGrant: 500, perStaffPerDay: 2_000 } } }, { requireApproval: true }] });
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
    grantLimits: grantLimitsSchema,
    requireApproval: requireApprovalSchema,
  })
  .meta({ id: 'App' });
export type PublicApp = z.infer<typeof publicAppSchema>;

/** The answer of POST /api/admin/apps/:appId/rotate-webhook-secret (the secret is shown this once). */
export const rotatedWebhookSecretSchema = z
  .object({ appId: z.string(), webhookSecret: z.string(), previousSecretExpiresAt: z.number().nullable() })
  .meta({ id: 'RotatedWebhookSecret' });
export type RotatedWebhookSecret = z.infer<typeof rotatedWebhookSecretSchema>;
