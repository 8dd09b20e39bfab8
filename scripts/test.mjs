// `npm test`: type-check, lint (ESLint, then knip for unused files, exports
// and dependencies), the production build (once: the suites that start
// `npm start` and the browser suite all use it), the Vitest suites (unit,
// real database/Redis, real HTTP, production server processes), then the
// browser end-to-end suite against `npm start` and `next start`.
// Runs on the embedded default, or on PostgreSQL + Redis when DATABASE_URL
// and REDIS_URL are set. Extra arguments go to Vitest. Every temporary file
// goes under one directory of this run, removed at the end.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CHROMIUM_CANDIDATES, chromiumPath } from './chromium-path.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const bin = (pkg, file) => path.join(root, 'node_modules', pkg, file);
const extra = process.argv.slice(2);

const runTmp = mkdtempSync(path.join(tmpdir(), 'questline-run-'));
const cleanup = () => rmSync(runTmp, { recursive: true, force: true });
process.on('exit', cleanup);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', TMPDIR: runTmp };

function run(label, args, extraEnv = {}) {
  console.log(`\n=== ${label} ===`);
  const started = Date.now();
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...env, ...extraEnv } });
  if (result.status !== 0) {
    console.error(`${label} failed`);
    process.exit(result.status ?? 1);
  }
  console.log(`${label}: passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * Runs the checks side by side (each one process on one core: the type-check,
 * ESLint and knip took their sum in a row while the other core idled); each
 * one's output is printed whole when it ends, then its time. Stops the run
 * when any fails, after all have ended.
 */
async function runTogether(steps) {
  const started = Date.now();
  const results = await Promise.all(
    steps.map(
      ({ label, args }) =>
        new Promise((resolve) => {
          const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
          const chunks = [];
          child.stdout.on('data', (c) => chunks.push(c));
          child.stderr.on('data', (c) => chunks.push(c));
          child.on('close', (code) => resolve({ label, code, output: Buffer.concat(chunks).toString(), seconds: (Date.now() - started) / 1000 }));
        }),
    ),
  );
  for (const { label, code, output, seconds } of results) {
    console.log(`\n=== ${label} ===`);
    if (output) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
    console.log(code === 0 ? `${label}: passed in ${seconds.toFixed(1)} s` : `${label} failed`);
  }
  if (results.some((r) => r.code !== 0)) process.exit(results.find((r) => r.code !== 0).code ?? 1);
  console.log(`checks side by side: ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const backend = process.env.DATABASE_URL ? `PostgreSQL (${process.env.DATABASE_URL.replace(/\/\/[^@]*@/, '//')}) + ${process.env.REDIS_URL ? 'Redis' : 'in-process store'}` : 'embedded PGlite + in-process store';
console.log(`Questline tests on ${backend}`);
// The route types (next-env.d.ts, .next/types) first, so that the type-check
// below covers what the build's own type-check would; the build then skips
// that second pass (QUESTLINE_TYPECHECKED, next.config.ts).
run('route types (next typegen)', [bin('next', 'dist/bin/next'), 'typegen']);
// Any finding fails the run, a warning included (eslint.config.mjs, knip.config.ts).
await runTogether([
  { label: 'type-check', args: [bin('typescript', 'bin/tsc'), '--noEmit', '-p', '.'] },
  { label: 'eslint', args: [bin('eslint', 'bin/eslint.js'), '--max-warnings', '0', '--cache', '--cache-location', path.join(root, 'node_modules', '.cache', 'eslint') + path.sep, '.'] },
  { label: 'knip (unused files, exports, dependencies)', args: [bin('knip', 'bin/knip.js')] },
]);
run('production build (when stale)', [path.join(root, 'scripts', 'start.mjs'), '--build-only'], { QUESTLINE_TYPECHECKED: '1' });
// The suites that start the production server fail instead of skipping when the build is missing.
run('vitest', [bin('vitest', 'vitest.mjs'), 'run', ...extra], { QUESTLINE_REQUIRE_BUILD: '1' });
// The browser suite needs Debian's Chromium (Playwright cannot download one here).
const chromium = chromiumPath();
const where = process.env.CHROMIUM_PATH ?? CHROMIUM_CANDIDATES.join(' or ');
if (process.env.QUESTLINE_SKIP_E2E === '1') {
  console.log('\n=== playwright (e2e): skipped (QUESTLINE_SKIP_E2E=1) ===');
} else if (!chromium || !existsSync(chromium)) {
  if (process.env.CI) {
    console.error(`Chromium not found at ${where}: CI must run the browser suite`);
    process.exit(1);
  }
  console.log(`\n=== playwright (e2e): SKIPPED, no Chromium at ${where} (apt-get install chromium-headless-shell, or set CHROMIUM_PATH) ===`);
} else {
  run(`playwright (e2e, ${chromium})`, [bin('@playwright/test', 'cli.js'), 'test']);
}
