// Reading the draft row of an app and answering it with its changes against live.
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { catalogDrafts, type CatalogDraftRow } from '@/db/schema';
import type { Draft } from '@/lib/contract/release';
import { AppError } from '@/lib/errors';
import { diffCatalogs, readLiveCatalog } from '@/lib/catalog/catalog-document';

export async function findDraft(db: DbOrTx, appId: string, forUpdate = false): Promise<CatalogDraftRow | null> {
  const query = db.select().from(catalogDrafts).where(eq(catalogDrafts.appId, appId));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

export function noDraft(appId: string): AppError {
  return new AppError('draft_not_found', `App "${appId}" has no draft (PUT …/draft or restore a release to start one)`);
}

/** The draft as the API answers it: its catalog, base release, changes against the live catalog, who and when. */
export async function draftAnswer(db: DbOrTx, row: CatalogDraftRow): Promise<Draft> {
  const live = await readLiveCatalog(db, row.appId);
  return {
    catalog: row.catalog,
    baseRelease: row.baseRelease,
    changes: diffCatalogs(live, row.catalog),
    updatedAt: row.updatedAt,
    updatedBy: row.updatedBy,
    scheduledAt: row.scheduledAt ?? null,
  };
}
