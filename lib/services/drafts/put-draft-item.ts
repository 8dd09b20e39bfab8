// PUT …/draft/{missions,campaigns,themes}/:id: one mission, campaign or theme
// written into the app's draft (added, or replacing the draft's version of
// it), the draft started from the live catalog when there is none. The item
// is already parsed by its schema; the draft is validated as a whole
// (prerequisites, campaign and theme references). Players see nothing of it
// until the draft is published. A campaign's `missionIds`, when given, assign
// exactly those missions of the draft to it (each one's campaignId is set,
// and the draft's missions left out lose it), as POST/PUT …/campaigns do live.
import type { Draft, DraftCollection } from '@/lib/contract/release';
import { DRAFT_COLLECTIONS } from '@/lib/contract/release';
import type { ServiceContext } from '../context';
import { invalid } from '@/lib/catalog/catalog-document';
import { editDraft, withItem, type DraftItem } from './edit-draft';

export async function putDraftItem({ ctx, input }: { ctx: ServiceContext; input: { collection: DraftCollection; id: string; item: Record<string, unknown> } }): Promise<Draft> {
  const { collection, id } = input;
  // A campaign's missionIds are stored as its missions' campaignId, not on the campaign.
  const { missionIds, ...rest } = input.item;
  const item: DraftItem = { ...(collection === 'campaigns' ? rest : input.item), id };
  return editDraft({
    ctx,
    input: {
      action: `draft.${DRAFT_COLLECTIONS[collection]}.put`,
      change: (current) => {
        const next = withItem(current, collection, id, item);
        if (collection !== 'campaigns' || !Array.isArray(missionIds)) return next;
        const wanted = new Set(missionIds as string[]);
        for (const missionId of wanted) {
          if (!next.missions.some((m) => m.id === missionId)) invalid('missionIds', `"${missionId}" is not a mission of the draft`);
        }
        next.missions = next.missions.map((m) => {
          if (wanted.has(m.id)) return { ...m, campaignId: id };
          if (m.campaignId === id) {
            const { campaignId: _c, ...without } = m;
            return without as DraftItem;
          }
          return m;
        });
        return next;
      },
    },
  });
}
