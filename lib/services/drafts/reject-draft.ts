// Rejecting a publish waiting for approval, with a reason the requester reads
// on the draft (`rejection`): its snapshot is dropped and nothing goes live;
// the draft, which holds its changes and any made since, stays. Any editor or
// admin may reject (the requester too; withdraw-approval.ts is theirs).
import { eq } from 'drizzle-orm';
import { catalogDrafts } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import { diffCatalogs, readLiveCatalog } from '@/lib/catalog/catalog-document';
import type { CatalogChange } from '@/lib/contract/release';
import { actorLabel, withTransaction, type ServiceContext } from '../context';
import { NO_APPROVAL, isPending, noPendingApproval } from './approval';
import { findDraft } from './draft-row';

export async function rejectDraft({ ctx, input }: { ctx: ServiceContext; input: { reason: string } }): Promise<{ approval: null; draft: { changes: CatalogChange[] } }> {
  return withTransaction(ctx, async (tx) => {
    const db = tx.uow.tx;
    const row = await findDraft(db, ctx.appId, true);
    if (!row || !isPending(row)) throw noPendingApproval(ctx.appId);
    const actor = actorLabel(ctx.actor);
    const now = ctx.now();
    const rejection = { requestedBy: row.approvalRequestedBy ?? 'system', rejectedBy: actor, rejectedAt: now, reason: input.reason };
    await db
      .update(catalogDrafts)
      .set({ ...NO_APPROVAL, scheduledCatalog: null, approvalRejection: rejection })
      .where(eq(catalogDrafts.appId, ctx.appId));
    await recordAudit(db, { actor, action: 'draft.reject', appId: ctx.appId, target: 'draft', before: { requestedBy: rejection.requestedBy, requestedAt: row.approvalRequestedAt, publishAt: row.approvalPublishAt }, after: { reason: input.reason } }, now);
    return { approval: null, draft: { changes: diffCatalogs(await readLiveCatalog(db, ctx.appId), row.catalog) } };
  });
}
