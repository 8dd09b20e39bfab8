// Bundles the custom server of `npm start` (scripts/server.ts and the lib/
// code it imports) into .next/questline-server.mjs with esbuild. Packages
// stay external: at run time they load from node_modules, so the bundle
// needs Node and the production dependencies only (no tsx, no TypeScript).
// Runs after `next build` (which empties .next): `npm run build`, or
// scripts/start.mjs when the build is stale.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_BUNDLE = path.join(root, '.next', 'questline-server.mjs');

export function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    // Dot directories (.next, .data, .git, the build lock), dependencies, browser tests, examples, the
    // SDK package's output and test output never change the build.
    // next-env.d.ts is written by Next.js itself (`next build`, `next typegen`).
    if (entry.name.startsWith('.') || ['node_modules', 'e2e', 'examples', 'dist', 'test-results', 'playwright-report', 'tmp', 'next-env.d.ts'].includes(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (/\.(tsx?|mjs|json|css|sql)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** No build yet, or a source changed since: the server bundle is written last, so its time is the build's. */
export function isBuildStale() {
  return !existsSync(SERVER_BUNDLE) || newestSource(root) > statSync(SERVER_BUNDLE).mtimeMs;
}

export async function buildServer() {
  const { build } = await import('esbuild');
  await build({
    entryPoints: [path.join(root, 'scripts', 'server.ts')],
    outfile: SERVER_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Everything from node_modules is loaded at run time (the `@/` alias is ours, resolved through tsconfig paths).
    packages: 'external',
    tsconfig: path.join(root, 'tsconfig.json'),
    sourcemap: 'linked',
    logLevel: 'warning',
    banner: { js: '// Built by scripts/build-server.mjs from scripts/server.ts; do not edit.' },
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildServer();
  console.log(`Questline: server bundle written to ${path.relative(root, SERVER_BUNDLE)}`);
}
