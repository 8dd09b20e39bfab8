// PUT …/draft/{missions,campaigns,themes}/:id: one mission, campaign or theme
// written into the app's draft (added, or replacing the draft's version of
// it), the draft started from the live catalog when there is none. The item
// is already parsed by its schema; the draft is validated as a whole
// (prerequisites, campaign and theme references). Players see nothing of it
// until the draft is published.
import type { Draft, DraftCollection } from '@/lib/contract/release';
import { DRAFT_COLLECTIONS } from '@/lib/contract/release';
import type { ServiceContext } from '../context';
import { editDraft, withItem, type DraftItem } from './edit-draft';

export async function putDraftItem({ ctx, input }: { ctx: ServiceContext; input: { collection: DraftCollection; id: string; item: Record<string, unknown> } }): Promise<Draft> {
  const { collection, id } = input;
  // A campaign's missionIds are derived from its missions' campaignId: never taken from the body.
  const { missionIds: _ids, ...rest } = input.item;
  const item: DraftItem = { ...(collection === 'campaigns' ? rest : input.item), id };
  return editDraft(ctx, `draft.${DRAFT_COLLECTIONS[collection]}.put`, (current) => withItem(current, collection, id, item));
}
