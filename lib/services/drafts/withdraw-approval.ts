// The requester takes back a publish waiting for approval: its snapshot is
// dropped, nothing goes live, the draft stays with its changes and any made
// since. Only the requester (403 not_requester): others reject, with a reason.
import { eq } from 'drizzle-orm';
import { catalogDrafts } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import { diffCatalogs, readLiveCatalog } from '@/lib/catalog/catalog-document';
import type { CatalogChange } from '@/lib/contract/release';
import { AppError } from '@/lib/errors';
import { actorLabel, withTransaction, type ServiceContext } from '../context';
import { NO_APPROVAL, isPending, noPendingApproval } from './approval';
import { findDraft } from './draft-row';

export async function withdrawApproval({ ctx }: { ctx: ServiceContext; input?: Record<string, never> }): Promise<{ approval: null; draft: { changes: CatalogChange[] } }> {
  return withTransaction(ctx, async (tx) => {
    const db = tx.uow.tx;
    const row = await findDraft(db, ctx.appId, true);
    if (!row || !isPending(row)) throw noPendingApproval(ctx.appId);
    const actor = actorLabel(ctx.actor);
    if (row.approvalRequestedBy !== actor) throw new AppError('not_requester', `${row.approvalRequestedBy} asked for this approval: only they can withdraw it; reject it with a reason instead (POST …/draft/reject)`);
    await db.update(catalogDrafts).set({ ...NO_APPROVAL, scheduledCatalog: null }).where(eq(catalogDrafts.appId, ctx.appId));
    await recordAudit(db, { actor, action: 'draft.approval_withdraw', appId: ctx.appId, target: 'draft', before: { requestedAt: row.approvalRequestedAt, publishAt: row.approvalPublishAt }, after: null }, ctx.now());
    return { approval: null, draft: { changes: diffCatalogs(await readLiveCatalog(db, ctx.appId), row.catalog) } };
  });
}
