// Which Chromium the browser suite runs (Playwright downloads no browser here).
// CHROMIUM_PATH wins. Otherwise Debian's old headless shell (package
// chromium-headless-shell), then Debian's full browser (package chromium).
// The shell is Chromium without the browser's UI layer: the same Blink, the
// same fonts, but its browser process took 38 s of CPU in a whole run of the
// suite against 87 s for the full browser run headless, and the suite took
// 4.8 min against 5.8–6.1 (docs/engineering/reliability.md, "The headless shell").
import { existsSync } from 'node:fs';

export const CHROMIUM_CANDIDATES = ['/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium'];

/** The browser to launch: CHROMIUM_PATH, else the first candidate present (`exists`: the file check, for tests), else undefined. */
export function chromiumPath(env = process.env, exists = existsSync) {
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH;
  return CHROMIUM_CANDIDATES.find((candidate) => exists(candidate));
}
