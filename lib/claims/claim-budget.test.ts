// The claim statement and the budget read, called directly (no server; the
// embedded database, or DATABASE_URL's): a grant within the budget adds to the
// campaign's spent row; one past it throws budget_exhausted and writes
// nothing; the grant that reaches a threshold records its alert and audit row
// once; readCampaignBudgets answers what was written, for a ServiceContext.
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import { auditLog, campaignBudgetAlerts, campaignBudgetSpent, ledger, progress, userSequences } from '@/db/schema';
import { buildCatalog } from '@/lib/catalog/catalog';
import { campaignSchema } from '@/lib/contract/campaign';
import { missionSchema } from '@/lib/contract/mission';
import { AppError } from '@/lib/errors';
import type { ServiceContext } from '@/lib/services/context';
import { readCampaignBudgets } from '@/lib/services/campaigns/read-campaigns';
import { prepareTestEnv, uniqueId } from '@/lib/testing/test-env';
import { claimMission } from './claim-mission';

let db: Db;
let ctxFor: (appId: string) => ServiceContext;
const NOW = 1_764_000_000_000;

beforeAll(async () => {
  prepareTestEnv();
  const [{ boot }, { getDb }, { getKv }, { getBus }, { logger }, { getCatalog }] = await Promise.all([
    import('@/lib/boot'),
    import('@/db/client'),
    import('@/lib/kv'),
    import('@/lib/bus'),
    import('@/lib/log'),
    import('@/lib/catalog/catalog'),
  ]);
  await boot();
  db = await getDb();
  ctxFor = (appId) => ({
    appId,
    actor: { kind: 'admin-key', id: 'admin-api-key', role: 'admin' },
    now: () => NOW,
    requestId: 'test',
    deps: { db, kv: getKv(), bus: getBus(), log: logger(), catalog: getCatalog, publish: async () => {}, eraseStream: async () => {}, catalogChanged: async () => {} },
  });
});

function catalogOf(appId: string, budget: number) {
  const campaign = campaignSchema.parse({ id: 'c', title: 'Cup', startAt: NOW - 1000, endAt: NOW + 1000, budget: [{ currency: 'gems', amount: budget }] });
  const mission = missionSchema.parse({ id: 'm', title: 'M', campaignId: 'c', criteria: { eventName: 'play', count: 1 }, reward: { kind: 'currency', currency: 'gems', amount: 40 } });
  const { missionIds: _ids, ...stored } = { ...campaign, missionIds: [] };
  return buildCatalog(appId, [mission], [stored], NOW);
}

async function completed(appId: string, userId: string): Promise<void> {
  await db.insert(progress).values({ appId, userId, missionId: 'm', status: 'completed', currentCount: 1, targetCount: 1, windowStart: 0, cycle: 0, updatedAt: NOW });
}

const claim = (appId: string, userId: string, budget: number) =>
  claimMission(db, { appId, userId, missionId: 'm', catalog: catalogOf(appId, budget), key: null, requestHash: 'claim:m' }, NOW);

describe('claimMission under a campaign budget', () => {
  it('grants within the budget, refuses past it writing nothing, and records each alert once', async () => {
    const appId = uniqueId('app');
    for (const u of ['a', 'b', 'c']) await completed(appId, u);
    expect((await claim(appId, 'a', 100)).kind).toBe('claimed'); // 40: no alert
    expect((await claim(appId, 'b', 100)).kind).toBe('claimed'); // 80: the 80 % alert
    const refused = await claim(appId, 'c', 100).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('budget_exhausted');
    expect((refused as AppError).message).toBe('Campaign "Cup" (c) has not enough of its gems budget (budget 100) left to grant 40 gems');
    // Nothing of c's claim: status, ledger, sequence number.
    expect(await db.select({ status: progress.status }).from(progress).where(and(eq(progress.appId, appId), eq(progress.userId, 'c')))).toEqual([{ status: 'completed' }]);
    expect(await db.select().from(ledger).where(and(eq(ledger.appId, appId), eq(ledger.userId, 'c')))).toEqual([]);
    expect(await db.select().from(userSequences).where(and(eq(userSequences.appId, appId), eq(userSequences.userId, 'c')))).toEqual([]);
    expect(await db.select({ spent: campaignBudgetSpent.spent }).from(campaignBudgetSpent).where(eq(campaignBudgetSpent.appId, appId))).toEqual([{ spent: 80 }]);

    expect((await claim(appId, 'c', 120)).kind).toBe('claimed'); // 120 of 120: the 100 % alert
    const alerts = await db.select().from(campaignBudgetAlerts).where(eq(campaignBudgetAlerts.appId, appId));
    expect(alerts.map((a) => [a.threshold, a.spent, a.budget]).sort((x, y) => x[0] - y[0])).toEqual([
      [80, 80, 100],
      [100, 120, 120],
    ]);
    const audit = await db.select().from(auditLog).where(and(eq(auditLog.appId, appId), eq(auditLog.action, 'budget.alert')));
    expect(audit).toHaveLength(2);

    const budgets = await readCampaignBudgets({ ctx: ctxFor(appId), input: {} });
    expect(budgets.get('c')?.budgetSpent).toEqual({ gems: 120 });
    expect(budgets.get('c')?.budgetAlerts.map((a) => a.threshold)).toEqual([80, 100]);
    expect((await readCampaignBudgets({ ctx: ctxFor(appId), input: { campaignIds: ['other'] } })).size).toBe(0);
  });
});
