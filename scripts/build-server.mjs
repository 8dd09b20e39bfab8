// Bundles the custom server of `npm start` (scripts/server.ts and the lib/
// code it imports) into .next/questline-server.mjs with esbuild. Packages
// stay external: at run time they load from node_modules, so the bundle
// needs Node and the production dependencies only (no tsx, no TypeScript).
// Runs after `next build` (which empties .next): `npm run build`, or
// scripts/start.mjs when the build is stale.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_BUNDLE = path.join(root, '.next', 'questline-server.mjs');

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
