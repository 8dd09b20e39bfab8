import { defineConfig } from 'vitest/config';
import { mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Every temporary file of the run (test servers' embedded databases, spawned
// servers' data directories) goes under one directory, removed by the global
// teardown (lib/testing/global-setup.ts): a run leaves nothing in the system
// temp folder. Workers get it as their TMPDIR.
process.env.QUESTLINE_TEST_TMP ??= mkdtempSync(path.join(tmpdir(), 'questline-vitest-'));

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('.', import.meta.url)).replace(/\/$/, '') } },
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', '.next/**', 'e2e/**', '.data/**'],
    // Bounds for a hang, not for speed: on a loaded 2-core machine (load
    // average 25+ seen while other suites and a build ran) a fresh embedded
    // database's start and migrations alone took over 60 s, and tests wait on
    // conditions for up to 30 s each.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Two files at a time on 2 cores (Vitest's default, cores minus one, is
    // one). Embedded: each file has its own PGlite. PostgreSQL + Redis: each
    // worker has a database and a Redis index of its own
    // (lib/testing/worker-stores.ts), since files that lock or alter the
    // events/catalog tables on purpose (webhook-atomicity, webhook-instances,
    // catalog-race, postgres-faults) made another file's queries time out when
    // two shared one database (docs/reliability.md, "Suite under load", run 11).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    setupFiles: ['./lib/testing/worker-stores.ts'],
    env: { TMPDIR: process.env.QUESTLINE_TEST_TMP },
    globalSetup: ['./lib/testing/global-setup.ts'],
  },
});
