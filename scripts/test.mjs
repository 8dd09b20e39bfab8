// `npm test`: type-check, the Vitest suites (unit, real database/Redis,
// real HTTP), then the browser end-to-end suite against `next start`.
// Runs on the embedded default, or on PostgreSQL + Redis when DATABASE_URL
// and REDIS_URL are set. Extra arguments go to Vitest.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const bin = (pkg, file) => path.join(root, 'node_modules', pkg, file);
const extra = process.argv.slice(2);

function run(label, args) {
  console.log(`\n=== ${label} ===`);
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (result.status !== 0) {
    console.error(`${label} failed`);
    process.exit(result.status ?? 1);
  }
}

const backend = process.env.DATABASE_URL ? `PostgreSQL (${process.env.DATABASE_URL.replace(/\/\/[^@]*@/, '//')}) + ${process.env.REDIS_URL ? 'Redis' : 'in-process store'}` : 'embedded PGlite + in-process store';
console.log(`Questline tests on ${backend}`);
run('type-check', [bin('typescript', 'bin/tsc'), '--noEmit', '-p', '.']);
run('vitest', [bin('vitest', 'vitest.mjs'), 'run', ...extra]);
// The browser suite needs Debian's Chromium (Playwright cannot download one here).
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (process.env.QUESTLINE_SKIP_E2E === '1') {
  console.log('\n=== playwright (e2e): skipped (QUESTLINE_SKIP_E2E=1) ===');
} else if (!existsSync(chromium)) {
  if (process.env.CI) {
    console.error(`Chromium not found at ${chromium}: CI must run the browser suite`);
    process.exit(1);
  }
  console.log(`\n=== playwright (e2e): SKIPPED, no Chromium at ${chromium} (apt-get install chromium, or set CHROMIUM_PATH) ===`);
} else {
  run('playwright (e2e)', [bin('@playwright/test', 'cli.js'), 'test']);
}
