// Reading the draft row of an app and answering it with its changes against live.
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { catalogDrafts, type CatalogDraftRow } from '@/db/schema';
import type { CatalogDocument } from '@/lib/contract/catalog';
import type { Draft, ScheduledRelease } from '@/lib/contract/release';
import { AppError } from '@/lib/errors';
import { diffCatalogs, readLiveCatalog } from '@/lib/catalog/catalog-document';
import { latestRelease } from '@/lib/catalog/record-release';
import { changeDetailsOf, draftWarnings } from './review-draft';
import { approvalAnswer } from './approval';

export async function findDraft(db: DbOrTx, appId: string, forUpdate = false): Promise<CatalogDraftRow | null> {
  const query = db.select().from(catalogDrafts).where(eq(catalogDrafts.appId, appId));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

export function noDraft(appId: string): AppError {
  return new AppError('draft_not_found', `App "${appId}" has no draft (PUT …/draft or restore a release to start one)`);
}

/** What a scheduled publish makes live: its snapshot (a schedule made before snapshots publishes the draft as it is). */
export function scheduledCatalogOf(row: CatalogDraftRow): CatalogDocument {
  return row.scheduledCatalog ?? row.catalog;
}

/** The draft's scheduled publish as the API answers it (null when none): its snapshot against live, and the draft's edits since. */
export async function scheduleAnswer(db: DbOrTx, row: CatalogDraftRow, live: CatalogDocument): Promise<ScheduledRelease | null> {
  if (row.scheduledAt === null) return null;
  const snapshot = scheduledCatalogOf(row);
  return {
    scheduledAt: row.scheduledAt,
    scheduledBy: row.scheduledBy ?? 'system',
    release: (await latestRelease(db, row.appId)) + 1,
    changes: diffCatalogs(live, snapshot),
    changesSince: diffCatalogs(snapshot, row.catalog),
  };
}

/** The draft as the API answers it: its catalog, base release, changes against the live catalog (`live`: read here when not given), who and when, its schedule, its pending approval. */
export async function draftAnswer(db: DbOrTx, row: CatalogDraftRow, live?: CatalogDocument): Promise<Draft> {
  live ??= await readLiveCatalog(db, row.appId);
  const changes = diffCatalogs(live, row.catalog);
  return {
    catalog: row.catalog,
    baseRelease: row.baseRelease,
    changes,
    updatedAt: row.updatedAt,
    updatedBy: row.updatedBy,
    scheduledAt: row.scheduledAt ?? null,
    schedule: await scheduleAnswer(db, row, live),
    changeDetails: changeDetailsOf(live, row.catalog, changes),
    warnings: await draftWarnings(db, row.appId, live, row.catalog, changes),
    approval: await approvalAnswer(db, row, live),
    rejection: row.approvalRejection ?? null,
  };
}
