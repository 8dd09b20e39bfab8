// Outbound webhooks: the endpoints an app registers, the notifications
// Questline POSTs to them (signed with the endpoint's secret) and the delivery
// log. See docs/webhooks.md "Outbound webhooks" and docs/api.md.
import { z } from 'zod';
import { balanceSchema } from './balance';
import { timestampSchema } from './common';
import { shownRewardSchema } from './mission';
import { missionProgressSchema } from './progress';

/**
 * The notification types and the shape of each one's `data`. A new type is
 * one line here, one member of notificationSchema below, plus the place that
 * writes it.
 */
const NOTIFICATION_DATA = {
  'mission.completed': missionProgressSchema.describe('The progress as GET /v1/missions/:id shows it right after the completion'),
  'reward.granted': z
    .object({
      userId: z.string(),
      missionId: z.string(),
      reward: shownRewardSchema,
      idempotencyKey: z.string().nullable().describe('The claim’s Idempotency-Key (null when the claim had none)'),
    })
    .describe('A claimed reward: currency, item or badge, for the game backend to fulfil'),
  'balance.changed': balanceSchema.describe('The balance after the change (a claim of a currency reward, a staff grant or correction)'),
  'budget.alert': z
    .object({
      campaignId: z.string(),
      currency: z.string(),
      threshold: z.number().int().describe('The percentage of the budget reached: 80 or 100'),
      spent: z.number().int().describe('What the campaign has granted in this currency, this claim included'),
      budget: z.number().int().describe('The campaign’s budget of this currency'),
      missionId: z.string().describe('The mission whose claim reached the threshold'),
      at: timestampSchema.describe('When that claim committed'),
    })
    .describe('A campaign’s payout reached 80 % or 100 % of its budget in a currency (once per threshold); the envelope’s userId is the player whose claim reached it'),
} as const;

export type NotificationType = keyof typeof NOTIFICATION_DATA;
export const NOTIFICATION_TYPES = Object.keys(NOTIFICATION_DATA) as [NotificationType, ...NotificationType[]];
export const notificationTypeSchema = z.enum(NOTIFICATION_TYPES).meta({ id: 'NotificationType' });

export const MAX_ENDPOINTS_PER_APP = 20;

export const createEndpointSchema = z
  .object({
    url: z
      .string()
      .max(2048)
      .url()
      .refine((u) => /^https?:\/\//i.test(u), 'must be an http or https URL')
      .describe('Where notifications are POSTed; loopback, private and link-local addresses are refused unless OUTBOUND_WEBHOOK_ALLOW_PRIVATE=1'),
    events: z
      .array(notificationTypeSchema)
      .min(1)
      .refine((list) => new Set(list).size === list.length, 'lists a type twice')
      .describe('The notification types it receives'),
  })
  .strict()
  .meta({ id: 'CreateEndpoint', examples: [{ url: 'https://game.example.com/questline/notifications', events: ['reward.granted', 'balance.changed'] }] });
export type CreateEndpointInput = z.output<typeof createEndpointSchema>;

export const endpointSchema = z
  .object({ id: z.string(), url: z.string(), events: z.array(notificationTypeSchema), createdAt: timestampSchema })
  .meta({ id: 'Endpoint', examples: [{ id: 'ep_3f9c2a', url: 'https://game.example.com/questline/notifications', events: ['reward.granted'], createdAt: 1764000000000 }] });
export type Endpoint = z.output<typeof endpointSchema>;

export const createdEndpointSchema = endpointSchema
  .extend({ secret: z.string().describe('The signing secret: shown this once') })
  .meta({
    id: 'CreatedEndpoint',
    description: 'The endpoint and its signing secret, shown this once',
    examples: [{ id: 'ep_3f9c2a', url: 'https://game.example.com/questline/notifications', events: ['reward.granted'], createdAt: 1764000000000, secret: 'whsec_9b1f…' }],
  });

export const endpointListSchema = z.object({ endpoints: z.array(endpointSchema).describe('Oldest first') }).meta({ id: 'EndpointList' });

const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export const deliverySchema = z
  .object({
    id: z.string().describe('The Questline-Webhook-Id of every attempt'),
    type: notificationTypeSchema,
    userId: z.string(),
    status: z.enum(DELIVERY_STATUSES).describe('pending: not answered 2xx yet (retrying); delivered; failed: retries gave up after 24 h'),
    attempts: z.number().int().nonnegative(),
    lastStatusCode: z.number().int().nullable().describe('The HTTP status of the last attempt (null: none yet, or no answer)'),
    lastError: z.string().nullable().describe('Why the last attempt failed (timeout, refused address, status …)'),
    nextAttemptAt: timestampSchema.nullable().describe('When it is tried next (null: delivered or failed)'),
    createdAt: timestampSchema,
    deliveredAt: timestampSchema.nullable(),
  })
  .meta({ id: 'Delivery' });
export type Delivery = z.output<typeof deliverySchema>;

const deliveryExample = {
  id: 'wh_5d0e7c1b',
  type: 'reward.granted',
  userId: 'player-42',
  status: 'delivered',
  attempts: 1,
  lastStatusCode: 200,
  lastError: null,
  nextAttemptAt: null,
  createdAt: 1764000000000,
  deliveredAt: 1764000000150,
};

export const deliveryListSchema = z
  .object({ deliveries: z.array(deliverySchema).describe('Newest first (at most 100)') })
  .meta({ id: 'DeliveryList', examples: [{ deliveries: [deliveryExample] }] });

export const deliveryAnswerSchema = z.object({ delivery: deliverySchema }).meta({ id: 'DeliveryAnswer', examples: [{ delivery: { ...deliveryExample, status: 'pending', nextAttemptAt: 1764000001000 } }] });

const notificationOf = <T extends NotificationType>(type: T) =>
  z.object({ id: z.string(), type: z.literal(type), appId: z.string(), userId: z.string(), createdAt: timestampSchema, data: NOTIFICATION_DATA[type] });

/** The body of each POST to an endpoint (one member per type of NOTIFICATION_DATA). */
export const notificationSchema = z
  .discriminatedUnion('type', [notificationOf('mission.completed'), notificationOf('reward.granted'), notificationOf('balance.changed'), notificationOf('budget.alert')])
  .meta({ id: 'Notification' });
