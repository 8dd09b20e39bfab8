// DELETE …/draft/{missions,campaigns,themes}/:id: the item leaves the app's
// draft (started from the live catalog when there is none); publishing then
// removes it from the live catalog (a mission is archived, like a missing
// mission of PUT …/catalog). What the rest of the draft still uses cannot
// leave it: a campaign with missions, a theme a campaign uses, a mission
// another one requires answer 409 conflict (the live routes' code and words)
// and nothing changes. 404 (mission_not_found,
// campaign_not_found, not_found) when the draft, or the live catalog it
// starts from, has no such item.
import type { CatalogDocument } from '@/lib/contract/catalog';
import { AppError } from '@/lib/errors';
import type { Draft, DraftCollection } from '@/lib/contract/release';
import { DRAFT_COLLECTIONS } from '@/lib/contract/release';
import type { ServiceContext } from '../context';
import { editDraft, itemsOf, withItem } from './edit-draft';

export async function removeDraftItem({ ctx, input }: { ctx: ServiceContext; input: { collection: DraftCollection; id: string } }): Promise<Draft> {
  const { collection, id } = input;
  const kind = DRAFT_COLLECTIONS[collection];
  return editDraft({
    ctx,
    input: {
      action: `draft.${kind}.remove`,
      change: (current) => {
        if (!itemsOf(current, collection).some((item) => item.id === id)) throw notInDraft(ctx.appId, kind, id);
        const users = usersOf(current, collection, id);
        if (users.length > 0) throw inUse(kind, id, users);
        return withItem(current, collection, id, null);
      },
    },
  });
}

/** The draft's items that name item `id`: campaigns of a theme, missions of a campaign, missions requiring a mission. */
function usersOf(doc: CatalogDocument, collection: DraftCollection, id: string): string[] {
  if (collection === 'themes') return doc.campaigns.filter((c) => c.themeId === id).map((c) => c.id);
  if (collection === 'campaigns') return doc.missions.filter((m) => m.campaignId === id).map((m) => m.id);
  return doc.missions.filter((m) => m.prerequisites.includes(id)).map((m) => m.id);
}

function inUse(kind: 'mission' | 'campaign' | 'theme', id: string, users: string[]): AppError {
  const list = users.map((u) => `"${u}"`).join(', ');
  const s = users.length > 1 ? 's' : '';
  if (kind === 'theme') return new AppError('conflict', `Theme "${id}" is used by campaign${s} ${list} in the draft: give them another theme first`);
  if (kind === 'campaign') return new AppError('conflict', `Campaign "${id}" has missions ${list} in the draft: move them out first, or archive the campaign`);
  return new AppError('conflict', `Mission "${id}" is a prerequisite of mission${s} ${list} in the draft: remove it from their prerequisites first, or archive it`);
}

/** The codes of the live per-entity routes: mission_not_found, campaign_not_found, not_found (a theme). */
const NOT_FOUND = { mission: 'mission_not_found', campaign: 'campaign_not_found', theme: 'not_found' } as const;

function notInDraft(appId: string, kind: keyof typeof NOT_FOUND, id: string): AppError {
  return new AppError(NOT_FOUND[kind], `The draft of app "${appId}" has no ${kind} "${id}"`);
}
