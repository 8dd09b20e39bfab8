// Publishing the app's draft: now (the draft's catalog goes live and becomes
// the next release, in one transaction, and the draft is gone, its schedule
// with it), or at a time in the future (a scheduled publish: a snapshot of the
// draft as it is now is kept beside it, and the poller of whichever instance
// claims it first publishes that snapshot at its time; lib/releases/scheduler.ts).
// Edits made after scheduling go into the draft, not into the snapshot: once
// the snapshot is live, they stay as the next draft. Scheduling again takes a
// new snapshot. DELETE …/draft/publish cancels a schedule: the snapshot is
// dropped and the draft, which holds its changes and any made since, stays.
// An app with requireApproval: the publish (now or scheduled) becomes a pending
// approval holding the same snapshot (approval.ts; approve-draft.ts publishes it).
import { eq } from 'drizzle-orm';
import { catalogDrafts, type CatalogDraftRow } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import { diffCatalogs, readLiveCatalog } from '@/lib/catalog/catalog-document';
import { lockCatalog, type CatalogLock } from '@/lib/catalog/record-release';
import { AppError } from '@/lib/errors';
import { actorLabel, withTransaction, type ServiceContext, type TxContext } from '../context';
import { publishCatalog } from '../releases/publish-catalog';
import { findDraft, noDraft, scheduledCatalogOf } from './draft-row';
import { draftWarnings, needsAcknowledgement } from './review-draft';
import { approvalPending, isPending, requestApproval } from './approval';
import { approvalRequired } from '../_shared/approval-rule';
import type { PendingApproval } from '@/lib/contract/release';

export type PublishOutcome = { status: 200; body: { release: number; publishedAt: number } } | { status: 202; body: { scheduledAt: number } };
export type PublishRequestOutcome = PublishOutcome | { status: 202; body: { approval: PendingApproval } };

/**
 * The draft `row` (locked by the caller) published, in the caller's transaction.
 * Now: the whole draft, and the draft is deleted. Scheduled: the snapshot taken
 * when it was scheduled; the draft stays, unscheduled and based on the new
 * release, when it was edited since (its edits are the next draft), else it is deleted.
 * `lock`: the app's catalog lock when the caller took it in this transaction.
 */
export async function publishDraftRow(
  tx: TxContext,
  row: CatalogDraftRow,
  publishedBy: string,
  scheduled: boolean,
  audited: Record<string, unknown> = {},
  lock?: CatalogLock,
): Promise<{ release: number; publishedAt: number }> {
  const catalog = scheduled ? scheduledCatalogOf(row) : row.catalog;
  const published = await publishCatalog({ ctx: tx, input: { catalog, publishedBy, lock } });
  const left = scheduled ? diffCatalogs(catalog, row.catalog) : [];
  if (left.length === 0) await tx.uow.tx.delete(catalogDrafts).where(eq(catalogDrafts.appId, row.appId));
  else
    await tx.uow.tx
      .update(catalogDrafts)
      .set({ baseRelease: published.release, scheduledAt: null, scheduledBy: null, scheduledCatalog: null })
      .where(eq(catalogDrafts.appId, row.appId));
  await recordAudit(
    tx.uow.tx,
    {
      actor: publishedBy,
      action: 'draft.publish',
      appId: row.appId,
      target: `release:${published.release}`,
      before: { baseRelease: row.baseRelease, scheduledAt: row.scheduledAt },
      after: { release: published.release, scheduled, changes: published.changes, ...(left.length > 0 ? { leftInDraft: left } : {}), ...audited },
    },
    published.publishedAt,
  );
  return { release: published.release, publishedAt: published.publishedAt };
}

/**
 * Publishes now ({}) or schedules ({ at }). A draft with payout warnings
 * (review-draft.ts) answers 409 needs_acknowledgement, nothing written,
 * unless `acknowledgeWarnings`; the acknowledged warnings are audited.
 */
export async function publishDraft({ ctx, input }: { ctx: ServiceContext; input: { at?: number; acknowledgeWarnings?: boolean } }): Promise<PublishRequestOutcome> {
  const now = ctx.now();
  if (input.at !== undefined && input.at <= now) throw new AppError('validation_error', `at: must be in the future (the service's time is ${now}); send {} to publish now`);
  return withTransaction(ctx, async (tx): Promise<PublishRequestOutcome> => {
    const row = await findDraft(tx.uow.tx, ctx.appId, true);
    if (!row) throw noDraft(ctx.appId);
    if (isPending(row)) throw approvalPending(row);
    const actor = actorLabel(ctx.actor);
    // The two-person rule read first: an app that requires approval writes no live row here (the publish becomes a pending approval).
    const approval = await approvalRequired(tx.uow.tx, ctx.appId);
    // Publishing now: the app's catalog lock taken here, so the live catalog the warnings are checked against is the one
    // the publish replaces, read once. Scheduling (or asking approval) writes no live row: the live catalog is read without it.
    const { at } = input;
    const lock = at === undefined && !approval ? await lockCatalog(tx.uow.tx, ctx.appId) : undefined;
    const live = lock ? lock.before : await readLiveCatalog(tx.uow.tx, ctx.appId);
    const warnings = await draftWarnings(tx.uow.tx, ctx.appId, live, row.catalog);
    if (warnings.length > 0 && input.acknowledgeWarnings !== true) throw needsAcknowledgement(warnings, at !== undefined);
    const acknowledged = warnings.length > 0 ? { acknowledgedWarnings: warnings } : {};
    if (approval) return { status: 202, body: { approval: await requestApproval(tx, row, { publishAt: at ?? null, live, acknowledged }) } };
    if (at === undefined) return { status: 200, body: await publishDraftRow(tx, row, actor, false, acknowledged, lock) };
    await tx.uow.tx.update(catalogDrafts).set({ scheduledAt: at, scheduledBy: actor, scheduledCatalog: row.catalog }).where(eq(catalogDrafts.appId, ctx.appId));
    await recordAudit(tx.uow.tx, { actor, action: 'draft.schedule', appId: ctx.appId, target: 'draft', before: { scheduledAt: row.scheduledAt }, after: { scheduledAt: at, ...acknowledged } }, now);
    return { status: 202, body: { scheduledAt: at } };
  });
}

/** Cancels the draft's scheduled publish: its snapshot is dropped; the draft stays, holding its changes and those made since. 404 draft_not_found without a draft; no schedule is no change. */
export async function cancelScheduledPublish({ ctx }: { ctx: ServiceContext; input?: Record<string, never> }): Promise<{ scheduledAt: null }> {
  return withTransaction(ctx, async (tx) => {
    const row = await findDraft(tx.uow.tx, ctx.appId, true);
    if (!row) throw noDraft(ctx.appId);
    if (row.scheduledAt !== null) {
      await tx.uow.tx.update(catalogDrafts).set({ scheduledAt: null, scheduledBy: null, scheduledCatalog: null }).where(eq(catalogDrafts.appId, ctx.appId));
      await recordAudit(tx.uow.tx, { actor: actorLabel(ctx.actor), action: 'draft.unschedule', appId: ctx.appId, target: 'draft', before: { scheduledAt: row.scheduledAt }, after: { scheduledAt: null } }, ctx.now());
    }
    return { scheduledAt: null };
  });
}
