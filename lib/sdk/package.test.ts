// `npm run sdk:pack` builds @questline/sdk. Installed from its tarball into a
// project outside this repository (offline: it has no dependency), docs/sdk.md's
// quickstart (examples/sdk-quickstart.mjs) runs against the real service on a
// real port, as ESM and as CommonJS, and its types stand alone (no zod, no
// server code) under Node16 resolution for both module systems.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, startTestServer, uniqueId, type TestApp, type TestServer } from '@/lib/testing/test-server';
import { mission } from '@/lib/testing/fixtures';

const run = promisify(execFile);
const root = path.resolve(__dirname, '..', '..');
const example = readFileSync(path.join(root, 'examples', 'sdk-quickstart.mjs'), 'utf8');
/** The environment of the outer `npm test` must not steer the inner npm. */
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_'))) as NodeJS.ProcessEnv;

let server: TestServer;
let app: TestApp;
let work: string;
let consumer: string;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'questline-sdk-'));
  consumer = path.join(work, 'consumer');
  const packed = spawnSync('npm', ['run', 'sdk:pack', '--', '--out', path.join(work, 'dist')], { cwd: root, env, encoding: 'utf8' });
  expect(packed.status, packed.stderr).toBe(0);
  const tarball = path.join(work, 'dist', readdirSync(path.join(work, 'dist')).find((f) => f.endsWith('.tgz'))!);

  mkdirSync(consumer);
  writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'sdk-consumer', private: true, version: '1.0.0' }));
  const installed = spawnSync('npm', ['install', tarball, '--no-audit', '--no-fund', '--offline'], { cwd: consumer, env, encoding: 'utf8' });
  expect(installed.status, installed.stderr).toBe(0);

  server = await startTestServer();
  app = await createTestApp(server, {
    missions: [
      mission('first-match', { criteria: { eventName: 'match_played', count: 1 }, reward: { kind: 'currency', currency: 'gems', amount: 50 } }),
      mission('veteran', { criteria: { eventName: 'match_played', count: 5 }, prerequisites: ['first-match'] }),
    ],
  });
}, 180_000);

