// Discards the app's draft (and its scheduled publish, if any); audited.
// Refused while a publish of it waits for approval (409 approval_pending).
import { eq } from 'drizzle-orm';
import { catalogDrafts } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import { actorLabel, withTransaction, type ServiceContext } from '../context';
import { findDraft, noDraft } from './draft-row';
import { approvalPending, isPending } from './approval';

export async function deleteDraft({ ctx }: { ctx: ServiceContext; input?: Record<string, never> }): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const db = tx.uow.tx;
    const row = await findDraft(db, ctx.appId, true);
    if (!row) throw noDraft(ctx.appId);
    if (isPending(row)) throw approvalPending(row);
    await db.delete(catalogDrafts).where(eq(catalogDrafts.appId, ctx.appId));
    await recordAudit(db, { actor: actorLabel(ctx.actor), action: 'draft.discard', appId: ctx.appId, target: 'draft', before: { baseRelease: row.baseRelease, scheduledAt: row.scheduledAt }, after: null }, ctx.now());
  });
}
