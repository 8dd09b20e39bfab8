// The one place a publish of an app's catalog becomes a release: every path
// that changes the live catalog (a draft's publish, scheduled or not, PUT
// …/catalog, the per-entity admin routes of missions, campaigns and themes)
// goes through writeCatalog (lib/services/_shared/catalog-write.ts), which
// takes lockCatalog first and calls recordRelease after the writes, in one
// transaction, so the release and the change commit together or not at all.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { catalogReleases, type CampaignRow } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import type { CatalogDocument } from '@/lib/contract/catalog';
import type { CatalogChange } from '@/lib/contract/release';
import { diffCatalogs, readLiveCatalog, readLiveCatalogRows } from './catalog-document';

/**
 * The app's catalog lock, held to the transaction's end: made only by
 * lockCatalog, so recordRelease can rely on the app's row being held (it
 * does not lock it again), and carrying the live catalog as it was then, the
 * `before` of the release (read once per write).
 */
export interface CatalogLock {
  readonly appId: string;
  /** The live catalog when the lock was taken (read with the same transaction, before its writes). */
  readonly before: CatalogDocument;
  /** The campaign rows `before` was made of. */
  readonly campaignRows: readonly CampaignRow[];
}

export interface ReleaseInput {
  lock: CatalogLock;
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
 * never take the same number) and reads the live catalog as it is, the
 * `before` of the release.
 */
export async function lockCatalog(tx: Tx, appId: string): Promise<CatalogLock> {
  await tx.execute(sql`select 1 from apps where id = ${appId} for update`);
  const { catalog, campaignRows } = await readLiveCatalogRows(tx, appId);
  return { appId, before: catalog, campaignRows };
}

/** The app's release number after the latest (1 for the first); the app's row is held by lockCatalog, so no other writer takes it. */
async function nextReleaseNumber(tx: Tx, appId: string): Promise<number> {
  return (await latestRelease(tx, appId)) + 1;
}

/**
 * Records the live catalog as it now is (after the transaction's writes) as
 * the app's next release, with what changed against the lock's `before`;
 * audited as `catalog.release`. Answers null when nothing changed and
 * `always` is not set.
 */
export async function recordRelease(tx: Tx, input: ReleaseInput): Promise<RecordedRelease | null> {
  const { appId, before } = input.lock;
  const catalog = await readLiveCatalog(tx, appId);
  const changes = input.changes ?? diffCatalogs(before, catalog);
  if (changes.length === 0 && !input.always) return null;
  const release = await nextReleaseNumber(tx, appId);
  await tx.insert(catalogReleases).values({ appId, release, catalog, changes, publishedAt: input.now, publishedBy: input.actor });
  await recordAudit(tx, { actor: input.actor, action: 'catalog.release', appId, target: `release:${release}`, before: null, after: { release, changes } }, input.now);
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
