// What changed inside one catalog item, field by field (the draft's review):
// `[{ path, before, after }]` between two versions of a mission, campaign,
// theme or any section's item. Generic over sections: objects are walked key
// by key (a path like `criteria.count`); values that are read as one thing
// are compared whole (a reward, a filter, an audience, a campaign's own
// theme, any other array); a campaign's budget is compared per currency
// (`budget.gems`: the cap's amount, null when there is none). Derived fields
// (a campaign's missionIds, a mission's `reward` beside its bundle) are left out. `null` stands for "not set".
import { canonicalJson } from './convert';

export interface FieldChange {
  path: string;
  before: unknown;
  after: unknown;
}

/** Fields compared as one value wherever they appear. */
const WHOLE = new Set(['reward', 'rewards', 'filter', 'audience', 'theme']);
/** Derived from other items: never a change of their own. */
const DERIVED = new Set(['missionIds']);

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const orNull = (v: unknown) => (v === undefined ? null : v);
const same = (a: unknown, b: unknown) => canonicalJson(orNull(a)) === canonicalJson(orNull(b));

/** A campaign budget ([{ currency, amount }]) as currency → amount. */
function budgetAmounts(v: unknown): Map<string, number> {
  const out = new Map<string, number>();
  if (!Array.isArray(v)) return out;
  for (const line of v) if (isPlainObject(line) && typeof line.currency === 'string' && typeof line.amount === 'number') out.set(line.currency, line.amount);
  return out;
}

function walk(before: unknown, after: unknown, path: string, out: FieldChange[]): void {
  const key = path.slice(path.lastIndexOf('.') + 1);
  if (path === 'budget') {
    const a = budgetAmounts(before);
    const b = budgetAmounts(after);
    for (const currency of [...new Set([...a.keys(), ...b.keys()])].sort()) {
      const x = a.get(currency) ?? null;
      const y = b.get(currency) ?? null;
      if (x !== y) out.push({ path: `budget.${currency}`, before: x, after: y });
    }
    return;
  }
  if (!WHOLE.has(key) && (isPlainObject(before) || isPlainObject(after)) && (before === undefined || before === null || isPlainObject(before)) && (after === undefined || after === null || isPlainObject(after))) {
    const a = (before ?? {}) as Record<string, unknown>;
    const b = (after ?? {}) as Record<string, unknown>;
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      if (DERIVED.has(k)) continue;
      walk(a[k], b[k], path ? `${path}.${k}` : k, out);
    }
    return;
  }
  if (!same(before, after)) out.push({ path, before: orNull(before), after: orNull(after) });
}

/**
 * The fields that differ between `before` and `after` (either null for an
 * added or removed item: every field it has, against null), in path order
 * within each level; `id` is left out (it names the item).
 */
export function fieldDiffs(before: object | null, after: object | null): FieldChange[] {
  const out: FieldChange[] = [];
  // A bundle's `reward` is the first of its `rewards`: when either side is a bundle, the rewards are
  // compared as one list (`rewards`, a single reward as a list of one); else `reward` alone, as before bundles.
  const bundles = [before, after].some((item) => Array.isArray((item as Record<string, unknown> | null)?.rewards));
  const strip = (item: object | null) => {
    if (!item) return null;
    const { id: _id, ...rest } = item as Record<string, unknown>;
    if (bundles && rest.reward !== undefined) {
      rest.rewards ??= [rest.reward];
      delete rest.reward;
    }
    return rest;
  };
  walk(strip(before), strip(after), '', out);
  return out;
}
