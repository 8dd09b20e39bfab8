// Which browser the suite launches (scripts/chromium-path.mjs): CHROMIUM_PATH
// when set, else Debian's headless shell, else its full browser. The machine's
// files are stood in for by a list of the paths that exist.
import { describe, expect, it } from 'vitest';
import { chromiumPath } from './chromium-path.mjs';

const SHELL = '/usr/lib/chromium/chromium-headless-shell';
const FULL = '/usr/bin/chromium';
const having = (...files: string[]) => (file: string) => files.includes(file);

describe('chromiumPath', () => {
  it('takes CHROMIUM_PATH as given, present or not', () => {
    expect(chromiumPath({ CHROMIUM_PATH: '/opt/nowhere/chrome' }, having(SHELL, FULL))).toBe('/opt/nowhere/chrome');
  });

  it('prefers the headless shell to the full browser', () => {
    expect(chromiumPath({}, having(FULL, SHELL))).toBe(SHELL);
  });

  it('falls back to the full browser, or to nothing', () => {
    expect(chromiumPath({}, having(FULL))).toBe(FULL);
    expect(chromiumPath({}, having())).toBeUndefined();
  });
});
