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
    // Vitest's default is the number of cores minus one: one file at a time on
    // a 2-core machine. Most files wait on PostgreSQL, Redis, HTTP and server
    // processes, so two overlap well there: the whole PostgreSQL + Redis pass
    // took 6.0 min with two at load average 13-20, against 7 min with one on
    // the quiet machine and 15 min at load 15-33 (docs/reliability.md, "Suite
    // under load"). Files share no state that two at once could trip over.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    env: { TMPDIR: process.env.QUESTLINE_TEST_TMP },
    globalSetup: ['./lib/testing/global-setup.ts'],
  },
});
