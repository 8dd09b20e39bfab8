// The two-person rule's shared parts (docs/api.md "Approval"): an app with
// requireApproval turns a publish into a pending approval. It reuses the
// scheduled release's snapshot (catalog_drafts.scheduled_catalog, with no
// scheduled_at until approved), so edits made while it waits go into the draft,
// the next one, exactly as after scheduling; approval then publishes or
// schedules that snapshot through publishDraftRow (publish-draft.ts).
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { catalogDrafts, type CatalogDraftRow } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import type { CatalogDocument } from '@/lib/contract/catalog';
import type { DraftWarning, PendingApproval } from '@/lib/contract/release';
import { diffCatalogs } from '@/lib/catalog/catalog-document';
import { latestRelease } from '@/lib/catalog/record-release';
import { AppError } from '@/lib/errors';
import { actorLabel, type TxContext } from '../context';
import { changeDetailsOf, draftWarnings } from './review-draft';

/** The columns of a pending approval, cleared (the snapshot with them, unless it became a schedule). */
export const NO_APPROVAL = { approvalRequestedBy: null, approvalRequestedAt: null, approvalPublishAt: null } as const;

export function isPending(row: CatalogDraftRow): boolean {
  return row.approvalRequestedAt !== null;
}

export function approvalPending(row: CatalogDraftRow): AppError {
  return new AppError('approval_pending', `A publish asked for by ${row.approvalRequestedBy} is waiting for approval: approve or reject it (POST …/draft/approve, …/draft/reject), or the requester withdraws it (POST …/draft/withdraw)`);
}

export function noPendingApproval(appId: string): AppError {
  return new AppError('no_pending_approval', `App "${appId}" has no publish waiting for approval (it may have just been approved, rejected or withdrawn): reload the draft`);
}

/** The pending approval as the API answers it (null when none): its snapshot against live now, reviewed as the draft is. */
export async function approvalAnswer(db: DbOrTx, row: CatalogDraftRow, live: CatalogDocument): Promise<PendingApproval | null> {
  if (!isPending(row)) return null;
  const snapshot = row.scheduledCatalog ?? row.catalog;
  const changes = diffCatalogs(live, snapshot);
  return {
    requestedBy: row.approvalRequestedBy ?? 'system',
    requestedAt: row.approvalRequestedAt!,
    publishAt: row.approvalPublishAt ?? null,
    release: (await latestRelease(db, row.appId)) + 1,
    changes,
    changeDetails: changeDetailsOf(live, snapshot, changes),
    warnings: await draftWarnings(db, row.appId, live, snapshot, changes),
    changesSince: diffCatalogs(snapshot, row.catalog),
  };
}

/**
 * Inside publishDraft's transaction, for an app with requireApproval: the
 * draft `row` (locked) as it is now becomes the pending approval's snapshot;
 * nothing goes live. Refused while a release is scheduled (its snapshot would
 * be replaced by one nobody approved).
 */
export async function requestApproval(
  tx: TxContext,
  row: CatalogDraftRow,
  input: { publishAt: number | null; live: CatalogDocument; acknowledged: { acknowledgedWarnings?: DraftWarning[] } },
): Promise<PendingApproval> {
  if (row.scheduledAt !== null)
    throw new AppError('release_scheduled', `A release is scheduled for ${new Date(row.scheduledAt).toISOString()} (by ${row.scheduledBy}): cancel it (DELETE …/draft/publish) before asking to publish again`);
  const now = tx.now();
  const actor = actorLabel(tx.actor);
  const [stored] = await tx.uow.tx
    .update(catalogDrafts)
    .set({ scheduledCatalog: row.catalog, approvalRequestedBy: actor, approvalRequestedAt: now, approvalPublishAt: input.publishAt, approvalRejection: null })
    .where(eq(catalogDrafts.appId, row.appId))
    .returning();
  const approval = (await approvalAnswer(tx.uow.tx, stored, input.live))!;
  await recordAudit(
    tx.uow.tx,
    { actor, action: 'draft.approval_request', appId: row.appId, target: 'draft', before: null, after: { publishAt: input.publishAt, release: approval.release, changes: approval.changes, ...input.acknowledged } },
    now,
  );
  return approval;
}
