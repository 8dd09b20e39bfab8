// `npm run lint` (and a step of `npm test`): ESLint 9 with the flat configs
// that eslint-config-next 16 ships (Next.js, React, React Hooks, import,
// jsx-a11y, and typescript-eslint's recommended rules) over the whole repo.
// `--max-warnings 0` makes the config's warnings fail the run too.
import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';

// Layers (docs/architecture.md, "Layers the linter enforces"). Each rule is a
// list of restricted imports; a file in several layers gets the union, because
// a later flat-config entry replaces an earlier entry's options for the same rule.
const noHttp = { group: ['@/lib/http', '@/lib/http/**'], message: 'Domain code never imports lib/http: HTTP parses, calls the domain and answers.' };
const noNext = { group: ['next', 'next/**'], message: 'Only app/, components/ and lib/console may import next/*.' };
const DOMAIN = ['analytics', 'apps', 'balances', 'catalog', 'claims', 'demo', 'events', 'idempotency', 'missions', 'progress', 'recommendations', 'reliability', 'retention', 'services', 'staff', 'updates', 'webhook'];
const noDomain = { group: DOMAIN.map((d) => `@/lib/${d}/**`), message: 'Infrastructure (db, kv, bus, ratelimit) imports no domain module.' };
// lib/updates (the update log, ordered publication, resync) is infrastructure too: what it needs of the domain
// reaches it through the port of lib/updates/sources.ts, provided at start-up (lib/boot.ts).
const noDomainInUpdates = {
  group: DOMAIN.filter((d) => d !== 'updates').map((d) => `@/lib/${d}/**`),
  message: 'lib/updates is infrastructure: it imports no domain module (what it needs comes through lib/updates/sources.ts).',
};
const noDb = { group: ['@/db', '@/db/**'], message: 'lib/http never reaches the database: it builds a ServiceContext (lib/http/service-context.ts) and calls a verb.' };
const noGlobalDb = { name: '@/db/client', importNames: ['getDb'], message: 'A service takes its database from ctx (lib/services/context.ts), never from the global getter.' };
const noGlobalDbInDomain = {
  name: '@/db/client',
  importNames: ['getDb'],
  message: 'Only lib/process-db.ts reaches the global database getter: take the database from ctx, a parameter or processDb() (lib/process-db.ts).',
};
// The process's database (lib/process-db.ts, used by the composition root) is the one door to the global getter (docs/architecture.md).
const GLOBAL_DB_DOOR = ['lib/process-db.ts'];
const sdkOnly = { group: ['@/**', 'node:*', 'zod', 'zod/**', 'next', 'next/**'], message: 'The SDK imports only its own modules (it ships as a browser package).' };
const restrict = (patterns, paths = []) => ({ 'no-restricted-imports': ['error', { patterns, paths }] });
const TESTS = ['**/*.test.ts', '**/*.contract.ts'];

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  // Generated or vendored output, never edited by hand (node_modules and .git are ignored by ESLint itself).
  globalIgnores([
    '.next/**',
    'next-env.d.ts',
    '.data/**',
    '.data-*/**',
    'dist/**',
    'test-results/**',
    'playwright-report/**',
    'tmp/**',
    'public/vendor/**',
    'db/migrations/**',
  ]),
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Leaving fields out with a rest pattern (`const { version: _v, ...fields } = c`) is how we copy an object without them.
      '@typescript-eslint/no-unused-vars': ['warn', { ignoreRestSiblings: true }],
      // Only says the React Compiler skipped a component (react-hook-form's watch, TanStack Table); we do not run the compiler.
      'react-hooks/incompatible-library': 'off',
    },
  },
  { files: ['lib/**/*.ts', 'lib/**/*.tsx'], ignores: ['lib/http/**', 'lib/testing/**', 'lib/console/**', 'lib/sdk/**', ...TESTS], rules: restrict([noHttp, noNext], [noGlobalDbInDomain]) },
  { files: GLOBAL_DB_DOOR, rules: restrict([noHttp, noNext]) },
  { files: ['lib/services/**/*.ts'], ignores: TESTS, rules: restrict([noHttp, noNext], [noGlobalDb]) },
  { files: ['lib/kv/**/*.ts', 'lib/bus/**/*.ts', 'lib/ratelimit/**/*.ts', 'db/**/*.ts'], ignores: TESTS, rules: restrict([noHttp, noNext, noDomain]) },
  { files: ['lib/updates/**/*.ts'], ignores: TESTS, rules: restrict([noHttp, noNext, noDomainInUpdates]) },
  { files: ['lib/http/**/*.ts'], ignores: TESTS, rules: restrict([noDb]) },
  { files: ['lib/sdk/**/*.ts'], ignores: TESTS, rules: restrict([sdkOnly]) },
  {
    // Playwright's fixtures hand over their value through a callback named `use`, which is not React's `use`.
    files: ['e2e/**'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
]);
