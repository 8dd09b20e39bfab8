// The app's releases, newest first (without their catalogs), and the draft's scheduled publish if any.
import { desc, eq } from 'drizzle-orm';
import { catalogReleases } from '@/db/schema';
import type { ReleaseList } from '@/lib/contract/release';
import type { ServiceContext } from '../context';
import { findDraft, scheduleAnswer } from '../drafts/draft-row';
import { readLiveCatalog } from '@/lib/catalog/catalog-document';

/** At most this many releases are listed (the newest). */
const RELEASES_LISTED = 200;

export async function listReleases({ ctx }: { ctx: ServiceContext; input?: Record<string, never> }): Promise<ReleaseList> {
  const db = ctx.deps.db;
  const rows = await db
    .select({ release: catalogReleases.release, publishedAt: catalogReleases.publishedAt, publishedBy: catalogReleases.publishedBy, changes: catalogReleases.changes })
    .from(catalogReleases)
    .where(eq(catalogReleases.appId, ctx.appId))
    .orderBy(desc(catalogReleases.release))
    .limit(RELEASES_LISTED);
  const draft = await findDraft(db, ctx.appId);
  const schedule = draft ? await scheduleAnswer(db, draft, await readLiveCatalog(db, ctx.appId)) : null;
  return { releases: rows, scheduled: schedule };
}
