// Which browser the suite launches (scripts/chromium-path.mjs): CHROMIUM_PATH
// when set, else Debian's headless shell, else its full browser.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_CANDIDATES, chromiumPath } from './chromium-path.mjs';

describe('chromiumPath', () => {
  it('takes CHROMIUM_PATH as given, present or not', () => {
    expect(chromiumPath({ CHROMIUM_PATH: '/opt/nowhere/chrome' })).toBe('/opt/nowhere/chrome');
  });

  it('prefers the headless shell to the full browser', () => {
    expect(CHROMIUM_CANDIDATES).toEqual(['/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium']);
  });

  it('otherwise answers the first candidate this machine has, or nothing', () => {
    expect(chromiumPath({})).toBe(CHROMIUM_CANDIDATES.find((candidate) => existsSync(candidate)));
  });
});
