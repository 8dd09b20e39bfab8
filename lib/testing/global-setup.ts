// Vitest global setup: the run's template embedded database
// (lib/testing/pglite-template.ts); teardown removes the run's temporary
// directory (made in vitest.config.mts and given to the workers as TMPDIR),
// so a run leaves nothing in the system temp folder.
import { rmSync } from 'node:fs';
import { buildPgliteTemplate } from './pglite-template';

export default async function setup(): Promise<() => void> {
  await buildPgliteTemplate();
  return () => {
    const root = process.env.QUESTLINE_TEST_TMP;
    if (root) rmSync(root, { recursive: true, force: true });
  };
}
