// POST …/draft/{missions,campaigns,themes}/:id/revert: undo the draft's change
// of one item. The draft gets the live version of the item back, or loses the
// item when it is not live (an added one). The rest of the draft must stay
// valid (reverting an added campaign its draft missions use is refused, 400 validation_error).
// 404 draft_not_found when the app has no draft.
import type { Draft, DraftCollection } from '@/lib/contract/release';
import { DRAFT_COLLECTIONS } from '@/lib/contract/release';
import type { ServiceContext } from '../context';
import { editDraft, itemsOf, withItem } from './edit-draft';

export async function revertDraftItem({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { collection: DraftCollection; id: string };
}): Promise<{ draft: Draft; restored: 'live' | 'removed' }> {
  const { collection, id } = input;
  let restored: 'live' | 'removed' = 'removed';
  const draft = await editDraft({
    ctx,
    input: {
      action: `draft.${DRAFT_COLLECTIONS[collection]}.revert`,
      requireDraft: true,
      change: (current, live) => {
        const liveItem = itemsOf(live, collection).find((item) => item.id === id) ?? null;
        if (liveItem) restored = 'live';
        return withItem(current, collection, id, liveItem);
      },
    },
  });
  return { draft, restored };
}
