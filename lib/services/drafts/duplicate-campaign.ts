// POST …/draft/campaigns/:id/duplicate: a copy of a campaign and of every
// mission in it, written into the app's draft with new ids (the draft started
// from the live catalog when there is none). The copies keep everything of
// the originals (schedule, theme, audience, budget caps, criteria, rewards),
// except:
// - ids: the given one for the campaign, else `<id>-copy` (then `-copy-2`,
//   `-copy-3`, …), and `<mission id>-copy` (and so on) for each mission, never
//   one the draft or the live catalog uses;
// - the campaign's title: the given one, else "<title> (copy)"; missions keep
//   their titles (they are told apart by their campaign);
// - references inside the copy: a copied mission's prerequisite that is a
//   mission of the same campaign points to that mission's copy; one outside
//   the campaign stays as it is.
// Archived missions of the campaign are not copied. What the original paid
// (budgetSpent) is the original's: the copy starts from nothing, against the
// same caps. 404 campaign_not_found when the draft (or, without a draft, the
// live catalog) has no such campaign; 409 conflict when the given id is taken.
import type { CatalogDocument } from '@/lib/contract/catalog';
import type { DuplicateCampaignInput, DraftCampaignDuplicated } from '@/lib/contract/release';
import { AppError } from '@/lib/errors';
import type { ServiceContext } from '../context';
import { editDraft, itemsOf, type DraftItem, economyOf } from './edit-draft';

const MAX_ID = 64;

/** `<base>-copy`, `<base>-copy-2`, … : the first that no id in `taken` has (the base cut so the id fits 64 characters). */
function freeId(base: string, taken: Set<string>): string {
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? '-copy' : `-copy-${n}`;
    const id = base.slice(0, MAX_ID - suffix.length) + suffix;
    if (!taken.has(id)) return id;
  }
}

export async function duplicateCampaign({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { campaignId: string } & DuplicateCampaignInput;
}): Promise<DraftCampaignDuplicated> {
  const { campaignId } = input;
  let copyId = '';
  const missionIds: Record<string, string> = {};
  const change = (current: CatalogDocument, live: CatalogDocument) => {
    const campaigns = itemsOf(current, 'campaigns');
    const missions = itemsOf(current, 'missions');
    const source = campaigns.find((c) => c.id === campaignId);
    if (!source) throw new AppError('campaign_not_found', `Campaign "${campaignId}" is not in the ${current === live ? 'live catalog' : 'draft'}`);
    // Ids the copy may not take: the draft's and the live catalog's (a removed live item may come back by a revert).
    const takenCampaigns = new Set([...campaigns, ...itemsOf(live, 'campaigns')].map((c) => c.id));
    const takenMissions = new Set([...missions, ...itemsOf(live, 'missions')].map((m) => m.id));
    if (input.id !== undefined && takenCampaigns.has(input.id)) throw new AppError('conflict', `Campaign "${input.id}" exists already in the draft or the live catalog: choose another id`);
    copyId = input.id ?? freeId(campaignId, takenCampaigns);

    const originals = missions.filter((m) => m.campaignId === campaignId && m.archived !== true);
    for (const m of originals) {
      const id = freeId(m.id, takenMissions);
      takenMissions.add(id);
      missionIds[m.id] = id;
    }
    const copies: DraftItem[] = originals.map((m) => ({
      ...m,
      id: missionIds[m.id],
      campaignId: copyId,
      prerequisites: ((m.prerequisites as string[] | undefined) ?? []).map((p) => missionIds[p] ?? p),
    }));
    const campaign: DraftItem = { ...source, id: copyId, title: input.title ?? `${String(source.title).slice(0, 193)} (copy)` };
    return { missions: [...missions, ...copies], campaigns: [...campaigns, campaign], themes: itemsOf(current, 'themes'), ...economyOf(current) };
  };
  const draft = await editDraft({ ctx, input: { action: 'draft.campaign.duplicate', change } });
  return { draft, campaignId: copyId, missionIds };
}
