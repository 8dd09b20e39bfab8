// Requests, queries and responses of the public API under /v1. Query schemas
// take strings (as a query string gives them) and coerce.
import { z } from 'zod';
import { attributesUpdateSchema } from './attributes';
import { balanceSchema } from './balance';
import { idSchema } from './common';
import { ledgerEntrySchema } from './inspector';
import { publicCampaignSchema } from './campaign';
import { publicMissionSchema, shownRewardSchema } from './mission';
import { missionProgressSchema, progressStatusSchema } from './progress';
import { isDotSegment } from './user-address';

/**
 * The user id of a token request or a webhook delivery, which may create the
 * user: not `.` or `..`, which no URL path can carry (user-address.ts).
 */
const newUserIdSchema = z
  .string()
  .min(1)
  .max(256)
  .refine((id) => !isDotSegment(id), 'must not be "." or ".." (no URL path segment can name such a user)');

// POST /v1/auth/token, POST /v1/auth/revoke
export const tokenRequestSchema = z.object({
  appId: z.string().min(1).max(64),
  appSecret: z.string().min(1).max(512),
  userId: newUserIdSchema,
  attributes: attributesUpdateSchema.optional(),
});
export const tokenResponseSchema = z.object({
  accessToken: z.string(),
  tokenType: z.literal('Bearer'),
  expiresIn: z.literal(3600),
  expiresAt: z.number(),
});
export const revokeResponseSchema = z.object({ revoked: z.literal(true) });

// POST /v1/events
export const eventSchema = z.object({
  userId: z.string().min(1).max(256).describe('Must equal the token subject'),
  name: z.string().min(1).max(128),
  payload: z.record(z.string(), z.unknown()).describe('Input of the mission criteria filters'),
  timestamp: z
    .number()
    .int()
    .nonnegative()
    .max(8_640_000_000_000_000)
    .describe('Unix ms (not seconds) of the event, as the device saw it: at most 5 minutes ahead of the server clock and at most 24 hours old, else 400 invalid_event. A daily/weekly/monthly mission counts it only while its window is the current one by the server clock'),
  idempotencyKey: z.string().min(1).max(255).optional().describe('The Idempotency-Key header wins when both are given'),
});
export const eventResponseSchema = z.object({
  accepted: z.literal(true),
  eventId: z.string(),
  missionsUpdated: z.array(z.string()).describe('Missions whose progress this event changed'),
});

// GET /v1/missions, GET /v1/missions/:id, POST /v1/missions/:id/claim
export const listMissionsQuerySchema = z.object({
  campaignId: idSchema.optional().describe('Restrict to one campaign'),
  status: z.union([progressStatusSchema, z.literal('all')]).default('all').describe('Effective status; default all'),
  limit: z.coerce.number().int().min(1).max(100).default(50).describe('Page size'),
  cursor: z.string().max(200).optional().describe('nextCursor of the previous page'),
  include: z.literal('expired').optional().describe('Also list missions that can no longer progress'),
});
export const missionListSchema = z.object({
  missions: z.array(publicMissionSchema),
  progress: z.record(z.string(), missionProgressSchema).describe('Mission id → the caller’s progress, for missions with a record'),
  nextCursor: z.string().nullable().describe('null on the last page'),
});
export const missionDetailSchema = z.object({
  mission: publicMissionSchema,
  progress: missionProgressSchema.nullable().describe('null before the first qualifying event'),
});
export const claimResponseSchema = z.object({
  progress: missionProgressSchema,
  balance: balanceSchema.nullable().describe('The balance of the first currency the claim granted; null when it granted none'),
  reward: shownRewardSchema.describe('The first reward granted (the first of `rewards`)'),
  rewards: z.array(shownRewardSchema).describe('Every reward the claim granted, in the mission’s order'),
  balances: z.array(balanceSchema).describe('The balance of each currency the claim granted, in the order of `rewards` (empty when it granted none)'),
});

// GET /v1/balance
export const balanceQuerySchema = z.object({ currency: z.string().min(1).max(32).optional().describe('One currency code') });
/** GET /v1/balance: each balance with its currency's display `name` when the app defines the currency (issue 39 §1). */
export const balanceListSchema = z.object({ balances: z.array(balanceSchema) });
export const singleBalanceSchema = z.object({ balance: balanceSchema });

