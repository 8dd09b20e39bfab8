// The C# SDK (sdk/csharp) against the real service: compiles the library, its
// NUnit tests and the console sample with Mono's mcs (C# 7.2), starts the
// service (embedded, or PostgreSQL + Redis when DATABASE_URL/REDIS_URL are
// set), and runs nunit-console and the sample against it. The webhook tests
// cross the two SDKs: TypeScript signs what C# checks, and C# signs what
// TypeScript's verifyWebhook checks. Without Mono (`mcs`, `nunit-console`) the
// file fails under CI=true and is skipped with its reason otherwise
// (.ci/run installs mono-devel and nunit-console).
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook } from '@/lib/sdk/backend';
import { mission, campaign } from '@/lib/testing/fixtures';
import { createTestApp, startTestServer, uniqueId, type TestApp, type TestServer } from '@/lib/testing/test-server';

const run = promisify(execFile);
const csharp = __dirname;

/** The first NUnit 2 framework assembly Debian's libnunit-cil-dev installs. */
function nunitFramework(): string | null {
  const cli = '/usr/lib/cli';
  if (!existsSync(cli)) return null;
  const dir = readdirSync(cli).find((d) => d.startsWith('nunit.framework-2'));
  return dir ? path.join(cli, dir, 'nunit.framework.dll') : null;
}

