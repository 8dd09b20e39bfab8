// Approving the publish another staff member asked for (the two-person rule,
// docs/api.md "Approval"): its snapshot goes live now through publishDraftRow,
// as a due scheduled release does, or becomes the scheduled release when the
// request named a time still ahead. The requester cannot approve; the approver
// acknowledges the snapshot's payout warnings (computed against live now).
import { eq } from 'drizzle-orm';
import { catalogDrafts } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import { readLiveCatalog } from '@/lib/catalog/catalog-document';
import { lockCatalog } from '@/lib/catalog/record-release';
import { AppError } from '@/lib/errors';
import { actorLabel, withTransaction, type ServiceContext } from '../context';
import { NO_APPROVAL, isPending, noPendingApproval } from './approval';
import { findDraft, scheduledCatalogOf } from './draft-row';
import { publishDraftRow, type PublishOutcome } from './publish-draft';
import { draftWarnings } from './review-draft';

export async function approveDraft({ ctx, input }: { ctx: ServiceContext; input: { acknowledgeWarnings?: boolean; requestedAt?: number } }): Promise<PublishOutcome> {
  return withTransaction(ctx, async (tx): Promise<PublishOutcome> => {
    const db = tx.uow.tx;
    const row = await findDraft(db, ctx.appId, true);
    if (!row || !isPending(row) || (input.requestedAt !== undefined && input.requestedAt !== row.approvalRequestedAt)) throw noPendingApproval(ctx.appId);
    const actor = actorLabel(ctx.actor);
    const requester = row.approvalRequestedBy ?? 'system';
    if (requester === actor) throw new AppError('self_approval', `You asked to publish this (${actor}): another editor or admin must approve it`);
    const snapshot = scheduledCatalogOf(row);
    const now = ctx.now();
    const publishAt = row.approvalPublishAt;
    const publishNow = publishAt === null || publishAt <= now;
    // Published now: the app's catalog lock taken here, so the warnings are checked against the live catalog the publish replaces, read once.
    const lock = publishNow ? await lockCatalog(db, ctx.appId) : undefined;
    const warnings = await draftWarnings(db, ctx.appId, lock ? lock.before : await readLiveCatalog(db, ctx.appId), snapshot);
    if (warnings.length > 0 && input.acknowledgeWarnings !== true)
      throw new AppError('needs_acknowledgement', `Approving this publish needs acknowledgeWarnings: true: ${warnings.map((w) => w.message).join('; ')}`, { extra: { warnings } });
    const acknowledged = warnings.length > 0 ? { acknowledgedWarnings: warnings } : {};
    await db.update(catalogDrafts).set(NO_APPROVAL).where(eq(catalogDrafts.appId, ctx.appId));
    let outcome: PublishOutcome;
    if (publishNow) {
      // Published as its requester's release, the snapshot as a due schedule is; edits made since stay as the next draft.
      outcome = { status: 200, body: await publishDraftRow(tx, { ...row, ...NO_APPROVAL }, requester, true, { approvedBy: actor, ...acknowledged }, lock) };
    } else {
      await db.update(catalogDrafts).set({ scheduledAt: publishAt, scheduledBy: requester }).where(eq(catalogDrafts.appId, ctx.appId));
      outcome = { status: 202, body: { scheduledAt: publishAt } };
    }
    await recordAudit(
      db,
      { actor, action: 'draft.approve', appId: ctx.appId, target: 'draft', before: { requestedBy: requester, requestedAt: row.approvalRequestedAt, publishAt }, after: { ...outcome.body, ...acknowledged } },
      now,
    );
    return outcome;
  });
}
