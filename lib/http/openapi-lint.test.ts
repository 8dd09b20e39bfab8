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

describe('a typed client generated from the documents (openapi-typescript)', () => {
  it('type-checks a small program of a game and of a support tool (tsc, strict)', async () => {
    for (const name of Object.keys(DOCUMENTS) as DocName[]) {
      await run(bin('openapi-typescript'), [file(name), '--output', path.join(dir, `${name}-api.ts`)], { cwd: dir, env: quiet });
    }
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2022', 'DOM'], types: [], skipLibCheck: false },
      include: ['*.ts'],
    }));
    writeFileSync(path.join(dir, 'program.ts'), CLIENT_PROGRAM);
    const checked = await run(bin('tsc'), ['-p', dir], { cwd: dir }).then(
      () => '',
      (err: { stdout?: string }) => err.stdout ?? String(err),
    );
    expect(checked).toBe('');
  });
});

/** A game's session and a support tool's read, typed by the generated client only (its wrong lines must stay wrong). */
const CLIENT_PROGRAM = `
import type { components, operations } from './v1-api';
import type { operations as admin } from './admin-api';

type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type TokenRequest = Json<operations['issueToken']['requestBody']>;
type TokenAnswer = Json<operations['issueToken']['responses'][200]>;
type EventAnswer = Json<operations['postEvent']['responses'][200]>;
type ClaimAnswer = Json<operations['claimMission']['responses'][200]>;
type TooLarge = Json<operations['postEvent']['responses'][413]>;
type Limited = Json<operations['postEvent']['responses'][429]>;
type BadInclude = Json<operations['listCampaigns']['responses'][400]>;
type Update = components['schemas']['SDKUpdate'];
type StreamHeaders = NonNullable<operations['streamUpdates']['parameters']['header']>;
type Replay = operations['postEvent']['responses'][200]['headers']['X-Idempotent-Replay'];
type MissionRecord = Json<admin['getMissionRecord']['responses'][200]>;
type Revoked = Json<admin['revokePlayerTokens']['responses'][200]>;

async function post<T>(url: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: 'Bearer ' + token } : {}) }, body: JSON.stringify(body) });
  return (await res.json()) as T;
}

export async function session(base: string, appSecret: string): Promise<number> {
  const request: TokenRequest = { appId: 'demo', appSecret, userId: 'player-42' };
  const token = await post<TokenAnswer>(base + '/v1/auth/token', request);
  const kind: 'Bearer' = token.tokenType;
  const event: components['schemas']['Event'] = { userId: 'player-42', name: 'match_won', payload: { mode: 'ranked' }, timestamp: Date.now() };
  const answer = await post<EventAnswer | TooLarge | Limited>(base + '/v1/events', event, token.accessToken);
  if ('error' in answer) return answer.retryAfterMs ?? 0;
  const updated: string[] = answer.missionsUpdated;
  const claim = await post<ClaimAnswer>(base + '/v1/missions/' + updated[0] + '/claim', undefined, token.accessToken);
  const status: 'active' | 'completed' | 'claimed' | 'locked' = claim.progress.status;
  const gems = claim.reward.kind === 'currency' ? claim.reward.amount : 0;
  return gems + (claim.balance?.amount ?? 0) + (status === 'claimed' ? 1 : 0) + kind.length;
}

export function describeUpdate(update: Update): string {
  switch (update.type) {
    case 'balance.changed':
      return update.data.currency + ' ' + update.data.amount;
    case 'reward.granted':
      return update.data.missionId + ' ' + update.data.reward.kind;
    case 'recommendation':
      return update.data.reason;
    default:
      return update.data.missionId + ' ' + update.data.progress;
  }
}

export const resume: StreamHeaders = { 'Last-Event-ID': '1764158400000-0' };
export const replayed: Replay = 'db-hit';
export const errorCode = (body: BadInclude): string => body.error + (body.message ?? '');
export const version = (record: MissionRecord): number => record.version;
export const revokedUser = (answer: Revoked): string => ('userId' in answer ? answer.userId : answer.jti);

// @ts-expect-error a token request needs its userId
export const missingUser: TokenRequest = { appId: 'demo', appSecret: 's' };
// @ts-expect-error a progress status is one of four
export const wrongStatus: ClaimAnswer['progress']['status'] = 'done';
// @ts-expect-error X-Idempotent-Replay is hit or db-hit
export const wrongReplay: Replay = 'miss';
`;
