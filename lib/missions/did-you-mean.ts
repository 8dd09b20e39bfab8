// "Did you mean match_won?": the mission event name nearest to one that no
// mission counts. Pure: names are compared after normalisation (case, and
// the separators . - _ space : / and camelCase boundaries all become one
// `_`), then by edit distance (insertions, deletions, substitutions and
// swaps of two neighbours, each 1). A name that differs only in case or
// separators is always suggested; otherwise the nearest within a third of the
// longer name's length (at least 1, at most 3). Ties go to the name listed
// first, so the answer does not depend on a Set's or a Map's order only if
// the caller's order is stable (the catalog's is: by mission id).

/** `Match.Won`, `matchWon`, `match-won` and ` match_won ` all become `match_won`. */
export function normalizeEventName(name: string): string {
  return name
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[\s._\-:/]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2][j - 2] + 1);
      d[i][j] = best;
    }
  }
  return d[a.length][b.length];
}

/** How far a name may be from a candidate to be suggested: a third of the longer one, 1 to 3 edits. */
function tolerance(a: string, b: string): number {
  return Math.min(3, Math.max(1, Math.floor(Math.max(a.length, b.length) / 3)));
}

/**
 * The candidate `seen` was most likely meant to be, or null: when `seen` is
 * itself a candidate (nothing to correct), when there are none, or when none
 * is near enough to be a slip rather than another event.
 */
export function nearestEventName(seen: string, candidates: readonly string[]): string | null {
  if (candidates.includes(seen)) return null;
  const wanted = normalizeEventName(seen);
  let best: { name: string; distance: number } | null = null;
  for (const name of candidates) {
    const normal = normalizeEventName(name);
    // Only case or separators differ: the surest slip of all.
    const distance = normal === wanted ? 0 : editDistance(wanted, normal);
    if (distance > 0 && distance > tolerance(wanted, normal)) continue;
    if (best === null || distance < best.distance) best = { name, distance };
  }
  return best?.name ?? null;
}
