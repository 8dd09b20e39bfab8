// Publishing the app's draft: now (the draft's catalog goes live and becomes
// the next release, in one transaction, and the draft is gone), or at a time
// in the future (a scheduled publish: the draft row carries the time, and the
// poller of whichever instance claims it first publishes what the draft holds
// then; lib/releases/scheduler.ts). DELETE …/draft/publish cancels a schedule.
import { eq } from 'drizzle-orm';
import { catalogDrafts, type CatalogDraftRow } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import { AppError } from '@/lib/errors';
import { actorLabel, withTransaction, type ServiceContext, type TxContext } from '../context';
import { publishCatalog } from '../releases/publish-catalog';
import { findDraft, noDraft } from './draft-row';

export type PublishOutcome = { status: 200; body: { release: number; publishedAt: number } } | { status: 202; body: { scheduledAt: number } };

/** The draft `row` (locked by the caller) published and deleted, in the caller's transaction. */
export async function publishDraftRow(tx: TxContext, row: CatalogDraftRow, publishedBy: string, scheduled: boolean): Promise<{ release: number; publishedAt: number }> {
  const published = await publishCatalog({ ctx: tx, input: { catalog: row.catalog, publishedBy } });
  await tx.uow.tx.delete(catalogDrafts).where(eq(catalogDrafts.appId, row.appId));
  await recordAudit(
    tx.uow.tx,
    { actor: publishedBy, action: 'draft.publish', appId: row.appId, target: `release:${published.release}`, before: { baseRelease: row.baseRelease, scheduledAt: row.scheduledAt }, after: { release: published.release, scheduled, changes: published.changes } },
    published.publishedAt,
  );
  return { release: published.release, publishedAt: published.publishedAt };
}

export async function publishDraft({ ctx, input }: { ctx: ServiceContext; input: { at?: number } }): Promise<PublishOutcome> {
  const now = ctx.now();
  if (input.at !== undefined && input.at <= now) throw new AppError('validation_error', `at: must be in the future (the service's time is ${now}); send {} to publish now`);
  return withTransaction(ctx, async (tx): Promise<PublishOutcome> => {
    const row = await findDraft(tx.uow.tx, ctx.appId, true);
    if (!row) throw noDraft(ctx.appId);
    const actor = actorLabel(ctx.actor);
    if (input.at === undefined) return { status: 200, body: await publishDraftRow(tx, row, actor, false) };
    await tx.uow.tx.update(catalogDrafts).set({ scheduledAt: input.at, scheduledBy: actor }).where(eq(catalogDrafts.appId, ctx.appId));
    await recordAudit(tx.uow.tx, { actor, action: 'draft.schedule', appId: ctx.appId, target: 'draft', before: { scheduledAt: row.scheduledAt }, after: { scheduledAt: input.at } }, now);
    return { status: 202, body: { scheduledAt: input.at } };
  });
}

/** Cancels the draft's scheduled publish (the draft stays). 404 draft_not_found without a draft; no schedule is no change. */
export async function cancelScheduledPublish({ ctx }: { ctx: ServiceContext; input?: Record<string, never> }): Promise<{ scheduledAt: null }> {
  return withTransaction(ctx, async (tx) => {
    const row = await findDraft(tx.uow.tx, ctx.appId, true);
    if (!row) throw noDraft(ctx.appId);
    if (row.scheduledAt !== null) {
      await tx.uow.tx.update(catalogDrafts).set({ scheduledAt: null, scheduledBy: null }).where(eq(catalogDrafts.appId, ctx.appId));
      await recordAudit(tx.uow.tx, { actor: actorLabel(ctx.actor), action: 'draft.unschedule', appId: ctx.appId, target: 'draft', before: { scheduledAt: row.scheduledAt }, after: { scheduledAt: null } }, ctx.now());
    }
    return { scheduledAt: null };
  });
}
