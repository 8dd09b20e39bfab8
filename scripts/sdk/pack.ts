// `npm run sdk:pack`: builds the client SDK (lib/sdk) as the package
// @questline/sdk (ESM and CommonJS, one self-contained .d.ts for each, no
// runtime dependency) and packs it into a tarball to install anywhere:
//   npm run sdk:pack [-- --out <dir>]     (default dist/sdk)
//   npm install <dir>/questline-sdk-<version>.tgz
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { generateDtsBundle } from 'dts-bundle-generator';
import { SDK_VERSION } from '@/lib/sdk/version';
import { CONTRACT_TYPES_PATH, generateContractTypes } from './generate-types';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const here = path.join(root, 'scripts', 'sdk');

const README = `# @questline/sdk

Typed client for the Questline API (every \`/v1\` endpoint) with a live-update
subscription that reconnects with backoff, resumes with \`Last-Event-ID\` and
falls back to polling. Browsers and Node 20+; no dependencies.

\`\`\`js
import { createQuestlineClient } from '@questline/sdk'; // or require('@questline/sdk')
const ql = createQuestlineClient({ baseUrl: 'https://api.example.com', getToken: () => tokenFromYourBackend() });
\`\`\`

A game backend signs webhook deliveries with \`@questline/sdk/backend\`
(\`signWebhook\`, \`webhookHeaders\`; never in a client: the secret stays on the server).

Methods, errors, reconnect and polling: docs/sdk.md of the Questline repository;
a runnable walkthrough: examples/sdk-quickstart.mjs.
`;

export interface PackResult {
  packageDir: string;
  tarball: string;
}

/** The npm environment of `npm run` must not steer the inner npm (prefix, cache, config of this project). */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_'))) as NodeJS.ProcessEnv;
}

export async function packSdk(outDir = path.join(root, 'dist', 'sdk')): Promise<PackResult> {
  if (readFileSync(CONTRACT_TYPES_PATH, 'utf8') !== generateContractTypes()) {
    throw new Error('lib/sdk/contract-types.ts is stale: run npm run sdk:types');
  }
  // The SDK's own version, not the server's (docs/operations/versioning.md).
  const version = SDK_VERSION;
  const packageDir = path.join(outDir, 'package');
  rmSync(packageDir, { recursive: true, force: true });
  mkdirSync(packageDir, { recursive: true });

  // Two entry points: the client SDK, and `@questline/sdk/backend` (webhook signing) for game backends only.
  for (const entry of ['index', 'backend'] as const) {
    for (const [format, ext] of [['esm', 'mjs'], ['cjs', 'cjs']] as const) {
      const result = await build({
        entryPoints: [path.join(root, 'lib', 'sdk', `${entry}.ts`)],
        outfile: path.join(packageDir, `${entry}.${ext}`),
        bundle: true,
        format,
        platform: 'neutral',
        target: 'es2022',
        metafile: true,
        logLevel: 'warning',
      });
      const foreign = Object.keys(result.metafile.inputs).filter((input) => !input.startsWith('lib/sdk/'));
      if (foreign.length > 0) throw new Error(`the SDK bundle pulls in ${foreign.join(', ')}`);
    }
    const [types] = generateDtsBundle([{ filePath: path.join(root, 'lib', 'sdk', `${entry}.ts`), output: { noBanner: true } }], {
      preferredConfigPath: path.join(here, 'tsconfig.json'),
    });
    if (/^\s*(import|export .* from)\b|\/\/\/\s*<reference/m.test(types)) throw new Error('the SDK declarations import another module');
    const banner = `// @questline/sdk ${version}: types of the Questline ${entry === 'index' ? 'client SDK' : 'SDK backend helpers'} (self-contained).\n`;
    writeFileSync(path.join(packageDir, `${entry}.d.mts`), banner + types);
    writeFileSync(path.join(packageDir, `${entry}.d.cts`), banner + types);
  }
  writeFileSync(path.join(packageDir, 'README.md'), README);
  const manifest = {
    name: '@questline/sdk',
    version,
    description: 'Typed client for the Questline API with a self-healing live-update subscription',
    type: 'module',
    main: './index.cjs',
    module: './index.mjs',
    types: './index.d.cts',
    exports: {
      '.': {
        import: { types: './index.d.mts', default: './index.mjs' },
        require: { types: './index.d.cts', default: './index.cjs' },
      },
      './backend': {
        import: { types: './backend.d.mts', default: './backend.mjs' },
        require: { types: './backend.d.cts', default: './backend.cjs' },
      },
      './package.json': './package.json',
    },
    files: ['index.mjs', 'index.cjs', 'index.d.mts', 'index.d.cts', 'backend.mjs', 'backend.cjs', 'backend.d.mts', 'backend.d.cts', 'README.md'],
    sideEffects: false,
    engines: { node: '>=20' },
  };
  writeFileSync(path.join(packageDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  const packed = spawnSync('npm', ['pack', '--json', '--pack-destination', outDir], { cwd: packageDir, env: cleanEnv(), encoding: 'utf8' });
  if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  const [{ filename }] = JSON.parse(packed.stdout) as { filename: string }[];
  return { packageDir, tarball: path.join(outDir, filename) };
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const at = process.argv.indexOf('--out');
  packSdk(at > 0 ? path.resolve(process.argv[at + 1]) : undefined).then(
    ({ tarball }) => console.log(`@questline/sdk packed: ${path.relative(process.cwd(), tarball) || tarball}`),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
