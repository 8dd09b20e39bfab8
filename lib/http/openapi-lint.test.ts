// Both OpenAPI documents, as the server answers them, through the two linters
// generators and gateways trust: Redocly (`recommended`, redocly.yaml) and
// Spectral (`spectral:oas`, .spectral.yaml). Any error fails, and so does
// any warning other than the ones redocly.yaml keeps on purpose: a new route
// must keep the documents clean. Then a typed client is generated from each
// document (openapi-typescript) and a small program is type-checked against
// it (tsc), so the documents stay good enough for other languages' generators.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { getAdminOpenApiDocument } from './admin/openapi';
import { getOpenApiDocument } from './v1/openapi';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);
const quiet = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

const DOCUMENTS = { v1: getOpenApiDocument, admin: getAdminOpenApiDocument } as const;
type DocName = keyof typeof DOCUMENTS;

/** The warnings redocly.yaml keeps on purpose (and says why): rule and where. */
const KEPT_REDOCLY_WARNINGS: Record<DocName, string[]> = {
  v1: ['info-license #/info', 'no-unused-components #/components/schemas/SDKUpdate'],
  admin: ['info-license #/info'],
};

let dir: string;
const file = (name: DocName) => path.join(dir, `${name}.json`);

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'openapi-'));
  for (const [name, build] of Object.entries(DOCUMENTS)) writeFileSync(file(name as DocName), JSON.stringify(build(), null, 2));
});

interface Finding {
  rule: string;
  severity: string;
  where: string;
  message: string;
}

async function redocly(name: DocName): Promise<Finding[]> {
  const out = path.join(dir, `${name}.redocly.json`);
  // Exit code 1 on errors: the findings are read from the report either way.
  const { stdout } = await run(bin('redocly'), ['lint', '--config', path.join(root, 'redocly.yaml'), '--format', 'json', file(name)], { cwd: dir, env: quiet }).catch(
    (err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }),
  );
  writeFileSync(out, stdout);
  const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[] };
  return report.problems.map((p) => ({ rule: p.ruleId, severity: p.severity === 'warn' ? 'warning' : p.severity, where: p.location[0]?.pointer ?? '', message: p.message }));
}

async function spectral(name: DocName): Promise<Finding[]> {
  const out = path.join(dir, `${name}.spectral.json`);
  await run(bin('spectral'), ['lint', '--ruleset', path.join(root, '.spectral.yaml'), '--format', 'json', '--output', out, '--fail-severity', 'error', file(name)], { cwd: dir, env: quiet }).catch(
    () => undefined,
  );
  const severities = ['error', 'warning', 'info', 'hint'];
  const report = JSON.parse(readFileSync(out, 'utf8')) as { code: string; severity: number; message: string; path: string[] }[];
  return report.map((p) => ({ rule: p.code, severity: severities[p.severity], where: `#/${p.path.join('/')}`, message: p.message }));
}

const show = (findings: Finding[]) => findings.map((f) => `${f.severity} ${f.rule} ${f.where}: ${f.message}`).join('\n');

describe.each(Object.keys(DOCUMENTS) as DocName[])('the %s OpenAPI document', (name) => {
  it('lints under Redocly (recommended) with no error and only the warnings redocly.yaml keeps', async () => {
    const findings = await redocly(name);
    expect(findings.filter((f) => f.severity === 'error'), show(findings)).toEqual([]);
    const warnings = findings.filter((f) => f.severity === 'warning').map((f) => `${f.rule} ${f.where}`);
    expect(warnings.sort(), show(findings)).toEqual(KEPT_REDOCLY_WARNINGS[name].sort());
  });

  it('lints under Spectral (spectral:oas) with no error and no warning', async () => {
    const findings = await spectral(name);
    expect(findings.filter((f) => f.severity === 'error' || f.severity === 'warning'), show(findings)).toEqual([]);
  });
});
