// The campaign entity: a time-bounded group of missions, as authored and as
// /v1 answers it. Its missionIds are derived from the missions naming it. Its
// look is a theme preset of the app (`themeId`) or its own `theme`, not both;
// /v1 answers the resolved `theme` object either way.
import { z } from 'zod';
import { idSchema, timestampSchema } from './common';
import { audienceSchema } from './mission';
import { themeSchema } from './theme';

/** What a campaign's missions may grant of one currency, in total over all users (see docs/api.md, "Campaign budgets"). */
const budgetLineSchema = z
  .object({
    currency: z.string().min(1).max(64),
    amount: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  })
  .meta({ id: 'BudgetLine' });

/** The thresholds (percent of a budget) at which an alert is recorded, once each per campaign and currency. */
export const BUDGET_ALERT_THRESHOLDS = [80, 100] as const;
/** The alert's type name (audit action, metric, and the outbound webhook event it would be). */
export const BUDGET_ALERT_TYPE = 'budget.alert';

/** A campaign as authored and stored; `missionIds`, when given, must match the missions that name it. */
export const campaignSchema = z.object({
  id: idSchema,
  title: z.string().min(1).max(200),
  description: z.string().max(2000).default(''),
  startAt: timestampSchema,
  endAt: z.number().int().positive(),
  missionIds: z.array(idSchema).optional(),
  theme: themeSchema.optional(),
  bannerUrl: z.string().max(2048).default(''),
  archived: z.boolean().default(false),
  themeId: idSchema.optional().describe('A theme preset of the app (catalog `themes`); exclusive with `theme`'),
  audience: audienceSchema.optional().describe('Who the campaign exists for (a filter over user attributes, as a mission audience); a user outside it sees none of its missions'),
  budget: z
    .array(budgetLineSchema)
    .max(20)
    .optional()
    .describe('Payout caps per currency over all users: a claim that would take the campaign past one answers 409 budget_exhausted. Internal: /v1 does not show it'),
});
export type CampaignInput = z.input<typeof campaignSchema>;

/** The checks beyond the fields: the campaign ends after it starts; a preset or its own theme, not both. */
export function checkCampaign(c: { startAt: number; endAt: number; theme?: unknown; themeId?: unknown; budget?: ReadonlyArray<{ currency: string }> }, ctx: z.RefinementCtx): void {
  if (!(c.endAt > c.startAt)) ctx.addIssue({ code: 'custom', path: ['endAt'], message: 'must be after startAt' });
  if (c.theme !== undefined && c.themeId !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['themeId'], message: 'give a theme preset (themeId) or an own theme, not both' });
  }
  const budget = c.budget ?? [];
  budget.forEach((line, i) => {
    if (budget.findIndex((other) => other.currency === line.currency) !== i) {
      ctx.addIssue({ code: 'custom', path: ['budget', i, 'currency'], message: `"${line.currency}" has a budget already` });
    }
  });
}

/** A campaign as a form or the catalog document writes it (the checks above included). */
export const campaignFormSchema = campaignSchema.superRefine(checkCampaign);

/** A campaign as /v1 answers it (missionIds always present; `archived`, `audience` and `budget` internal; `themeId` resolved into `theme`). */
export const publicCampaignSchema = campaignSchema.omit({ archived: true, themeId: true, audience: true, budget: true }).extend({ missionIds: z.array(idSchema) });
export type PublicCampaign = z.output<typeof publicCampaignSchema>;

/** A stored campaign; missionIds is derived from the missions that name it. */
export type Campaign = Omit<z.output<typeof campaignSchema>, 'missionIds'> & { missionIds: string[] };
