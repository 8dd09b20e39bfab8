// The badges' text against their own tinted background, where a badge sits:
// on a card, on a table row under the pointer (muted at 40 %) and on a
// selected row (muted), in both themes: WCAG AA for small text (4.5). The
// colours come from app/globals.css and the tints from badge.tsx's classes,
// so a token or a tint changed to something unreadable fails here, not in
// whichever browser check happens to show that badge on that background
// (a dark "upcoming" badge under the pointer was 4.47; a light "Removed in
// draft" badge 4.45 on a plain card).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const css = readFileSync(path.join(root, 'app/globals.css'), 'utf8');
const badge = readFileSync(path.join(root, 'components/ui/badge.tsx'), 'utf8');

type Rgb = [number, number, number];

/** The `--name: oklch(L C h)` tokens of one block (`:root` or `.dark`). */
function tokens(selector: string): Map<string, Rgb> {
  const start = css.indexOf(`${selector} {`);
  if (start < 0) throw new Error(`no ${selector} block in globals.css`);
  const block = css.slice(start, css.indexOf('}', start));
  const found = new Map<string, Rgb>();
  for (const m of block.matchAll(/--([\w-]+):\s*oklch\(([\d.]+)\s+([\d.]+)\s+([\d.]+)\)/g)) found.set(m[1], oklchToSrgb(Number(m[2]), Number(m[3]), Number(m[4])));
  return found;
}

function oklchToSrgb(L: number, C: number, h: number): Rgb {
  const a = C * Math.cos((h * Math.PI) / 180);
  const b = C * Math.sin((h * Math.PI) / 180);
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  const linear = [4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s, -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s, -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s];
  return linear.map((x) => {
    const c = Math.min(Math.max(x, 0), 1);
    return c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055;
  }) as Rgb;
}

/** `top` at `alpha` over `bottom`, mixed in sRGB as the browser paints it. */
const over = (top: Rgb, alpha: number, bottom: Rgb): Rgb => top.map((t, i) => t * alpha + bottom[i] * (1 - alpha)) as Rgb;

function luminance([r, g, b]: Rgb): number {
  const lin = (x: number) => (x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Each tinted variant of badge.tsx: its colour token and its tint in light and dark. */
function tintedVariants(): Array<{ variant: string; token: string; light: number; dark: number }> {
  const variants = [];
  for (const m of badge.matchAll(/(\w+): '[^']*\bbg-([\w-]+)\/(\d+) text-\2(?: dark:bg-\2\/(\d+))?'/g)) {
    variants.push({ variant: m[1], token: m[2], light: Number(m[3]) / 100, dark: Number(m[4] ?? m[3]) / 100 });
  }
  return variants;
}

describe('badge contrast', () => {
  it('reads the tinted variants of badge.tsx (the test checks what it finds)', () => {
    expect(tintedVariants().map((v) => v.variant).sort()).toEqual(['default', 'destructive', 'success', 'warning']);
  });

  for (const [theme, selector] of [
    ['light', ':root'],
    ['dark', '.dark'],
  ] as const) {
    it(`${theme}: every tinted badge is at least 4.5 on a card, a hovered row and a selected row`, () => {
      const t = tokens(selector);
      const card = t.get('card')!;
      const muted = t.get('muted')!;
      expect(card, 'card token').toBeDefined();
      expect(muted, 'muted token').toBeDefined();
      const places: Array<[string, Rgb]> = [
        ['card', card],
        ['hovered row', over(muted, 0.4, card)],
        ['selected row', muted],
      ];
      const below: string[] = [];
      for (const v of tintedVariants()) {
        const text = t.get(v.token);
        expect(text, `--${v.token} in ${selector}`).toBeDefined();
        for (const [place, under] of places) {
          const ratio = contrast(text!, over(text!, theme === 'light' ? v.light : v.dark, under));
          if (ratio < 4.5) below.push(`${v.variant} on a ${place}: ${ratio.toFixed(2)}`);
        }
      }
      expect(below).toEqual([]);
    });
  }
});
