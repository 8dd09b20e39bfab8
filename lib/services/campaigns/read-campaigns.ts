// Campaigns as the admin API reads them: the stored definition with what each
// campaign's missions have granted per currency and the budget alerts
// recorded (both written by the claim statement, lib/claims/claim-mission.ts),
// and the claims its budgets refused (lib/claims/record-refusal.ts).
import { and, asc, eq, inArray } from 'drizzle-orm';
import { campaignBudgetAlerts, campaignBudgetRefusals, campaignBudgetSpent } from '@/db/schema';
import { BUDGET_ALERT_TYPE } from '@/lib/contract/campaign';
import type { CampaignBudgetState, CampaignRecord } from '@/lib/contract/catalog-admin';
import type { ServiceContext } from '../context';
import { getCampaignRecord, listCampaignRecords } from '../_shared/campaigns';

/** Spent amounts, alerts and refusals of the app's campaigns (all of them, or those named), by campaign id. */
export async function readCampaignBudgets({ ctx, input }: { ctx: ServiceContext; input: { campaignIds?: string[] } }): Promise<Map<string, CampaignBudgetState>> {
  const only = input.campaignIds;
  const spentWhere = only ? and(eq(campaignBudgetSpent.appId, ctx.appId), inArray(campaignBudgetSpent.campaignId, only)) : eq(campaignBudgetSpent.appId, ctx.appId);
  const alertWhere = only ? and(eq(campaignBudgetAlerts.appId, ctx.appId), inArray(campaignBudgetAlerts.campaignId, only)) : eq(campaignBudgetAlerts.appId, ctx.appId);
  // Sequential: the embedded database has one connection. Alerts in the order they were reached (spent only grows;
  // `at` is each claim's clock, read before it queued on the spent row).
  const spent = await ctx.deps.db.select().from(campaignBudgetSpent).where(spentWhere).orderBy(asc(campaignBudgetSpent.currency));
  const alerts = await ctx.deps.db.select().from(campaignBudgetAlerts).where(alertWhere).orderBy(asc(campaignBudgetAlerts.campaignId), asc(campaignBudgetAlerts.currency), asc(campaignBudgetAlerts.spent), asc(campaignBudgetAlerts.threshold));
  const refusedWhere = only ? and(eq(campaignBudgetRefusals.appId, ctx.appId), inArray(campaignBudgetRefusals.campaignId, only)) : eq(campaignBudgetRefusals.appId, ctx.appId);
  const refusals = await ctx.deps.db.select().from(campaignBudgetRefusals).where(refusedWhere).orderBy(asc(campaignBudgetRefusals.campaignId), asc(campaignBudgetRefusals.currency));
  const out = new Map<string, CampaignBudgetState>();
  const of = (id: string) => out.get(id) ?? out.set(id, { budgetSpent: {}, budgetAlerts: [], budgetRefusals: [] }).get(id)!;
  for (const row of spent) of(row.campaignId).budgetSpent[row.currency] = row.spent;
  for (const a of alerts) {
    of(a.campaignId).budgetAlerts.push({ type: BUDGET_ALERT_TYPE, campaignId: a.campaignId, currency: a.currency, threshold: a.threshold, spent: a.spent, budget: a.budget, missionId: a.missionId, at: a.at });
  }
  for (const r of refusals) of(r.campaignId).budgetRefusals.push({ currency: r.currency, count: r.refused, firstAt: r.firstAt, lastAt: r.lastAt });
  return out;
}

const EMPTY: CampaignBudgetState = { budgetSpent: {}, budgetAlerts: [], budgetRefusals: [] };

/** GET …/campaigns/:id: the campaign (404 campaign_not_found) with budgetSpent, budgetAlerts and budgetRefusals. */
export async function getCampaign({ ctx, input }: { ctx: ServiceContext; input: { campaignId: string } }): Promise<CampaignRecord> {
  const record = await getCampaignRecord(ctx, input.campaignId);
  const budgets = await readCampaignBudgets({ ctx, input: { campaignIds: [input.campaignId] } });
  return { ...record, ...(budgets.get(input.campaignId) ?? EMPTY) };
}

/** GET …/campaigns: every campaign with budgetSpent, budgetAlerts and budgetRefusals (three more queries for the whole app). */
export async function listCampaigns({ ctx }: { ctx: ServiceContext }): Promise<CampaignRecord[]> {
  const records = await listCampaignRecords(ctx.deps.db, ctx.appId);
  const budgets = await readCampaignBudgets({ ctx, input: {} });
  return records.map((r) => ({ ...r, ...(budgets.get(r.id) ?? EMPTY) }));
}
