import { defineConfig } from 'vitest/config';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Every temporary file of the run (test servers' embedded databases, spawned
// servers' data directories) goes under one directory, removed by the global
// teardown (lib/testing/global-setup.ts): a run leaves nothing in the system
// temp folder. Workers get it as their TMPDIR.
process.env.QUESTLINE_TEST_TMP ??= mkdtempSync(path.join(tmpdir(), 'questline-vitest-'));

const root = path.dirname(fileURLToPath(import.meta.url));
const alias = { '@': root };
const SKIP = new Set(['node_modules', '.next', '.git', 'e2e', '.data', 'dist', 'test-results']);

/** Every Vitest file of the repository, relative to its root. */
export function testFiles(dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name) || entry.name.startsWith('.data')) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return entry.name.endsWith('.test.ts') ? [path.relative(root, full)] : [];
  });
}

export const source = (file: string) => readFileSync(path.join(root, file), 'utf8');

// A file that starts no process of its own (no server process, no fault
// proxy, no child process) and mocks no module runs in the `shared` project:
// its worker runs several such files one after another in one process, so
// the modules they import (the whole server, for the files that start one in
// process) are imported once per worker, not once per file (about 1.3 CPU-s
// each, docs/engineering/reliability.md). Before each later file the environment and the
// process-wide state are given back as a new process would have them
// (lib/testing/fresh-env.ts, lib/testing/fresh-process.ts). Every other file
// has a process of its own, as before.
const OWN_PROCESS = /lib\/testing\/(production|serve-process|instance|processes|faults)'|node:child_process|vi\.(mock|doMock|stubGlobal)\(/;
const common = {
  exclude: ['node_modules/**', '.next/**', 'e2e/**', '.data/**'],
  // Bounds for a hang, not for speed: on a loaded 2-core machine (load
  // average 25+ seen while other suites and a build ran) a fresh embedded
  // database's start and migrations alone took over 60 s, and tests wait on
  // conditions for up to 30 s each.
  testTimeout: 120_000,
  hookTimeout: 180_000,
  pool: 'forks' as const,
  // fresh-env first: it gives back the environment before worker-stores reads it.
  setupFiles: ['./lib/testing/fresh-env.ts', './lib/testing/worker-stores.ts'],
  env: { TMPDIR: process.env.QUESTLINE_TEST_TMP },
};

/** `files` as two projects: those that can share their worker's process, and the rest, each in a process of its own. */
export function projectsFor(files: string[]) {
  const shared = new Set(files.filter((file) => !OWN_PROCESS.test(source(file))));
  return [
    { resolve: { alias }, test: { ...common, name: 'shared', include: [...shared], isolate: false } },
    { resolve: { alias }, test: { ...common, name: 'isolated', include: files.filter((file) => !shared.has(file)) } },
  ];
}

export default defineConfig({
  resolve: { alias },
  test: {
    // One file more than the cores: three at a time on 2 cores (Vitest's
    // default, cores minus one, is one). With two, both cores were still idle
    // about a fifth of the run on PostgreSQL + Redis (a file waiting on a
    // server, a timer or the database); a third took the whole run from
    // 279–280 s to 250–255 s there and from 290 s to 271 s embedded
    // (docs/engineering/reliability.md, "A third Vitest worker"). Embedded: each file has
    // its own PGlite. PostgreSQL + Redis: each worker has a database and a
    // Redis index of its own (lib/testing/worker-stores.ts), since files that
    // lock or alter the events/catalog tables on purpose (webhook-atomicity,
    // webhook-instances, catalog-race, postgres-faults) made another file's
    // queries time out when two shared one database (docs/engineering/reliability.md,
    // "Suite under load", run 11).
    // At most 15: each worker's Redis index is base + its number, mod 16 (lib/testing/worker-store-urls.ts).
    maxWorkers: Math.min(15, availableParallelism() + 1),
    // Once for the run (the root project's), not once per project.
    globalSetup: ['./lib/testing/global-setup.ts'],
    projects: projectsFor(testFiles()),
  },
});
