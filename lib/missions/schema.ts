// Zod schemas of the catalog resources (missions, campaigns, rewards) and of
// progress: the single source for validation, TypeScript types and OpenAPI.
import { z } from 'zod';

export const idSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'letters, digits and _ . : - only');

export const windowSchema = z.enum(['lifetime', 'daily', 'weekly', 'monthly']);
export type MissionWindow = z.infer<typeof windowSchema>;

export const FILTER_OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'exists'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** A filter: payload field path (dot notation) → literal (equality) or operator object. */
export const filterSchema = z.record(z.string().min(1), z.unknown());
export type MissionFilter = z.infer<typeof filterSchema>;

export const criteriaSchema = z.object({
  eventName: z.string().min(1).max(128),
  count: z.number().int().positive().max(1_000_000_000),
  window: windowSchema.default('lifetime'),
  filter: filterSchema.optional(),
});
export type MissionCriteria = z.infer<typeof criteriaSchema>;

export const currencyRewardSchema = z.object({
  kind: z.literal('currency'),
  currency: z.string().min(1).max(32),
  amount: z.number().int().positive().max(1_000_000_000),
});
export const itemRewardSchema = z.object({
  kind: z.literal('item'),
  itemId: z.string().min(1).max(128),
  quantity: z.number().int().positive().max(1_000_000),
});
export const badgeRewardSchema = z.object({
  kind: z.literal('badge'),
  badgeId: z.string().min(1).max(128),
});
export const rewardSchema = z
  .discriminatedUnion('kind', [currencyRewardSchema, itemRewardSchema, badgeRewardSchema])
  .meta({ id: 'Reward' });
export type Reward = z.infer<typeof rewardSchema>;

export const missionSchema = z
  .object({
    id: idSchema,
    title: z.string().min(1).max(200),
    description: z.string().max(2000).default(''),
    criteria: criteriaSchema,
    reward: rewardSchema,
    campaignId: idSchema.nullable().default(null),
    expiresAt: z.number().int().nonnegative().nullable().default(null),
    iconUrl: z.string().max(2048).nullable().default(null),
    prerequisites: z.array(idSchema).max(50).default([]),
    archived: z.boolean().default(false),
  })
  .meta({ id: 'MissionDefinition' });
export type Mission = z.infer<typeof missionSchema>;
export type MissionInput = z.input<typeof missionSchema>;

export const themeSchema = z.object({ primaryColor: z.string().min(1).max(64) }).passthrough();

export const campaignSchema = z
  .object({
    id: idSchema,
    title: z.string().min(1).max(200),
    description: z.string().max(2000).default(''),
    startAt: z.number().int().nonnegative(),
    endAt: z.number().int().positive(),
    missionIds: z.array(idSchema).optional(),
    theme: themeSchema.optional(),
    bannerUrl: z.string().max(2048).default(''),
    archived: z.boolean().default(false),
  })
  .meta({ id: 'CampaignDefinition' });
export type CampaignInput = z.input<typeof campaignSchema>;
/** A stored campaign; missionIds is derived from the missions that name it. */
export type Campaign = Omit<z.infer<typeof campaignSchema>, 'missionIds'> & { missionIds: string[] };

export const progressStatusSchema = z.enum(['active', 'completed', 'claimed', 'locked']);
export type ProgressStatus = z.infer<typeof progressStatusSchema>;

/** The public MissionProgress of the spec. */
export const missionProgressSchema = z
  .object({
    userId: z.string(),
    missionId: z.string(),
    status: progressStatusSchema,
    progress: z.number().min(0).max(1),
    currentCount: z.number().int().nonnegative(),
    targetCount: z.number().int().positive(),
    updatedAt: z.number(),
  })
  .meta({ id: 'MissionProgress' });
export type MissionProgress = z.infer<typeof missionProgressSchema>;

/** What the database keeps per (app, user, mission); never `locked`. */
export interface ProgressRecord {
  userId: string;
  missionId: string;
  status: 'active' | 'completed' | 'claimed';
  currentCount: number;
  targetCount: number;
  /** Start (Unix ms, UTC) of the window bucket the count belongs to; 0 for lifetime. */
  windowStart: number;
  /** Number of the cycle (starts at 1; a recurring mission claimed and restarted moves to the next). */
  cycle: number;
  updatedAt: number;
}

/** An event as the engine sees it. */
export interface EngineEvent {
  userId: string;
  name: string;
  payload: Record<string, unknown>;
  timestamp: number;
}
