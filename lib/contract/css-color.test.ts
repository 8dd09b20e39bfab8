// Theme colours are CSS colours and nothing else: they reach the console's CSS.
import { describe, expect, it } from 'vitest';
import { isCssColor, safeCssColor } from './css-color';

describe('isCssColor', () => {
  it.each(['#fff', '#FFFA', '#7c3aed', '#7c3aed80', 'rgb(1, 2, 3)', 'rgba(1,2,3,0.5)', 'rgb(124 58 237 / 50%)', 'hsl(270deg 60% 50%)', 'hsla(270, 60%, 50%, .5)', 'oklch(0.6 0.2 300)', 'oklab(60% -0.1 0.1)', 'lch(50% 40 none)', 'hwb(0.5turn 10% 10%)', 'rebeccapurple', 'Gold', 'transparent'])(
    'accepts %s',
    (value) => expect(isCssColor(value)).toBe(true),
  );

  it.each([
    'red),url(http://127.0.0.1:9/hit)/*',
    'url(http://x/y)',
    'red;background:url(x)',
    'rgb(1 2 calc(3))',
    'rgb(var(--x) 2 3)',
    'expression(alert(1))',
    '#ggg',
    '#12345',
    'purple ',
    'notacolour',
    'rgb(1 2)',
    '',
    `#${'f'.repeat(70)}`,
  ])('refuses %j', (value) => expect(isCssColor(value)).toBe(false));
});

describe('safeCssColor (the console preview, for values stored before colours were checked)', () => {
  it('keeps a colour and replaces anything else with the fallback', () => {
    expect(safeCssColor('#123456', '#7c3aed')).toBe('#123456');
    expect(safeCssColor('red),url(http://127.0.0.1:9/hit)/*', '#7c3aed')).toBe('#7c3aed');
    expect(safeCssColor(42)).toBeUndefined();
    expect(safeCssColor(undefined)).toBeUndefined();
  });
});
