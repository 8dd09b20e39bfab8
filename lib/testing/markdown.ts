// Test support: reading the repository's Markdown the way GitHub renders it, for the docs
// tests (docs/docs.test.ts, docs/quickstart.test.ts): fenced code apart from
// prose, heading anchors by GitHub's slug rules, relative links, and the
// quickstart's runnable blocks.

/** A fenced code block: its info string (```sh runnable → "sh runnable") and its text. */
export interface Fence {
  info: string;
  text: string;
}

/** The document with every fenced code block removed (links and headings inside code are not rendered as such). */
function prose(markdown: string): string {
  return splitFences(markdown).prose;
}

export function fences(markdown: string): Fence[] {
  return splitFences(markdown).fences;
}

function splitFences(markdown: string): { prose: string; fences: Fence[] } {
  const out: string[] = [];
  const found: Fence[] = [];
  let open: { marker: string; info: string; lines: string[] } | null = null;
  for (const line of markdown.split('\n')) {
    const fence = /^ {0,3}(`{3,}|~{3,})\s*(.*)$/.exec(line);
    if (open) {
      if (fence && fence[1][0] === open.marker[0] && fence[1].length >= open.marker.length && fence[2].trim() === '') {
        found.push({ info: open.info, text: open.lines.join('\n') });
        open = null;
      } else open.lines.push(line);
      out.push('');
    } else if (fence) {
      open = { marker: fence[1], info: fence[2].trim(), lines: [] };
      out.push('');
    } else out.push(line);
  }
  return { prose: out.join('\n'), fences: found };
}

/**
 * GitHub's anchor of a heading (github-slugger): the rendered text, lower
 * case, with everything but letters, marks, numbers, connector punctuation
 * (`_`), hyphens and spaces removed, and each space a hyphen.
 */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or image: its text
    .replace(/<[^>]+>/g, ''); // inline HTML
  return text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
}

/** Every anchor a document has: its headings' slugs (a repeated slug gets -1, -2, … as on GitHub) and explicit `<a id|name="…">`. */
export function anchors(markdown: string): Set<string> {
  const text = prose(markdown);
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of text.split('\n')) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    result.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) result.add(m[1]);
  return result;
}

/** The relative links and images of a document's prose (inline code and fenced code left out): `[text](target)`. */
export function relativeLinks(markdown: string): { path: string; anchor: string | null }[] {
  const text = prose(markdown).replace(/`[^`\n]*`/g, '');
  const links: { path: string; anchor: string | null }[] = [];
  for (const m of text.matchAll(/\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = m[1];
    if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // a web address, mailto:, …
    const hash = target.indexOf('#');
    links.push(hash < 0 ? { path: target, anchor: null } : { path: target.slice(0, hash), anchor: decodeURIComponent(target.slice(hash + 1)) });
  }
  return links;
}

/** The quickstart's marker of a block the docs test runs: ```sh runnable. */
export const RUNNABLE = /^(sh|bash)\s+runnable$/;

/**
 * The answers a runnable block promises: each comment `# {…}` or `# […]` is a
 * line the block's output must have, `…` standing for any text.
 */
export function expectedAnswers(block: string): RegExp[] {
  return block
    .split('\n')
    .map((line) => /^# ([{[].*)$/.exec(line.trim())?.[1])
    .filter((line): line is string => line !== undefined)
    .map((line) => new RegExp(`^${line.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 'm'));
}
