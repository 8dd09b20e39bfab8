// Writes the app's draft: a whole catalog document, validated as a whole (the
// same item schemas as PUT …/catalog, every reference inside the document).
// The first write starts the draft from the latest release; a scheduled
// publish stays scheduled and publishes its snapshot (the draft as it was when
// scheduled): this write is not in it, it is the next draft's.
import type { CatalogDocument } from '@/lib/contract/catalog';
import type { Draft } from '@/lib/contract/release';
import { recordAudit } from '@/lib/audit';
import { catalogDrafts, type CatalogDraftRow } from '@/db/schema';
import { actorLabel, withTransaction, type ServiceContext, type TxContext } from '../context';
import { parseCatalogDocument } from '@/lib/catalog/catalog-document';
import { latestRelease } from '@/lib/catalog/record-release';
import { draftAnswer, findDraft } from './draft-row';

/**
 * Stores `catalog` (already normalised) as the draft, inside the caller's
 * transaction; audited as `action`. `read`: the draft row (null: none) and the
 * live catalog when the caller read them in this transaction, the row under
 * its lock (editDraft), so neither is read again.
 */
export async function storeDraft(
  tx: TxContext,
  catalog: CatalogDocument,
  action: string,
  opts: { baseRelease?: number; read?: { row: CatalogDraftRow | null; live: CatalogDocument } } = {},
): Promise<Draft> {
  const db = tx.uow.tx;
  const now = tx.now();
  const actor = actorLabel(tx.actor);
  const current = opts.read ? opts.read.row : await findDraft(db, tx.appId, true);
  const base = opts.baseRelease ?? current?.baseRelease ?? (await latestRelease(db, tx.appId));
  const values = { catalog, baseRelease: base, updatedAt: now, updatedBy: actor };
  const [row] = await db
    .insert(catalogDrafts)
    .values({ appId: tx.appId, ...values })
    .onConflictDoUpdate({ target: catalogDrafts.appId, set: values })
    .returning();
  const answer = await draftAnswer(db, row, opts.read?.live);
  await recordAudit(db, { actor, action, appId: tx.appId, target: 'draft', before: null, after: { baseRelease: base, changes: answer.changes } }, now);
  return answer;
}

export async function putDraft({ ctx, input }: { ctx: ServiceContext; input: { catalog: unknown } }): Promise<Draft> {
  const catalog = parseCatalogDocument(input.catalog);
  return withTransaction(ctx, (tx) => storeDraft(tx, catalog, 'draft.update'));
}
