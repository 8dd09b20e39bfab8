// The fast tier (`npm run test:fast`, vitest.fast.config.mts) holds every
// direct verb test: a verb test that imports a server-starting helper (as all
// four did through lib/testing/test-server.ts for `uniqueId`) silently drops
// out of the tier a developer runs on every change.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..');

function testsUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testsUnder(path.join(dir, e.name)) : e.name.endsWith('.test.ts') ? [path.join(dir, e.name)] : [],
  );
}

describe('npm run test:fast', () => {
  let included: Set<string>;
  beforeAll(async () => {
    // A computed path: the config is a Vite config file (.mts), loaded by Vitest, outside the type-checked tree.
    // Its files are split between two projects (one process per worker, one per file): the tier is both.
    const config = (await import(path.join(root, 'vitest.fast.config.mts'))) as { default: { test: { projects: Array<{ test: { include: string[] } }> } } };
    included = new Set(config.default.test.projects.flatMap((project) => project.test.include));
  });

  it('includes every test of lib/services (verbs tested directly with a ctx)', () => {
    const verbTests = testsUnder('lib/services');
    expect(verbTests.length).toBeGreaterThanOrEqual(7);
    expect(verbTests.filter((f) => !included.has(f))).toEqual([]);
  });

  it('includes the engine tests and leaves out the files that start a server', () => {
    expect(included.has('lib/missions/engine.test.ts')).toBe(true);
    expect(included.has('lib/http/v1/sse.test.ts')).toBe(false);
    expect(included.has('lib/sdk/subscribe.test.ts')).toBe(false);
  });
});
