// The currencies and items of an app's catalog (issue 39 §1): the sections'
// own checks (ids unique, also ignoring case), every reward and budget line of
// a document against the sections it carries, and the app's list when a
// section is absent: the ids the catalog names, each with name = id.
// Pure; the storage is the catalog_economy row (lib/services/economy).
import type { Campaign } from '@/lib/contract/campaign';
import type { CurrencyDefinition, EconomySections, ItemDefinition } from '@/lib/contract/economy';
import { rewardsOf, type Reward } from '@/lib/contract/mission';
import { AppError } from '@/lib/errors';

type RewardHolder = { reward: Reward; rewards?: Reward[] };

/** Each reward of a mission with its path: `reward` for a mission of one, `rewards[j]` for each of a bundle. */
const rewardsWithPath = (m: RewardHolder, i: number): Array<[Reward, string]> =>
  m.rewards && m.rewards.length > 1 ? m.rewards.map((r, j) => [r, `missions[${i}].rewards[${j}]`]) : [[m.reward, `missions[${i}].reward`]];
type BudgetHolder = Pick<Campaign, 'budget'>;

/** The id `seen` was most likely meant to be: one differing only in case first, else the nearest slip; null when none is near. */
function nearestId(seen: string, candidates: readonly string[]): string | null {
  if (candidates.includes(seen)) return null;
  const lower = seen.toLowerCase();
  const sameButCase = candidates.find((c) => c.toLowerCase() === lower);
  if (sameButCase !== undefined) return sameButCase;
  let best: { id: string; distance: number } | null = null;
  for (const id of candidates) {
    const distance = editDistance(lower, id.toLowerCase());
    // A slip, not another id: within a third of the longer one, 1 to 3 edits (as lib/missions/did-you-mean.ts; not imported: lib/missions imports lib/catalog).
    if (distance > Math.min(3, Math.max(1, Math.floor(Math.max(lower.length, id.length) / 3)))) continue;
    if (best === null || distance < best.distance) best = { id, distance };
  }
  return best?.id ?? null;
}

/** Levenshtein distance (insertions, deletions, substitutions, each 1). */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

function undefinedId(path: string, seen: string, what: 'a currency' | 'an item' | 'a badge', candidates: readonly string[]): AppError {
  const nearest = nearestId(seen, candidates);
  const hint =
    nearest !== null
      ? `; did you mean "${nearest}"?`
      : candidates.length > 0
        ? ` (defined: ${candidates
            .slice(0, 10)
            .map((c) => `"${c}"`)
            .join(', ')}${candidates.length > 10 ? ', …' : ''})`
        : ` (the app defines none)`;
  return new AppError('validation_error', `${path}: "${seen}" is not ${what} of this app${hint}`);
}

/** Two ids of a section that differ only in case are refused: one of them would be a typo of the other. */
export function checkSectionIds(kind: 'currencies' | 'items', defs: ReadonlyArray<{ id: string }>): void {
  const seen = new Map<string, string>();
  defs.forEach((d, i) => {
    const key = d.id.toLowerCase();
    const other = seen.get(key);
    if (other !== undefined && other !== d.id) {
      throw new AppError('validation_error', `${kind}[${i}] (id "${d.id}"): differs from "${other}" only in case (ids are case-sensitive, so one would be taken for the other)`);
    }
    seen.set(key, d.id);
  });
}

/**
 * Every reward and budget line of the document names an id of its sections
 * (a section absent: not checked). `missions` and `campaigns` in the order the
 * document lists them, so the path's index is the author's.
 */
export function checkEconomyReferences(sections: EconomySections, missions: readonly RewardHolder[], campaigns: readonly BudgetHolder[]): void {
  if (sections.currencies) {
    const ids = sections.currencies.map((c) => c.id);
    const known = new Set(ids);
    missions.forEach((m, i) => {
      for (const [r, path] of rewardsWithPath(m, i)) if (r.kind === 'currency' && !known.has(r.currency)) throw undefinedId(`${path}.currency`, r.currency, 'a currency', ids);
    });
    campaigns.forEach((c, i) =>
      (c.budget ?? []).forEach((line, j) => {
        if (!known.has(line.currency)) throw undefinedId(`campaigns[${i}].budget[${j}].currency`, line.currency, 'a currency', ids);
      }),
    );
  }
  if (sections.items) {
    const items = sections.items.filter((d) => d.kind === 'item').map((d) => d.id);
    const badges = sections.items.filter((d) => d.kind === 'badge').map((d) => d.id);
    missions.forEach((m, i) => {
      for (const [r, path] of rewardsWithPath(m, i)) {
        if (r.kind === 'item' && !items.includes(r.itemId)) throw undefinedId(`${path}.itemId`, r.itemId, 'an item', items);
        if (r.kind === 'badge' && !badges.includes(r.badgeId)) throw undefinedId(`${path}.badgeId`, r.badgeId, 'a badge', badges);
      }
    });
  }
}

