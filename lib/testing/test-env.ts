// Test support without a server: the environment every test sets before
// anything reads the configuration (quiet logs, the admin key, a JWT secret, a
// fresh data directory seeded with the run's migrated PGlite template) and
// unique ids. A test file that imports only this (and lib/testing/service-context.ts)
// starts no server and belongs to `npm run test:fast` (vitest.fast.config.mts
// sorts files by the helpers they import).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seedDataDir, type TemplateKind } from './pglite-template';

export const TEST_ADMIN_KEY = 'test-admin-key-0123456789abcdef';

/**
 * Must run before anything reads the configuration (call it in beforeAll first).
 * `started`: the data directory begins as the run's started template (the
 * demo app and first admin made), for an in-process test server.
 */
export function prepareTestEnv(template: TemplateKind = 'migrated'): void {
  process.env.QUESTLINE_QUIET = '1';
  process.env.ADMIN_API_KEY ??= TEST_ADMIN_KEY;
  process.env.JWT_SECRET ??= 'test-jwt-secret-that-is-long-enough-0123456789';
  process.env.QUESTLINE_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'questline-test-'));
  seedDataDir(process.env.QUESTLINE_DATA_DIR, process.env, template);
}

let counter = 0;
/** A unique id for apps and users of one test run (tests share a real database). */
export function uniqueId(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}`;
}