function missingTools(): string[] {
  const missing = ['mcs', 'mono', 'nunit-console'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
  if (!nunitFramework()) missing.push('nunit.framework.dll (libnunit-cil-dev)');
  return missing;
}

const missing = missingTools();
const reason = `Mono is missing (${missing.join(', ')}): apt-get install -y mono-devel nunit-console`;
if (missing.length > 0 && !process.env.CI) console.log(`sdk/csharp/csharp-sdk.test.ts skipped: ${reason}`);

const sources = (dir: string) =>
  readdirSync(path.join(csharp, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.cs'))
    .map((f) => path.join(csharp, dir, f));

describe.skipIf(missing.length > 0 && !process.env.CI)('C# SDK (Mono, NUnit) against the real service', () => {
  let out: string;
  let server: TestServer;
  let app: TestApp;

  beforeAll(async () => {
    if (missing.length > 0) return;
    out = mkdtempSync(path.join(tmpdir(), 'questline-csharp-'));
    const mcs = (args: string[]) => run('mcs', ['-langversion:7.2', '-warnaserror', '-nologo', ...args], { cwd: csharp, maxBuffer: 16 << 20 });
    const sdk = path.join(out, 'Questline.dll');
    // The library as a game would build it (.NET Standard 2.0's surface: nothing but the base class library and System.Net.Http).
    await mcs(['-target:library', `-out:${sdk}`, '-r:System.Net.Http.dll', ...sources('src')]);
    await Promise.all([
      mcs(['-target:library', `-out:${path.join(out, 'Questline.Tests.dll')}`, `-r:${sdk}`, '-r:System.Net.Http.dll', `-r:${nunitFramework()}`, ...sources('tests')]),
      mcs(['-target:exe', `-out:${path.join(out, 'Questline.Sample.exe')}`, `-r:${sdk}`, ...sources('samples')]),
    ]);
    server = await startTestServer();
    app = await createTestApp(server, {
      campaigns: [campaign('c1')],
      missions: [
        mission('first-match', { criteria: { eventName: 'match_played', count: 1 }, reward: { kind: 'currency', currency: 'gems', amount: 50 }, campaignId: 'c1' }),
        mission('three-matches', { criteria: { eventName: 'match_played', count: 3 }, reward: { kind: 'currency', currency: 'coins', amount: 10 } }),
        mission('win-badge', { criteria: { eventName: 'win', count: 1 }, reward: { kind: 'badge', badgeId: 'winner' } }),
      ],
    });
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    if (out) rmSync(out, { recursive: true, force: true });
  });

  const env = () => ({
    ...process.env,
    QUESTLINE_URL: server.url,
    QUESTLINE_APP_ID: app.appId,
    QUESTLINE_APP_SECRET: app.appSecret,
    QUESTLINE_WEBHOOK_SECRET: app.webhookSecret,
  });

  it('passes its NUnit suite (JSON, SSE parser, backoff, errors, client, stream, polling, backend)', async () => {
    if (missing.length > 0) throw new Error(`CI needs Mono for the C# SDK: ${reason}`);
    const now = Date.now();
    const signatures = await Promise.all(
      [
        { secret: 'whsec_ascii', body: '{"events":[]}', timestamp: now },
        { secret: 'whsec_ü_🔑', body: '{"name":"ünïcödé 😀 \\" \\\\ \\u2028"}', timestamp: 1764000000150 },
        { secret: 's', body: '', timestamp: 1 },
      ].map(async (c) => ({ ...c, signature: await signWebhook(c.secret, c.body, c.timestamp) })),
    );
    const body = JSON.stringify({
      id: 'wh_5d0e7c1b',
      type: 'reward.granted',
      appId: 'my-game',
      userId: 'player-42',
      createdAt: now - 150,
      data: { userId: 'player-42', missionId: 'slay-boss', reward: { kind: 'item', itemId: 'legendary-sword', quantity: 1 }, idempotencyKey: 'claim-7f3a' },
    });
    const secret = 'endpoint-secret-ü';
    const fixtures = path.join(out, 'fixtures.json');
    writeFileSync(
      fixtures,
      JSON.stringify({
        signatures,
        notification: {
          secret,
          body,
          now: now + 1000,
          headers: {
            'questline-webhook-id': 'wh_5d0e7c1b',
            'questline-webhook-timestamp': String(now),
            'questline-webhook-signature': await signWebhook(secret, body, now),
          },
        },
        out: path.join(out, 'csharp-signed.json'),
      }),
    );
    const result = path.join(out, 'TestResult.xml');
    const nunit = await run('nunit-console', [path.join(out, 'Questline.Tests.dll'), '-nologo', `-result=${result}`], {
      cwd: out,
      env: { ...env(), QUESTLINE_FIXTURES: fixtures },
      timeout: 150_000,
      maxBuffer: 16 << 20,
    }).catch((err: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`nunit-console failed:\n${err.stdout ?? ''}\n${err.stderr ?? err.message}`);
    });
    const summary = /Tests run: (\d+), Errors: (\d+), Failures: (\d+)/.exec(nunit.stdout);
    expect(summary, nunit.stdout).not.toBeNull();
    expect(Number(summary![1])).toBeGreaterThanOrEqual(50);
    expect([summary![2], summary![3]], nunit.stdout).toEqual(['0', '0']);
    expect(readFileSync(result, 'utf8')).toContain('success="True"');

    // What C# signed, TypeScript's verifyWebhook accepts (and refuses once the body changes).
    const signed = JSON.parse(readFileSync(path.join(out, 'csharp-signed.json'), 'utf8')) as { secret: string; headers: Record<string, string>; body: string; now: number };
    const notification = await verifyWebhook(signed.secret, signed.headers, signed.body, signed.now);
    expect(notification).toMatchObject({ id: 'wh_cs_1', type: 'balance.changed', data: { amount: 50, userId: 'p-ü' } });
    await expect(verifyWebhook(signed.secret, signed.headers, signed.body.replace('50', '51'), signed.now)).rejects.toThrow('signature');
  }, 200_000);

  it('runs the README sample (console program) against the service', async () => {
    if (missing.length > 0) throw new Error(`CI needs Mono for the C# SDK: ${reason}`);
    const userId = uniqueId('sample');
    const { stdout } = await run('mono', [path.join(out, 'Questline.Sample.exe')], { cwd: out, env: { ...env(), QUESTLINE_USER_ID: userId }, timeout: 60_000 });
    expect(stdout).toContain('stream: Open');
    expect(stdout).toContain('mission first-match: completed 1/1');
    expect(stdout).toContain('claimed first-match: currency, gems now 50');
    expect(stdout).toContain('the stream told the reward');
    expect(stdout).toContain('balance gems: 50');
  }, 90_000);
});
