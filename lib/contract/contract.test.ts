// lib/contract is the one source of the API's shapes, shared with the
// console's forms in the browser: it imports nothing but zod, and its schemas
// hold the rules the API enforces.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { campaignFormSchema, publicCampaignSchema } from './campaign';
import { ERRORS } from './errors';
import { missionSchema, publicMissionSchema } from './mission';
import { componentJsonSchemas, contractComponents } from './registry';

const dir = __dirname;
const sources = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));

describe('the contract module', () => {
  it.each(sources)('%s imports nothing but zod and its sibling modules', (file) => {
    const text = readFileSync(path.join(dir, file), 'utf8');
    const specs = [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)].map((m) => m[1]);
    for (const spec of specs) expect(spec, `${file} imports ${spec}`).toMatch(/^(zod|\.\/[\w-]+)$/);
    expect(text).not.toMatch(/\brequire\(|\bimport\(|\bBuffer\b|\bprocess\./);
  });

  it('bundles for the browser with nothing but itself and zod', async () => {
    const { build } = await import('esbuild');
    const result = await build({
      stdin: { contents: sources.map((f) => `export * from './${f.replace(/\.ts$/, '')}';`).join('\n'), resolveDir: dir, loader: 'ts' },
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs).filter((f) => f !== '<stdin>');
    for (const input of inputs) expect(input).toMatch(/^(lib\/contract\/|node_modules\/zod\/)/);
  });

  it('names every component of the OpenAPI document once, with a JSON Schema', () => {
    const schemas = componentJsonSchemas();
    expect(Object.keys(schemas).sort()).toEqual(Object.keys(contractComponents).sort());
  });
});

describe('entity schemas', () => {
  const mission = { id: 'm1', title: 'Win', criteria: { eventName: 'match_won', count: 3 }, reward: { kind: 'currency', currency: 'gems', amount: 5 } };

  it('a mission definition gets its defaults and the public form drops archived (and the audience) and adds locked', () => {
    const parsed = missionSchema.parse(mission);
    expect(parsed).toEqual({
      ...mission,
      description: '',
      criteria: { eventName: 'match_won', count: 3, window: 'lifetime' },
      campaignId: null,
      expiresAt: null,
      iconUrl: null,
      prerequisites: [],
      archived: false,
    });
    expect(Object.keys(publicMissionSchema.shape)).toEqual([...Object.keys(missionSchema.shape).filter((k) => k !== 'archived' && k !== 'audience'), 'locked']);
  });

  it('a mission filter is checked by the schema itself (what the console shows inline)', () => {
    const bad = missionSchema.safeParse({ ...mission, criteria: { ...mission.criteria, filter: { score: { between: [1, 2] } } } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ['criteria', 'filter'], message: expect.stringMatching(/unknown operator "between"/) });
    expect(missionSchema.safeParse({ ...mission, criteria: { ...mission.criteria, filter: { 'a.b': { gte: 1 }, mode: 'ranked' } } }).success).toBe(true);
  });

  it('a campaign form must end after it starts; the public form always has missionIds', () => {
    const c = { id: 'c1', title: 'C', startAt: 2000, endAt: 1000 };
    const bad = campaignFormSchema.safeParse(c);
    expect(bad.error?.issues[0]).toMatchObject({ path: ['endAt'], message: 'must be after startAt' });
    expect(campaignFormSchema.safeParse({ ...c, endAt: 3000 }).success).toBe(true);
    expect(publicCampaignSchema.safeParse({ ...c, endAt: 3000 }).success).toBe(false);
  });
});

describe('the error table', () => {
  it('gives every code a 4xx or 5xx status and a description', () => {
    for (const [code, { status, description }] of Object.entries(ERRORS)) {
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(status, code).toBeLessThan(600);
      expect(description.length, code).toBeGreaterThan(10);
    }
  });

  it('is the one docs/api.md shows: each code with its status', () => {
    const doc = readFileSync(path.join(dir, '..', '..', 'docs', 'api.md'), 'utf8');
    for (const [code, { status }] of Object.entries(ERRORS)) {
      const row = doc.split('\n').find((line) => line.startsWith(`| ${status} |`) && line.includes(`\`${code}\``));
      expect(row, `docs/api.md lists ${code} under ${status}`).toBeDefined();
    }
  });
});
