// The inspector's view of one player (GET …/users/:userId): every mission not
// archived with its status, progress, lock, audience and last claim refused by
// a campaign's budget, the attributes and time zone, balances, the newest
// ledger rows and events (with their verdicts on the current catalog).
import { and, desc, eq } from 'drizzle-orm';
import { claimRefusals, events, ledger } from '@/db/schema';
import { listBalances } from '@/lib/balances/balances';
import type { Inspection } from '@/lib/contract/inspector';
import { viewMission, visibleTo } from '@/lib/missions/read-missions';
import { readRecords } from '@/lib/progress/records';
import { readAttributes, zoneOf } from '@/lib/users/attributes';
import type { ServiceContext } from '../context';
import { eventVerdicts } from '../events/event-verdicts';

/** Events and ledger rows the inspector shows, newest first. */
const INSPECTOR_LIMIT = 50;

export async function inspectUser({ ctx, input }: { ctx: ServiceContext; input: { userId: string } }): Promise<Inspection> {
  const { appId } = ctx;
  const { userId } = input;
  const now = ctx.now();
  const catalog = await ctx.deps.catalog(appId);
  const { db } = ctx.deps;
  const records = await readRecords(db, appId, userId);
  const attributes = await readAttributes(db, appId, userId);
  const timeZone = zoneOf(attributes);
  const balanceRows = await listBalances(db, appId, userId);
  const ledgerRows = await db
    .select()
    .from(ledger)
    .where(and(eq(ledger.appId, appId), eq(ledger.userId, userId)))
    .orderBy(desc(ledger.id))
    .limit(INSPECTOR_LIMIT);
  const eventRows = await db
    .select()
    .from(events)
    .where(and(eq(events.appId, appId), eq(events.userId, userId)))
    .orderBy(desc(events.timestamp), desc(events.receivedAt))
    .limit(INSPECTOR_LIMIT);
  const refusalRows = await db
    .select()
    .from(claimRefusals)
    .where(and(eq(claimRefusals.appId, appId), eq(claimRefusals.userId, userId)));
  const refusals = new Map(refusalRows.map((r) => [r.missionId, r]));

  const missions = catalog.ordered
    .filter((m) => !m.archived)
    .map((mission) => {
      const view = viewMission(catalog, mission, records, now, timeZone);
      // A refusal counts while the mission waits to be claimed: not one from before the record last changed (an earlier cycle).
      const refusal = refusals.get(mission.id);
      const record = records.get(mission.id);
      const claimRefusal =
        refusal && view.status === 'completed' && record && refusal.at >= record.updatedAt
          ? { campaignId: refusal.campaignId, currency: refusal.currency, amount: refusal.amount, budget: refusal.budget, at: refusal.at }
          : null;
      return { mission, status: view.status, progress: view.progress, lock: view.lock, inAudience: visibleTo(catalog, mission, attributes), claimRefusal };
    });
  return {
    appId,
    userId,
    attributes,
    timeZone,
    missions,
    balances: balanceRows,
    ledger: ledgerRows.map(({ appId: _a, userId: _u, grantKey: _g, ...row }) => row),
    campaigns: [...catalog.campaigns.values()].map((c) => ({ id: c.id, title: c.title })),
    events: eventRows.map((e) => ({
      id: e.id,
      name: e.name,
      payload: e.payload,
      timestamp: e.timestamp,
      receivedAt: e.receivedAt,
      source: e.source,
      verdicts: eventVerdicts(catalog, e, now),
    })),
  };
}
