// The granular admin API of themes and campaigns (console screens): stored
// items carry a `version` for optimistic concurrency; a write names the
// version it read, and a stale one answers 409 conflict.
import { z } from 'zod';
import { BUDGET_ALERT_TYPE, campaignSchema, checkCampaign } from './campaign';
import { idSchema } from './common';
import { themePresetSchema } from './theme';

const versionSchema = z.number().int().positive().describe('The version the writer read; a stale one answers 409 conflict');

const stored = {
  version: z.number().int().positive(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
};

/** A theme preset as the admin API answers it, with the campaigns that use it. */
export const themeRecordSchema = themePresetSchema
  .extend({ ...stored, usedBy: z.array(idSchema).describe('Campaigns using this preset') })
  .meta({ id: 'ThemeRecord' });
export type ThemeRecord = z.output<typeof themeRecordSchema>;

/** PUT …/themes/:themeId: the whole preset (the path names it) and the version read. */
export const updateThemeSchema = themePresetSchema.extend({ id: idSchema.optional(), version: versionSchema }).meta({ id: 'UpdateTheme' });

/** An alert recorded when a grant took a campaign to a threshold of its budget of a currency (once per campaign, currency and threshold). */
const budgetAlertSchema = z
  .object({
    type: z.literal(BUDGET_ALERT_TYPE),
    campaignId: idSchema,
    currency: z.string(),
    threshold: z.number().int().describe('Percent of the budget: 80 or 100'),
    spent: z.number().int().describe('What the campaign had granted of the currency after the grant that crossed the threshold'),
    budget: z.number().int().describe('The budget of the currency when the alert was recorded'),
    missionId: idSchema.describe('The mission whose claim crossed the threshold'),
    at: z.number().int(),
  })
  .meta({ id: 'BudgetAlert' });

/** Claims refused because the campaign's budget of a currency was spent: how many, since when, the last. */
const budgetRefusalSchema = z
  .object({
    currency: z.string(),
    count: z.number().int().describe('Claims refused (409 budget_exhausted); a retry under the same Idempotency-Key counts once'),
    firstAt: z.number().int().describe('The first refusal'),
    lastAt: z.number().int().describe('The last refusal'),
  })
  .meta({ id: 'BudgetRefusals' });

/** What a campaign's missions have granted, per currency (every currency granted, budgeted or not), its alerts and the claims its budgets refused. */
const campaignBudgetStateSchema = z.object({
  budgetSpent: z.record(z.string(), z.number().int()).describe('Currency → amount the campaign’s missions have granted over all users (exact: kept in each claim’s statement)'),
  budgetAlerts: z.array(budgetAlertSchema).describe('Budget alerts recorded, per currency in the order they were reached'),
  budgetRefusals: z.array(budgetRefusalSchema).describe('Claims refused because the budget of a currency was spent, per currency (none: no entry)'),
});
export type CampaignBudgetState = z.output<typeof campaignBudgetStateSchema>;

/** A campaign as the admin API answers it: the stored definition (themeId, not resolved) with missionIds; reads add what it spent. */
export const campaignRecordSchema = campaignSchema
  .extend({ missionIds: z.array(idSchema), ...stored, ...campaignBudgetStateSchema.partial().shape })
  .meta({ id: 'CampaignRecord' });
export type CampaignRecord = z.output<typeof campaignRecordSchema>;

/**
 * POST …/campaigns: a campaign; `missionIds`, when given, assigns exactly
 * those missions to it (each mission's campaignId is set, and missions
 * left out lose it).
 */
export const createCampaignSchema = campaignSchema.superRefine(checkCampaign).meta({ id: 'CreateCampaign' });

/** PUT …/campaigns/:campaignId: the whole campaign and the version read. */
export const updateCampaignSchema = campaignSchema
  .extend({ id: idSchema.optional(), version: versionSchema })
  .superRefine(checkCampaign)
  .meta({ id: 'UpdateCampaign' });

/** DELETE …?version=N: the version read (optional for scripts; the console always sends it). */
export const deleteQuerySchema = z.object({ version: z.coerce.number().int().positive().optional() });
