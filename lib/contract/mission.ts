// The mission entity: its criteria (window, filter), its reward, the
// definition staff author (catalog, console forms) and the form /v1 answers.
import { z } from 'zod';
import { idSchema, timestampSchema } from './common';
import { validateFilter } from './filter';
import { aggregateCriteriaIssues, aggregateSchema, streakSchema } from './mission-aggregate';

export const windowSchema = z
  .enum(['lifetime', 'daily', 'weekly', 'monthly'])
  .describe(
    "Counting window: calendar buckets of the event timestamp (weeks start on Monday) in the user's `timezone` attribute, or UTC for a user without one",
  );
export type MissionWindow = z.infer<typeof windowSchema>;

/** A filter: payload field path (dot notation) → literal (equality) or operator object; checked when authored. */
const filterSchema = z
  .record(z.string().min(1), z.unknown())
  .superRefine((filter, ctx) => {
    const check = validateFilter(filter);
    if (!check.ok) ctx.addIssue({ code: 'custom', message: check.message });
  })
  .describe('Payload path (dot notation) → literal (equality) or operator object (eq ne gt gte lt lte in nin exists); every key must match');
export type MissionFilter = z.infer<typeof filterSchema>;

/**
 * Who a mission (or every mission of a campaign) exists for: a filter over
 * the user's attributes, in the language of criteria.filter. Outside it the
 * mission is absent for that user (lists, detail, claim, events).
 */
export const audienceSchema = z
  .record(z.string().min(1), z.unknown())
  .superRefine((filter, ctx) => {
    const check = validateFilter(filter);
    if (!check.ok) ctx.addIssue({ code: 'custom', message: check.message.replace(/^filter/, 'audience') });
  })
  .describe(
    'Attribute key (the user attributes set with the token request or the webhook) → literal (equality) or operator object (eq ne gt gte lt lte in nin exists); every key must match. Outside it the mission does not exist for the user',
  );

const criteriaSchema = z
  .object({
    eventName: z.string().min(1).max(128),
    count: z.number().int().positive().max(1_000_000_000),
    window: windowSchema.default('lifetime'),
    filter: filterSchema.optional(),
    // Issue 19 (lib/contract/mission-aggregate.ts): absent means count, and no streak.
    aggregate: aggregateSchema.optional(),
    streak: streakSchema.optional(),
  })
  .superRefine((criteria, ctx) => {
    for (const issue of aggregateCriteriaIssues(criteria)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  });

const currencyRewardSchema = z.object({
  kind: z.literal('currency'),
  currency: z.string().min(1).max(32),
  amount: z.number().int().positive().max(1_000_000_000),
});
const itemRewardSchema = z.object({
  kind: z.literal('item'),
  itemId: z.string().min(1).max(128),
  quantity: z.number().int().positive().max(1_000_000),
});
const badgeRewardSchema = z.object({
  kind: z.literal('badge'),
  badgeId: z.string().min(1).max(128),
});
const rewardSchema = z.discriminatedUnion('kind', [currencyRewardSchema, itemRewardSchema, badgeRewardSchema]);
export type Reward = z.infer<typeof rewardSchema>;
export type RewardKind = Reward['kind'];

/** What /v1 adds to a reward naming a defined currency, item or badge (issue 39 §1; absent when the app defines none). */
const rewardDisplay = {
  name: z.string().optional().describe('The display name of the currency, item or badge, when the app defines it'),
  iconUrl: z.string().optional().describe('Its icon, when its definition has one'),
};
/** A reward as /v1 shows it: as authored, plus its definition's display name and icon. */
export const shownRewardSchema = z.discriminatedUnion('kind', [
  currencyRewardSchema.extend(rewardDisplay),
  itemRewardSchema.extend(rewardDisplay),
  badgeRewardSchema.extend(rewardDisplay),
]);
export type ShownReward = z.output<typeof shownRewardSchema>;

/**
 * A mission as authored and stored (catalog document, console forms, the
 * database row's fields). Optional fields get their defaults on parse.
 */
export const missionSchema = z.object({
  id: idSchema,
  title: z.string().min(1).max(200),
  description: z.string().max(2000).default(''),
  criteria: criteriaSchema,
  reward: rewardSchema,
  campaignId: idSchema.nullable().default(null),
  expiresAt: timestampSchema.nullable().default(null).describe('Events at or after this time do not count; null: never expires'),
  iconUrl: z.string().max(2048).nullable().default(null),
  prerequisites: z.array(idSchema).max(50).default([]).describe('Missions the user must have claimed first'),
  archived: z.boolean().default(false),
  audience: audienceSchema.optional(),
});
/** A stored mission (every default applied). */
export type Mission = z.output<typeof missionSchema>;
/** A mission as written by an author (defaults optional). */
export type MissionInput = z.input<typeof missionSchema>;

/** A mission as /v1 answers it: the definition without `archived`, plus the caller's `locked`. */
export const publicMissionSchema = missionSchema.omit({ archived: true, audience: true }).extend({
  reward: shownRewardSchema,
  locked: z
    .boolean()
    .describe('True while events cannot advance it for this user: a prerequisite is not claimed yet, or its campaign has not started'),
});
export type PublicMission = z.output<typeof publicMissionSchema>;
