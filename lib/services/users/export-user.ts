// A data-access request: one JSON document with everything stored about one
// user of the app, read in one transaction (one snapshot of the rows): when
// they were seen, every stored event, progress, balances, the ledger, support
// notes, the audit entries whose target is the user and their claims refused
// by a campaign's budget. Questline stores no other attributes of a user (the
// id is the game's).
import { and, asc, eq } from 'drizzle-orm';
import { appUsers, auditLog, balances, claimRefusals, events, ledger, progress, userNotes } from '@/db/schema';
import type { UserExport } from '@/lib/contract/desk';
import { withTransaction, type ServiceContext } from '../context';
import { userTarget } from '../_shared/staff-write';

export async function exportUser({ ctx, input }: { ctx: ServiceContext; input: { userId: string } }): Promise<UserExport> {
  const { appId } = ctx;
  const { userId } = input;
  return withTransaction(ctx, async (tx) => {
    const db = tx.uow.tx;
    const [user] = await db
      .select({ userId: appUsers.userId, firstSeenAt: appUsers.firstSeenAt, lastSeenAt: appUsers.lastSeenAt, events: appUsers.events })
      .from(appUsers)
      .where(and(eq(appUsers.appId, appId), eq(appUsers.userId, userId)));
    const eventRows = await db
      .select({ id: events.id, name: events.name, payload: events.payload, timestamp: events.timestamp, receivedAt: events.receivedAt, source: events.source, idempotencyKey: events.idempotencyKey, outcome: events.outcome })
      .from(events)
      .where(and(eq(events.appId, appId), eq(events.userId, userId)))
      .orderBy(asc(events.timestamp), asc(events.receivedAt));
    const progressRows = await db
      .select({ missionId: progress.missionId, status: progress.status, currentCount: progress.currentCount, targetCount: progress.targetCount, windowStart: progress.windowStart, cycle: progress.cycle, updatedAt: progress.updatedAt })
      .from(progress)
      .where(and(eq(progress.appId, appId), eq(progress.userId, userId)))
      .orderBy(asc(progress.missionId));
    const balanceRows = await db
      .select({ userId: balances.userId, currency: balances.currency, amount: balances.amount, updatedAt: balances.updatedAt })
      .from(balances)
      .where(and(eq(balances.appId, appId), eq(balances.userId, userId)))
      .orderBy(asc(balances.currency));
    const ledgerRows = await db.select().from(ledger).where(and(eq(ledger.appId, appId), eq(ledger.userId, userId))).orderBy(asc(ledger.id));
    const notes = await db
      .select({ id: userNotes.id, author: userNotes.author, text: userNotes.text, createdAt: userNotes.createdAt })
      .from(userNotes)
      .where(and(eq(userNotes.appId, appId), eq(userNotes.userId, userId)))
      .orderBy(asc(userNotes.id));
    const audit = await db
      .select({ id: auditLog.id, at: auditLog.at, actor: auditLog.actor, action: auditLog.action, before: auditLog.before, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.appId, appId), eq(auditLog.target, userTarget(userId))))
      .orderBy(asc(auditLog.id));
    const refusals = await db
      .select({ missionId: claimRefusals.missionId, campaignId: claimRefusals.campaignId, currency: claimRefusals.currency, amount: claimRefusals.amount, budget: claimRefusals.budget, idempotencyKey: claimRefusals.idempotencyKey, at: claimRefusals.at })
      .from(claimRefusals)
      .where(and(eq(claimRefusals.appId, appId), eq(claimRefusals.userId, userId)))
      .orderBy(asc(claimRefusals.missionId));
    return {
      appId,
      userId,
      exportedAt: ctx.now(),
      user: user ?? null,
      events: eventRows,
      progress: progressRows,
      balances: balanceRows,
      ledger: ledgerRows.map(({ appId: _a, userId: _u, grantKey: _g, ...row }) => row),
      notes,
      audit,
      claimRefusals: refusals,
    };
  });
}
