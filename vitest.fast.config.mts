import { defineConfig } from 'vitest/config';
import base, { projectsFor, source, testFiles } from './vitest.config.mts';

// `npm run test:fast`: the tier a developer runs on every change. It is every
// Vitest file that starts no server and no process: the engine, the contract,
// the adapters and the verbs tested directly with a ctx (PGlite in process).
// A file is left out when it imports a helper that starts a server or a
// process (SLOW below), so a new test lands in the right tier by what it does.
const SLOW = /lib\/testing\/(test-server|production|serve-process|instance|processes|faults|sdk-fixtures)'|node:child_process/;

const fast = testFiles().filter((file) => !SLOW.test(source(file)));

// No file here starts a server, so the global setup skips the started template
// (lib/testing/pglite-template.ts buildStartedTemplate, about 3 s).
process.env.QUESTLINE_TEST_NO_STARTED_TEMPLATE = '1';

// As in the base config: two files at a time (on PostgreSQL + Redis each
// worker has its own database and Redis index: lib/testing/worker-stores.ts),
// and the files that can share a process run in one per worker.
export default defineConfig({
  resolve: base.resolve,
  test: { maxWorkers: base.test?.maxWorkers, globalSetup: base.test?.globalSetup, projects: projectsFor(fast) },
});