afterAll(async () => {
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

async function runQuickstart(file: string): Promise<{ stdout: string; userId: string }> {
  const userId = uniqueId('player');
  const { stdout } = await run(process.execPath, [file], {
    cwd: consumer,
    timeout: 60_000,
    env: { ...env, QUESTLINE_URL: server.url, QUESTLINE_APP_ID: app.appId, QUESTLINE_APP_SECRET: app.appSecret, QUESTLINE_USER_ID: userId },
  });
  return { stdout, userId };
}

function expectTheWalkthrough(stdout: string): void {
  expect(stdout).toContain('missions updated: first-match');
  expect(stdout).toContain('mission first-match: completed');
  expect(stdout).toContain('mission veteran: locked');
  expect(stdout).toMatch(/^update mission\.completed .*"missionId":"first-match"/m);
  const claimed = /^claimed first-match: (\{.*\}) balance 50$/m.exec(stdout);
  expect(JSON.parse(claimed?.[1] ?? 'null')).toEqual({ kind: 'currency', currency: 'gems', amount: 50 });
  expect(stdout).toMatch(/^update balance\.changed .*"amount":50/m);
}

async function balanceOf(userId: string): Promise<unknown> {
  const token = await fetch(`${server.url}/v1/auth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ appId: app.appId, appSecret: app.appSecret, userId }),
  }).then((r) => r.json() as Promise<{ accessToken: string }>);
  const res = await fetch(`${server.url}/v1/balance?currency=gems`, { headers: { Authorization: `Bearer ${token.accessToken}` } });
  return ((await res.json()) as { balance: { amount: number } }).balance.amount;
}

describe('the @questline/sdk package', () => {
  it('has no dependency and installs alone, with ESM, CommonJS and a .d.ts for each', () => {
    const dir = path.join(consumer, 'node_modules', '@questline', 'sdk');
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.peerDependencies).toBeUndefined();
    expect(readdirSync(path.join(consumer, 'node_modules')).filter((f) => !f.startsWith('.'))).toEqual(['@questline']);
    const files = ['index', 'backend'].flatMap((entry) => [`${entry}.mjs`, `${entry}.cjs`, `${entry}.d.mts`, `${entry}.d.cts`]);
    for (const file of files) expect(existsSync(path.join(dir, file)), file).toBe(true);
    expect(readFileSync(path.join(dir, 'index.mjs'), 'utf8')).not.toMatch(/signWebhook/);
    for (const file of ['index.mjs', 'index.cjs', 'backend.mjs', 'backend.cjs']) {
      expect(readFileSync(path.join(dir, file), 'utf8'), file).not.toMatch(/\bfrom\s*["']|\brequire\(["']|\bimport\(/);
    }
    for (const file of ['index.d.mts', 'index.d.cts', 'backend.d.mts', 'backend.d.cts']) {
      expect(readFileSync(path.join(dir, file), 'utf8'), file).not.toMatch(/^\s*import\b|\bfrom\s+["']|<reference/m);
    }
  });

  it('runs the SDK quickstart (docs/sdk.md) as ESM against the live service', async () => {
    const resolved = await run(process.execPath, ['--input-type=module', '-e', "process.stdout.write(import.meta.resolve('@questline/sdk'))"], { cwd: consumer });
    expect(resolved.stdout).toMatch(/\/@questline\/sdk\/index\.mjs$/);
    writeFileSync(path.join(consumer, 'quickstart.mjs'), example);
    const { stdout, userId } = await runQuickstart('quickstart.mjs');
    expectTheWalkthrough(stdout);
    expect(await balanceOf(userId)).toBe(50);
  }, 90_000);

  it('runs the same quickstart as CommonJS (require) against the live service', async () => {
    const importLine = /^import \{ ([^}]+) \} from '@questline\/sdk';$/m;
    expect(example).toMatch(importLine);
    // Node 20.19+ can require() an ES module: make sure require takes the CommonJS build.
    const resolved = await run(process.execPath, ['-e', "process.stdout.write(require.resolve('@questline/sdk'))"], { cwd: consumer });
    expect(resolved.stdout).toMatch(/\/@questline\/sdk\/index\.cjs$/);
    writeFileSync(path.join(consumer, 'quickstart.cjs'), example.replace(importLine, "const { $1 } = require('@questline/sdk');"));
    const { stdout, userId } = await runQuickstart('quickstart.cjs');
    expectTheWalkthrough(stdout);
    expect(await balanceOf(userId)).toBe(50);
  }, 90_000);

  it('@questline/sdk/backend signs a webhook delivery the live service accepts, as ESM and as CommonJS', async () => {
    const script = (importLine: string) => `${importLine}
(async () => {
  const body = JSON.stringify({ events: [{ userId: process.env.USER_ID, name: 'match_played', payload: {}, timestamp: Date.now() }] });
  const headers = await webhookHeaders({ appId: process.env.APP_ID, secret: process.env.WEBHOOK_SECRET, body, webhookId: process.env.WEBHOOK_ID });
  const res = await fetch(process.env.QUESTLINE_URL + '/v1/webhook/incoming', { method: 'POST', headers, body });
  console.log(res.status, await res.text());
})();
`;
    writeFileSync(path.join(consumer, 'sign.mjs'), script("import { webhookHeaders } from '@questline/sdk/backend';"));
    writeFileSync(path.join(consumer, 'sign.cjs'), script("const { webhookHeaders } = require('@questline/sdk/backend');"));
    for (const file of ['sign.mjs', 'sign.cjs']) {
      const userId = uniqueId('player');
      const { stdout } = await run(process.execPath, [file], {
        cwd: consumer,
        env: { ...env, QUESTLINE_URL: server.url, APP_ID: app.appId, WEBHOOK_SECRET: app.webhookSecret, USER_ID: userId, WEBHOOK_ID: uniqueId('whk') },
      });
      expect(stdout, file).toMatch(/^200 \{"accepted":true,"results":\[\{"eventId":"evt_[^"]+","missionsUpdated":\["first-match"\]\}\]\}/);
    }
  }, 60_000);

  it('type-checks a consumer under Node16 resolution, ESM and CommonJS, without zod (types are real, not any)', () => {
    const usage = `
import { createQuestlineClient, ClaimNotReadyError, ERROR_STATUS, type Mission, type SdkUpdate, type ErrorCode } from '@questline/sdk';
const ql = createQuestlineClient({ baseUrl: 'http://localhost:3000', token: 't' });
export async function check(): Promise<void> {
  const { mission } = await ql.getMission('first-match');
  const locked: boolean = mission.locked;
  const status: 409 = ERROR_STATUS.claim_not_ready;
  const code: ErrorCode = 'claim_not_ready';
  // @ts-expect-error locked is a boolean
  const wrong: string = mission.locked;
  ql.subscribe((u: SdkUpdate) => { if (u.type === 'balance.changed') { const n: number = u.data.amount; void n; } });
  const m: Mission['reward'] = { kind: 'badge', badgeId: 'b' };
  void [locked, status, code, wrong, m, ClaimNotReadyError];
}
`;
    writeFileSync(path.join(consumer, 'check-esm.mts'), usage);
    writeFileSync(path.join(consumer, 'check-cjs.cts'), usage);
    writeFileSync(
      path.join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'node16', moduleResolution: 'node16', target: 'ES2022', lib: ['ES2022', 'DOM'], types: [], strict: true, noEmit: true, skipLibCheck: false },
        files: ['check-esm.mts', 'check-cjs.cts'],
      }),
    );
    const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', consumer], { encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 60_000);

  it('is the file docs/sdk.md shows', () => {
    const guide = readFileSync(path.join(root, 'docs', 'sdk.md'), 'utf8');
    expect(guide).toContain(`\`\`\`js\n${example}\`\`\``);
  });
});
