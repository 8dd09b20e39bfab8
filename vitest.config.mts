import { defineConfig } from 'vitest/config';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    env: { TMPDIR: process.env.QUESTLINE_TEST_TMP },
    globalSetup: ['./lib/testing/global-setup.ts'],
  },
});
