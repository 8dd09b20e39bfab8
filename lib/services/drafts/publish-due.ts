// The scheduled publishes that are due: each claimed and published in one
// transaction. The claim is the draft row's lock (FOR UPDATE SKIP LOCKED):
// instances polling at once each take another row or none, and a publish that
// rolls back (a crash, a lost connection) leaves the row due for the next
// poll, so each schedule goes live exactly once, whichever instance runs it.
import { and, asc, isNotNull, lte } from 'drizzle-orm';
import { catalogDrafts } from '@/db/schema';
import { withTransaction, type ServiceContext } from '../context';
import { publishDraftRow } from './publish-draft';

export interface DuePublish {
  appId: string;
  release: number;
  scheduledAt: number;
  publishedAt: number;
}

/** Publishes one due draft, if any (ctx: any app; the system as actor). */
async function publishOneDue(ctx: ServiceContext): Promise<DuePublish | null> {
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.uow.tx
      .select()
      .from(catalogDrafts)
      .where(and(isNotNull(catalogDrafts.scheduledAt), lte(catalogDrafts.scheduledAt, ctx.now())))
      .orderBy(asc(catalogDrafts.scheduledAt))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!row) return null;
    const scheduledAt = row.scheduledAt!;
    const published = await publishDraftRow({ ...tx, appId: row.appId }, row, row.scheduledBy ?? 'system', true);
    return { appId: row.appId, scheduledAt, ...published };
  });
}

/** Every due draft published, one transaction each (at most `limit` per call). */
export async function publishDueDrafts({ ctx, input = {} }: { ctx: ServiceContext; input?: { limit?: number } }): Promise<DuePublish[]> {
  const out: DuePublish[] = [];
  for (let i = 0; i < (input.limit ?? 100); i++) {
    const done = await publishOneDue(ctx);
    if (!done) break;
    out.push(done);
  }
  return out;
}
