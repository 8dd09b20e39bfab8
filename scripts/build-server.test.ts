// What makes the build stale: a source file newer than the server bundle.
// Files Next.js writes itself (next-env.d.ts, by `next build` and by
// `next typegen`, which `npm test` runs before every type-check) and
// directories that never go into the build do not count.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { newestSource } from './build-server.mjs';

const root = mkdtempSync(path.join(tmpdir(), 'questline-build-sources-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function file(relative: string, seconds: number): void {
  const full = path.join(root, relative);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, '');
  utimesSync(full, seconds, seconds);
}

it('counts sources, not next-env.d.ts, tests, dot directories or browser specs', () => {
  file('lib/a.ts', 1_000);
  file('app/page.tsx', 2_000);
  file('next-env.d.ts', 9_000);
  file('lib/a.test.ts', 9_000);
  file('.next/types/routes.d.ts', 9_000);
  file('e2e/x.spec.ts', 9_000);
  expect(newestSource(root)).toBe(2_000_000);
  file('lib/b.css', 3_000);
  expect(newestSource(root)).toBe(3_000_000);
});
