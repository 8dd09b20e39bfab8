// One item of the draft changed at a time (the console's editors): the draft,
// or the live catalog when there is none yet, is read under the draft's row
// lock, changed, validated as a whole document (the same parse as PUT …/draft:
// item schemas, prerequisites, campaign and theme references) and stored in
// the same transaction. Items are replaced whole; writes of other items made
// meanwhile are kept (each write reads the latest draft under the lock).
import type { CatalogDocument } from '@/lib/contract/catalog';
import type { DraftCollection, Draft } from '@/lib/contract/release';
import { withTransaction, type ServiceContext, type TxContext } from '../context';
import { parseCatalogDocument, readLiveCatalog } from '@/lib/catalog/catalog-document';
import { findDraft, noDraft } from './draft-row';
import { storeDraft } from './put-draft';

export type DraftItem = { id: string } & Record<string, unknown>;
/** A draft document as plain items; the currencies and items sections carried as they are (absent stays absent). */
export type DraftItems = { missions: DraftItem[]; campaigns: DraftItem[]; themes: DraftItem[] } & Pick<CatalogDocument, 'currencies' | 'items'>;

/** The draft's document as plain items (a campaign's derived missionIds left out: parseCatalogDocument derives them again). */
export function itemsOf(doc: CatalogDocument, collection: DraftCollection): DraftItem[] {
  const items = (doc[collection] ?? []) as unknown as DraftItem[];
  return collection === 'campaigns' ? items.map(({ missionIds: _ids, ...c }) => c as DraftItem) : items;
}

/**
 * Runs `change` on the app's draft document (started from the live catalog
 * when the app has no draft) and stores the result, validated as a whole,
 * audited as `action` with the item's id. `change` answers the new document
 * (plain items) and may read the live catalog it is given.
 */
export async function editDraft<T = Draft>({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: {
    action: string;
    /** Refuse (404 draft_not_found) when the app has no draft, instead of starting one from the live catalog. */
    requireDraft?: boolean;
    change: (current: CatalogDocument, live: CatalogDocument, tx: TxContext) => DraftItems;
    answer?: (draft: Draft) => T;
  };
}): Promise<T> {
  const { action, change, answer = (draft: Draft) => draft as T } = input;
  return withTransaction(ctx, async (tx) => {
    const db = tx.uow.tx;
    // The draft row under its lock and the live catalog, each read once for the whole save.
    const row = await findDraft(db, ctx.appId, true);
    if (!row && input.requireDraft) throw noDraft(ctx.appId);
    const live = await readLiveCatalog(db, ctx.appId);
    const next = parseCatalogDocument(change(row ? row.catalog : live, live, tx));
    return answer(await storeDraft(tx, next, action, { read: { row, live } }));
  });
}

/** The document with `collection`'s item `id` replaced by `item` (or removed when `item` is null); other items as they are. */
export function withItem(doc: CatalogDocument, collection: DraftCollection, id: string, item: DraftItem | null) {
  const out: DraftItems = { missions: itemsOf(doc, 'missions'), campaigns: itemsOf(doc, 'campaigns'), themes: itemsOf(doc, 'themes'), ...economyOf(doc) };
  const rest = out[collection].filter((other) => other.id !== id);
  out[collection] = item ? [...rest, item] : rest;
  return out;
}

/** The document's currencies and items sections, those it carries. */
export function economyOf(doc: CatalogDocument): Pick<CatalogDocument, 'currencies' | 'items'> {
  return { ...(doc.currencies ? { currencies: doc.currencies } : {}), ...(doc.items ? { items: doc.items } : {}) };
}
