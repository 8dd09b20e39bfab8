// The one place a publish of an app's catalog becomes a release: every path
// that changes the live catalog (a draft's publish, scheduled or not, PUT
// …/catalog, the per-entity admin routes of missions, campaigns and themes)
// calls recordRelease inside its own transaction, after its writes, so the
// release and the change commit together or not at all.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { catalogReleases } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import type { CatalogDocument } from '@/lib/contract/catalog';
import type { CatalogChange } from '@/lib/contract/release';
import { diffCatalogs, readLiveCatalog } from './catalog-document';

export interface ReleaseInput {
  appId: string;
  /** The live catalog as it was when the transaction began (read with the same transaction, before its writes). */
  before: CatalogDocument;
  /** The audit label of who publishes (staff:<email>, admin-api-key, system). */
  actor: string;
  now: number;
  /** What the release changed, when the caller knows it better than a diff of the live tables (a draft: its removals). */
  changes?: CatalogChange[];
  /** Make a release even when nothing changed (an explicit publish); otherwise a write that changed nothing makes none. */
  always?: boolean;
}

export interface RecordedRelease {
  release: number;
  publishedAt: number;
  changes: CatalogChange[];
  catalog: CatalogDocument;
}

/**
 * The first step of every write of an app's live catalog: takes the app's row
 * lock (held to commit: one catalog writer per app at a time, always locked
 * first, so writers of different entities never deadlock and two releases
 * never take the same number) and answers the live catalog as it is, the
 * `before` of the release.
 */
export async function beginCatalogWrite(tx: Tx, appId: string): Promise<CatalogDocument> {
  await tx.execute(sql`select 1 from apps where id = ${appId} for update`);
  return readLiveCatalog(tx, appId);
}

/** The app's release number after the latest (1 for the first); the app's row is locked by beginCatalogWrite. */
async function nextReleaseNumber(tx: Tx, appId: string): Promise<number> {
  await tx.execute(sql`select 1 from apps where id = ${appId} for update`);
  const [last] = await tx
    .select({ release: catalogReleases.release })
    .from(catalogReleases)
    .where(eq(catalogReleases.appId, appId))
    .orderBy(desc(catalogReleases.release))
    .limit(1);
  return (last?.release ?? 0) + 1;
}

/**
 * Records the live catalog as it now is (after the transaction's writes) as
 * the app's next release, with what changed against `before`; audited as
 * `catalog.release`. Answers null when nothing changed and `always` is not set.
 */
export async function recordRelease(tx: Tx, input: ReleaseInput): Promise<RecordedRelease | null> {
  const catalog = await readLiveCatalog(tx, input.appId);
  const changes = input.changes ?? diffCatalogs(input.before, catalog);
  if (changes.length === 0 && !input.always) return null;
  const release = await nextReleaseNumber(tx, input.appId);
  await tx.insert(catalogReleases).values({ appId: input.appId, release, catalog, changes, publishedAt: input.now, publishedBy: input.actor });
  await recordAudit(tx, { actor: input.actor, action: 'catalog.release', appId: input.appId, target: `release:${release}`, before: null, after: { release, changes } }, input.now);
  return { release, publishedAt: input.now, changes, catalog };
}

/** The catalog release `release` published, or null. */
export async function releaseCatalog(tx: Tx | Parameters<typeof readLiveCatalog>[0], appId: string, release: number): Promise<CatalogDocument | null> {
  const [row] = await tx
    .select({ catalog: catalogReleases.catalog })
    .from(catalogReleases)
    .where(and(eq(catalogReleases.appId, appId), eq(catalogReleases.release, release)));
  return row?.catalog ?? null;
}

/** The app's latest release number (0 when it has none). */
export async function latestRelease(db: Parameters<typeof readLiveCatalog>[0], appId: string): Promise<number> {
  const [last] = await db
    .select({ release: catalogReleases.release })
    .from(catalogReleases)
    .where(eq(catalogReleases.appId, appId))
    .orderBy(desc(catalogReleases.release))
    .limit(1);
  return last?.release ?? 0;
}
