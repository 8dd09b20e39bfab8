import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import base, { common, sharesProcess, testFiles } from './vitest.config.mts';

// `npm run test:fast`: the tier a developer runs on every change. It is every
// Vitest file that starts no server and no process: the engine, the contract,
// the adapters and the verbs tested directly with a ctx (PGlite in process).
// A file is left out when it imports a helper that starts a server or a
// process (SLOW below), so a new test lands in the right tier by what it does.
const root = path.dirname(fileURLToPath(import.meta.url));
const SLOW = /lib\/testing\/(test-server|production|serve-process|instance|processes|faults|sdk-fixtures)'|node:child_process/;

const fast = testFiles().filter((file) => !SLOW.test(readFileSync(path.join(root, file), 'utf8')));

// Two files at a time, as in the base config (on PostgreSQL + Redis each
// worker has its own database and Redis index: lib/testing/worker-stores.ts).
const maxWorkers = Math.max(2, availableParallelism() - 1);

// No file here starts a server, so the global setup skips the started template
// (lib/testing/pglite-template.ts buildStartedTemplate, about 3 s).
process.env.QUESTLINE_TEST_NO_STARTED_TEMPLATE = '1';

// As in the base config, files that can share a process run in one per worker.
const shared = fast.filter(sharesProcess);
export default defineConfig({
  resolve: base.resolve,
  test: {
    maxWorkers,
    globalSetup: base.test?.globalSetup,
    projects: [
      { resolve: base.resolve, test: { ...common, name: 'shared', include: shared, isolate: false } },
      { resolve: base.resolve, test: { ...common, name: 'isolated', include: fast.filter((file) => !shared.includes(file)) } },
    ],
  },
});
