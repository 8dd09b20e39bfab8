// Vitest setup file (first in the list): each test file starts in the
// process state a new process would have. A worker of the `shared` project
// (vitest.config.mts) runs several files one after another in one process,
// so that modules are imported once per worker; before every file after the
// first, this gives back the environment the first file found (a variable a
// file set, such as a data directory, a limit or a secret, never reaches the
// next) and the process-wide state (lib/testing/fresh-process.ts: timers
// stopped, configuration, caches and schedulers as before the first start;
// the previous file's server closed its database, store and bus) and the
// real clock (a file may have moved Date.now forward). In a
// worker that runs one file this only takes the copy.
import { forgetProcessState, restoreProcessClock, settleProcessWork, stopProcessTimers } from './fresh-process';

const KEY = Symbol.for('vitest.questline.env');
const g = globalThis as typeof globalThis & { [KEY]?: Record<string, string | undefined> };

const first = g[KEY];
if (!first) {
  g[KEY] = { ...process.env };
} else {
  // First the previous file's background work ends (it must not run against the state given back).
  await settleProcessWork();
  stopProcessTimers();
  forgetProcessState();
  restoreProcessClock();
  for (const name of Object.keys(process.env)) if (!(name in first)) delete process.env[name];
  for (const [name, value] of Object.entries(first)) if (value !== undefined) process.env[name] = value;
}
