// The inspector's view of one player (GET …/users/:userId): every mission not
// archived with its status, progress, lock, audience and last claim refused by
// a campaign's budget, the attributes and time zone, balances, the newest
// ledger rows and events (with their verdicts on the current catalog; the
// older ones through listUserEvents), when the app saw the user, and the
// latest erasure of the id (from the audit log).
import { and, desc, eq } from 'drizzle-orm';
import { appUsers, auditLog, claimRefusals, ledger } from '@/db/schema';
import { listBalances } from '@/lib/balances/balances';
import type { Inspection } from '@/lib/contract/inspector';
import { viewMission, visibleTo } from '@/lib/missions/read-missions';
import { readRecords } from '@/lib/progress/records';
import { readAttributes, zoneOf } from '@/lib/users/attributes';
import type { ServiceContext } from '../context';
import { userTarget } from '../_shared/staff-write';
import { listUserEvents } from '../events/list-user-events';

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
  const eventPage = await listUserEvents({ ctx, input: { userId, limit: INSPECTOR_LIMIT, catalog } });
  const [seen] = await db
    .select({ firstSeenAt: appUsers.firstSeenAt, lastSeenAt: appUsers.lastSeenAt, events: appUsers.events })
    .from(appUsers)
    .where(and(eq(appUsers.appId, appId), eq(appUsers.userId, userId)));
  const [erased] = await db
    .select({ at: auditLog.at, actor: auditLog.actor, after: auditLog.after })
    .from(auditLog)
    .where(and(eq(auditLog.appId, appId), eq(auditLog.target, userTarget(userId)), eq(auditLog.action, 'user.erase')))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(1);
  const erasedReason = (erased?.after as { reason?: unknown } | null | undefined)?.reason;
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
    events: eventPage.events,
    eventsNextCursor: eventPage.nextCursor,
    seen: seen ?? null,
    erasure: erased ? { erasedAt: erased.at, actor: erased.actor, reason: typeof erasedReason === 'string' ? erasedReason : null } : null,
  };
}