/** A grant or spend names a currency of a defined section (400 with the nearest id otherwise). */
export function checkGrantCurrency(currencies: readonly CurrencyDefinition[] | null, currency: string, path = 'currency'): void {
  if (currencies === null || currencies.some((c) => c.id === currency)) return;
  throw undefinedId(path, currency, 'a currency', currencies.map((c) => c.id));
}

/** The currencies and items the catalog names, in a stable order (missions, then budgets). */
export function namedIds(missions: readonly RewardHolder[], campaigns: readonly BudgetHolder[]): { currencies: string[]; items: Array<{ id: string; kind: 'item' | 'badge' }> } {
  const currencies = new Set<string>();
  const items = new Map<string, 'item' | 'badge'>();
  for (const r of missions.flatMap(rewardsOf)) {
    if (r.kind === 'currency') currencies.add(r.currency);
    if (r.kind === 'item' && !items.has(r.itemId)) items.set(r.itemId, 'item');
    if (r.kind === 'badge' && !items.has(r.badgeId)) items.set(r.badgeId, 'badge');
  }
  for (const c of campaigns) for (const line of c.budget ?? []) currencies.add(line.currency);
  return { currencies: [...currencies], items: [...items].map(([id, kind]) => ({ id, kind })) };
}

const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * A defined section completed with what the catalog still names outside it
 * (an archived mission's reward, a currency players hold when the section is
 * first defined): each added with name = id. An absent section stays absent.
 */
export function completeSections(
  sections: EconomySections,
  named: { currencies: readonly string[]; items: ReadonlyArray<{ id: string; kind: 'item' | 'badge' }> },
): EconomySections {
  const out: EconomySections = {};
  if (sections.currencies) {
    const have = new Set(sections.currencies.map((c) => c.id));
    const added: CurrencyDefinition[] = named.currencies.filter((id) => !have.has(id)).map((id) => ({ id, name: id }));
    out.currencies = [...sections.currencies, ...unique(added)].sort(byId);
  }
  if (sections.items) {
    const have = new Set(sections.items.map((d) => d.id));
    const added: ItemDefinition[] = named.items.filter((d) => !have.has(d.id)).map((d) => ({ id: d.id, name: d.id, kind: d.kind }));
    out.items = [...sections.items, ...unique(added)].sort(byId);
  }
  return out;
}

/** Once each. Implied ids are added even when they differ from a defined one only in case: they exist (a held balance, an archived reward). */
function unique<T extends { id: string }>(added: T[]): T[] {
  const seen = new Set<string>();
  return added.filter((d) => (seen.has(d.id) ? false : (seen.add(d.id), true)));
}

/** The app's list as GET …/economy answers it: the defined section, else the ids named (name = id), each marked implied or not. */
export function effectiveEconomy(
  sections: EconomySections,
  named: { currencies: readonly string[]; items: ReadonlyArray<{ id: string; kind: 'item' | 'badge' }> },
) {
  const complete = completeSections({ currencies: sections.currencies ?? [], items: sections.items ?? [] }, named);
  const definedCurrencies = new Set((sections.currencies ?? []).map((c) => c.id));
  const definedItems = new Set((sections.items ?? []).map((d) => d.id));
  return {
    currencies: (complete.currencies ?? []).map((c) => ({ ...c, implied: !definedCurrencies.has(c.id) })),
    items: (complete.items ?? []).map((d) => ({ ...d, implied: !definedItems.has(d.id) })),
    defined: { currencies: sections.currencies !== undefined, items: sections.items !== undefined },
  };
}
