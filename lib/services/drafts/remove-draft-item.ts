// DELETE …/draft/{missions,campaigns,themes}/:id: the item leaves the app's
// draft (started from the live catalog when there is none); publishing then
// removes it from the live catalog (a mission is archived, like a missing
// mission of PUT …/catalog). The rest of the draft must stay valid: a campaign
// with missions, a theme a campaign uses, a mission another one requires
// answer 400 validation_error and nothing changes. 404 (mission_not_found,
// campaign_not_found, not_found) when the draft, or the live catalog it
// starts from, has no such item.
import { AppError } from '@/lib/errors';
import type { Draft, DraftCollection } from '@/lib/contract/release';
import { DRAFT_COLLECTIONS } from '@/lib/contract/release';
import type { ServiceContext } from '../context';
import { editDraft, itemsOf, withItem } from './edit-draft';

export async function removeDraftItem({ ctx, input }: { ctx: ServiceContext; input: { collection: DraftCollection; id: string } }): Promise<Draft> {
  const { collection, id } = input;
  const kind = DRAFT_COLLECTIONS[collection];
  return editDraft(ctx, `draft.${kind}.remove`, (current) => {
    if (!itemsOf(current, collection).some((item) => item.id === id)) throw notInDraft(ctx.appId, kind, id);
    return withItem(current, collection, id, null);
  });
}

/** The codes of the live per-entity routes: mission_not_found, campaign_not_found, not_found (a theme). */
const NOT_FOUND = { mission: 'mission_not_found', campaign: 'campaign_not_found', theme: 'not_found' } as const;

function notInDraft(appId: string, kind: keyof typeof NOT_FOUND, id: string): AppError {
  return new AppError(NOT_FOUND[kind], `The draft of app "${appId}" has no ${kind} "${id}"`);
}