// POST /v1/balance/spend (the game backend: app secret or webhook signature)
const MAX_SPEND_AMOUNT = 1_000_000_000;
export const spendRequestSchema = z
  .object({
    userId: z.string().min(1).max(256).describe('The player; 404 user_not_found when the app has never seen them'),
    currency: z.string().min(1).max(32).describe('A currency of the app (docs/api.md, "Defined currencies"); 400 otherwise'),
    amount: z.number().int().min(1).max(MAX_SPEND_AMOUNT).describe('How much to take (positive); 409 insufficient_balance when the balance is smaller'),
    reason: z.string().trim().min(1).max(500).optional().describe('Why (kept on the ledger row)'),
    idempotencyKey: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .describe('The Idempotency-Key again, inside the signed body: required with the webhook signature (so a captured request cannot be replayed under a new key), optional with the app secret'),
  })
  .strict();
export const spendResponseSchema = z.object({
  balance: balanceSchema.describe('The balance after the spend'),
  ledgerEntry: ledgerEntrySchema.describe('The ledger row of the spend: a negative amount, actor `backend`'),
});

// GET /v1/campaigns, GET /v1/campaigns/:id
export const listCampaignsQuerySchema = z.object({
  include: z.literal('expired').optional().describe('Also list ended campaigns'),
});
export const campaignQuerySchema = z.object({
  include: z.literal('missions').optional().describe('Add the campaign’s missions'),
});
export const campaignListSchema = z.object({ campaigns: z.array(publicCampaignSchema) });
export const campaignDetailSchema = z.object({
  campaign: publicCampaignSchema,
  missions: z.array(publicMissionSchema).optional().describe('With include=missions'),
});

// POST /v1/webhook/incoming (signed by the app's backend; no JWT)
export const MAX_DELIVERY_EVENTS = 100;
export const webhookEventSchema = eventSchema.extend({
  userId: newUserIdSchema.describe('The player the event is for (any user of the app)'),
  timestamp: eventSchema.shape.timestamp.describe(
    'Unix ms (not seconds) of the event: at most 5 minutes ahead of the server clock and at most 7 days old (a backend’s buffer), else 400 validation_error naming events[i].timestamp',
  ),
  idempotencyKey: z.string().min(1).max(255).optional().describe('Shared with POST /v1/events: the same key and event there or here is applied once'),
});
export const MAX_DELIVERY_USERS = 100;
export const webhookUserSchema = z.object({
  userId: newUserIdSchema.describe('The player whose attributes change'),
  attributes: attributesUpdateSchema,
});
export const webhookDeliverySchema = z
  .object({
    events: z
      .array(webhookEventSchema)
      .min(1)
      .max(MAX_DELIVERY_EVENTS)
      .optional()
      .describe('Applied whole or not at all, in this order (after `users`); required unless `users` is given'),
    users: z
      .array(webhookUserSchema)
      .min(1)
      .max(MAX_DELIVERY_USERS)
      .optional()
      .describe('Attribute updates, merged in this order before the events, in the same transaction; required unless `events` is given'),
  })
  .refine((d) => d.events !== undefined || d.users !== undefined, { message: 'give events, users or both', path: ['events'] });
export const webhookResponseSchema = z.object({
  accepted: z.literal(true),
  results: z
    .array(z.object({ eventId: z.string(), missionsUpdated: z.array(z.string()).describe('Missions whose progress this event changed') }))
    .describe('One per event, in the order of the events'),
});

// GET /v1/recommendations
export const RECOMMENDATIONS_LIMIT = { default: 3, max: 10 } as const;
export const recommendationsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(RECOMMENDATIONS_LIMIT.max).default(RECOMMENDATIONS_LIMIT.default).describe('How many missions at most'),
});
export const recommendationsSchema = z.object({
  userId: z.string(),
  missionIds: z.array(z.string()).max(RECOMMENDATIONS_LIMIT.max).describe('Best first; only missions the caller can still progress or claim'),
  reason: z.string().describe('Why, for the player'),
  fallback: z.boolean().describe('true when the deterministic ranking answered (no model configured, or the model failed)'),
  generatedAt: z.number().describe('Unix ms when this answer was computed (a cached answer keeps its time)'),
});
