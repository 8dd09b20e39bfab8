// Only `npm test` skips the build's own type-check (it type-checks the same
// tsconfig just before building, with the route types made by `next
// typegen`): every other build, `npm start`'s and `npm run build`, still
// fails on a type error. Each import below is a new evaluation of the config
// (a distinct query), read with the environment of that moment.
import type { NextConfig } from 'next';
import { afterEach, expect, it, vi } from 'vitest';

const CONFIG = new URL('./next.config.ts', import.meta.url).pathname;
const load = async (query: string): Promise<NextConfig> => ((await import(/* @vite-ignore */ `${CONFIG}?${query}`)) as { default: NextConfig }).default;

afterEach(() => vi.unstubAllEnvs());

it('type-checks in the build unless QUESTLINE_TYPECHECKED is 1', async () => {
  vi.stubEnv('QUESTLINE_TYPECHECKED', undefined);
  const plain = await load('plain');
  expect(plain.typescript).toEqual({ tsconfigPath: './tsconfig.json', ignoreBuildErrors: false });
  vi.stubEnv('QUESTLINE_TYPECHECKED', '0');
  expect((await load('zero')).typescript?.ignoreBuildErrors).toBe(false);
  vi.stubEnv('QUESTLINE_TYPECHECKED', '1');
  expect((await load('checked')).typescript?.ignoreBuildErrors).toBe(true);
});
