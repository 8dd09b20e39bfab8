// The SDK must run in browsers and ship as a package of its own: no import
// (type or value) of server code, zod, next/* or node:*. Every file under
// lib/sdk is checked, subfolders included; test support lives in lib/testing.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = __dirname;
const sources = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));

/** A relative import that stays inside lib/sdk (checked against the file's own folder below). */
const SDK_RELATIVE = /^\.{1,2}\/[\w/-]+$/;

describe('SDK bundle hygiene', () => {
  it('finds the files of subfolders too', () => {
    expect(sources).toContain('index.ts');
  });

  it.each(sources)('%s imports nothing outside lib/sdk by a relative path', (file) => {
    const text = readFileSync(path.join(dir, file), 'utf8');
    for (const m of text.matchAll(/^(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gms)) {
      const target = path.resolve(dir, path.dirname(file), m[1]);
      expect(path.relative(dir, target).startsWith('..'), `${file} imports ${m[1]}`).toBe(false);
    }
  });

  it.each(sources)('%s imports only SDK modules at runtime', (file) => {
    const text = readFileSync(path.join(dir, file), 'utf8');
    const runtime = [...text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gms)].map((m) => m[1]);
    for (const spec of runtime) expect(spec, `${file} imports ${spec}`).toMatch(SDK_RELATIVE);
    expect(text).not.toMatch(/\brequire\(|\bimport\(|\bBuffer\b|\bprocess\./);
  });

  it.each(sources)('%s imports no type from outside the SDK either (its .d.ts must stand alone)', (file) => {
    const text = readFileSync(path.join(dir, file), 'utf8');
    const all = [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)].map((m) => m[1]);
    for (const spec of all) expect(spec, `${file} imports ${spec}`).toMatch(SDK_RELATIVE);
  });

  it('bundles for the browser with nothing but the SDK', async () => {
    const { build } = await import('esbuild');
    const result = await build({
      entryPoints: [path.join(dir, 'index.ts')],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.every((f) => f.startsWith('lib/sdk/'))).toBe(true);
    expect(result.outputFiles[0].text.length).toBeLessThan(60_000);
  });
});
