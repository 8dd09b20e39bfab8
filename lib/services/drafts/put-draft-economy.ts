// PUT …/draft/economy: the draft's currencies and items sections (the Economy
// screen), each replaced whole when given and kept when not, the draft started
// from the live catalog when there is none. The draft is then validated as a
// whole: with a section present every reward and budget line of the draft
// must name one of its ids (400 naming the path and the nearest id).
import type { Draft } from '@/lib/contract/release';
import { parseEconomySections } from '@/lib/catalog/catalog-document';
import type { ServiceContext } from '../context';
import { economyOf, editDraft, itemsOf } from './edit-draft';

export async function putDraftEconomy({ ctx, input }: { ctx: ServiceContext; input: { currencies?: unknown[]; items?: unknown[] } }): Promise<Draft> {
  const sections = parseEconomySections(input);
  return editDraft({
    ctx,
    input: {
      action: 'draft.economy.put',
      change: (current) => ({
        missions: itemsOf(current, 'missions'),
        campaigns: itemsOf(current, 'campaigns'),
        themes: itemsOf(current, 'themes'),
        ...economyOf(current),
        ...sections,
      }),
    },
  });
}
