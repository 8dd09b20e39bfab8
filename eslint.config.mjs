// `npm run lint` (and a step of `npm test`): ESLint 9 with the flat configs
// that eslint-config-next 16 ships (Next.js, React, React Hooks, import,
// jsx-a11y, and typescript-eslint's recommended rules) over the whole repo.
// `--max-warnings 0` makes the config's warnings fail the run too.
import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';
import { questline } from './scripts/eslint-layers.mjs';

// Layers (docs/architecture.md, "Layers the linter enforces"): one rule,
// questline/layers (scripts/eslint-layers.mjs), which resolves every import to
// the repository path it names, so `@/db/schema` and `../../db/schema` are
// refused alike, and which covers app/ and components/ too.
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
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mjs', '**/*.js'],
    plugins: { questline },
    rules: { 'questline/layers': 'error' },
  },
  {
    // Playwright's fixtures hand over their value through a callback named `use`, which is not React's `use`.
    files: ['e2e/**'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
]);
