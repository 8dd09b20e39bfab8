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

/** How many rewards a mission's bundle holds at most (issue 39 §2). */
export const MAX_REWARDS = 10;
const rewardBundleSchema = z
  .array(rewardSchema)
  .min(1)
  .max(MAX_REWARDS)
  .describe(
    `The mission's rewards, granted together by one claim (all or nothing), 1 to ${MAX_REWARDS}; each currency, item or badge at most once. \`reward\` is its first; a bundle of one is stored and answered as \`reward\` alone`,
  );

/** What a reward grants, as one id: two rewards of a bundle may not name the same one. */
const rewardTarget = (r: Reward) => (r.kind === 'currency' ? `currency "${r.currency}"` : r.kind === 'item' ? `item "${r.itemId}"` : `badge "${r.badgeId}"`);
const sameReward = (a: Reward, b: Reward) => JSON.stringify(a, Object.keys(a).sort()) === JSON.stringify(b, Object.keys(b).sort());

/** A mission's rewards: the bundle, or its one `reward`. */
export const rewardsOf = (m: { reward: Reward; rewards?: Reward[] }): Reward[] => m.rewards ?? [m.reward];

/**
 * The bundle rules of a mission body: `reward`, `rewards` or both; both must
 * agree (`reward` is `rewards[0]`), so a mission read and written back is
 * accepted and two different rewards are never silently dropped.
 */
function bundleIssues(m: { reward?: Reward; rewards?: Reward[] }, ctx: z.RefinementCtx): void {
  if (!m.reward && !m.rewards) {
    ctx.addIssue({ code: 'custom', path: ['reward'], message: 'A mission needs `reward` or `rewards` (1 to 10 rewards)' });
    return;
  }
  if (m.reward && m.rewards?.[0] && !sameReward(m.reward, m.rewards[0])) {
    ctx.addIssue({ code: 'custom', path: ['reward'], message: '`reward` must be the first of `rewards` when both are given (or send only `rewards`)' });
  }
  const seen = new Set<string>();
  m.rewards?.forEach((r, i) => {
    const target = rewardTarget(r);
    if (seen.has(target)) ctx.addIssue({ code: 'custom', path: ['rewards', i], message: `The bundle already grants ${target}: merge them into one reward` });
    seen.add(target);
  });
}

/**
 * The stored form: `reward` is the first of `rewards`, and `rewards` is kept
 * only for a bundle of two or more (a bundle of one is the mission's
 * `reward`, so documents and clients written before bundles read and write
 * such missions exactly as before).
 */
const withBundle = <T extends { reward?: Reward; rewards?: Reward[] }>(m: T): T => {
  if (!m.rewards) return m;
  const { rewards, ...rest } = m;
  return (rewards.length > 1 ? { ...rest, reward: rewards[0], rewards } : { ...rest, reward: rewards[0] }) as T;
};

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
/** The mission's fields without the bundle rules (for schemas that change a field: documentation only). */
export const missionFields = z.object({
  id: idSchema,
  title: z.string().min(1).max(200),
  description: z.string().max(2000).default(''),
  criteria: criteriaSchema,
  reward: rewardSchema.optional().describe('The reward (with `rewards`: the first of them). Required unless `rewards` is given'),
  rewards: rewardBundleSchema.optional(),
  campaignId: idSchema.nullable().default(null),
  expiresAt: timestampSchema.nullable().default(null).describe('Events at or after this time do not count; null: never expires'),
  iconUrl: z.string().max(2048).nullable().default(null),
  prerequisites: z.array(idSchema).max(50).default([]).describe('Missions the user must have claimed first'),
  archived: z.boolean().default(false),
  audience: audienceSchema.optional(),
});
/**
 * The mission with its bundle rules. Typed with `reward` required: after
 * parsing it always holds (withBundle), and a body sending only `rewards` is
 * typed through MissionInput's cast in the few places that build one. The
 * runtime schema (OpenAPI, validation) has `reward` optional.
 */
export const missionSchema = missionFields.superRefine(bundleIssues).overwrite(withBundle) as unknown as z.ZodObject<
  Omit<(typeof missionFields)['shape'], 'reward'> & { reward: typeof rewardSchema },
  z.core.$strip
>;
/**
 * A stored mission (every default applied). `reward` is always there (the
 * first of the bundle); `rewards` only for a bundle of two or more: read the
 * rewards through rewardsOf.
 */
export type Mission = z.output<typeof missionSchema>;
/** A mission as written by an author (defaults optional). */
export type MissionInput = z.input<typeof missionSchema>;

/** A mission as /v1 answers it: the definition without `archived`, plus the caller's `locked`. */
export const publicMissionSchema = missionFields.omit({ archived: true, audience: true }).extend({
  reward: shownRewardSchema.describe('The first of `rewards`'),
  rewards: z.array(shownRewardSchema).describe('Every reward the claim grants (one or more); `reward` is the first'),
  locked: z
    .boolean()
    .describe('True while events cannot advance it for this user: a prerequisite is not claimed yet, or its campaign has not started'),
});
export type PublicMission = z.output<typeof publicMissionSchema>;
