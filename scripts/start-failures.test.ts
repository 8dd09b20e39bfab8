// Start-up as a person meets it when something is wrong: each failure is one
// line naming the variable and what failed (never a driver's stack, never a
// password), a port in use is said before anything is created, an
// unreachable Redis is one warning line, and secrets are printed once. Runs
// scripts/serve.ts (the same boot() as `npm start`, no build needed); the
// `npm start` side is in scripts/start.test.ts.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedDataDir } from '@/lib/testing/pglite-template';
import { freePort } from '@/lib/testing/processes';
import { startServeProcess } from '@/lib/testing/serve-process';

const ROOT = path.resolve(__dirname, '..');
const JWT = 'start-failures-jwt-secret-0123456789abcdef';
const databaseUrl = process.env.DATABASE_URL?.trim();

/** Runs scripts/serve.ts until it exits; answers its exit code and everything it printed. */
function runUntilExit(env: Record<string, string | undefined>): Promise<{ code: number | null; output: string; dataDir: string }> {
  const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'questline-failing-')), 'data');
  const childEnv: NodeJS.ProcessEnv = { ...process.env, QUESTLINE_DATA_DIR: dataDir, JWT_SECRET: JWT, QUESTLINE_QUIET: undefined, LOG_LEVEL: undefined };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete childEnv[name];
    else childEnv[name] = value;
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/serve.ts'], { cwd: ROOT, env: childEnv });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output, dataDir })));
}

/** The lines a person reads (Node's own experimental-feature notices aside). */
const linesOf = (output: string) => output.trim().split('\n').filter((l) => l && !/ExperimentalWarning|--trace-warnings/.test(l));

/** A TCP port nothing listens on (reserved from the test range, then closed). */
const closedPort = () => freePort();

describe('start-up failures: one line, exit 1', () => {
  it('a refused PostgreSQL port: one line naming DATABASE_URL, its host and port, never the password', async () => {
    const port = await closedPort();
    const run = await runUntilExit({ DATABASE_URL: `postgres://questline:s3cret-Pa55@127.0.0.1:${port}/questline_h4`, REDIS_URL: undefined });
    expect(run.code).toBe(1);
    expect(linesOf(run.output)).toEqual([
      `Questline: cannot start on the database at DATABASE_URL (127.0.0.1:${port}/questline_h4): connection refused (ECONNREFUSED): is PostgreSQL running and listening there?`,
    ]);
    expect(run.output).not.toContain('s3cret-Pa55');
  });

  it('an unknown PostgreSQL host: one line saying the host was not found', async () => {
    const run = await runUntilExit({ DATABASE_URL: 'postgres://questline:s3cret-Pa55@no-such-host.invalid:5432/questline', REDIS_URL: undefined });
    expect(run.code).toBe(1);
    expect(linesOf(run.output)).toEqual([
      'Questline: cannot start on the database at DATABASE_URL (no-such-host.invalid:5432/questline): host not found (ENOTFOUND)',
    ]);
  });

  it.skipIf(!databaseUrl)('a missing database on a running PostgreSQL: one line with its name and SQLSTATE 3D000', async () => {
    const url = new URL(databaseUrl!);
    url.pathname = '/questline_h4_does_not_exist';
    const run = await runUntilExit({ DATABASE_URL: url.href, REDIS_URL: undefined });
    expect(run.code).toBe(1);
    expect(linesOf(run.output)).toEqual([
      `Questline: cannot start on the database at DATABASE_URL (${url.hostname}:${url.port || 5432}/questline_h4_does_not_exist): database "questline_h4_does_not_exist" does not exist (SQLSTATE 3D000)`,
    ]);
  });

  it('PORT in use: one line, and nothing created (no data directory, no secrets, no migration)', async () => {
    const port = await freePort();
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(port, resolve));
    try {
      const run = await runUntilExit({ PORT: String(port), DATABASE_URL: undefined, REDIS_URL: undefined, JWT_SECRET: undefined, ADMIN_API_KEY: undefined });
      expect(run.code).toBe(1);
      expect(linesOf(run.output)).toEqual([`Questline: PORT ${port} is already in use (another Questline or another server?); stop it or set PORT to a free port`]);
      expect(existsSync(run.dataDir)).toBe(false);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});

describe('start-up with an unreachable Redis', () => {
  it('serves, after one warning line naming REDIS_URL (host and port) and what still works; no JSON error, no [redis:…] line', async () => {
    const port = await closedPort();
    const server = await startServeProcess({ REDIS_URL: `redis://:r3dis-Pa55@127.0.0.1:${port}/4`, QUESTLINE_QUIET: undefined, LOG_LEVEL: 'info', OUTBOUND_WEBHOOK_ALLOW_PRIVATE: undefined });
    try {
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      const lines = linesOf(server.output()).filter((l) => !l.startsWith('{"level":"info"'));
      expect(lines.filter((l) => /warning/i.test(l))).toEqual([
        `Questline: warning: the key-value store at REDIS_URL (127.0.0.1:${port}/4) is unreachable (connect ECONNREFUSED 127.0.0.1:${port}); serving anyway: ` +
          'events, claims and reads work, the token endpoint, new streams and staff sign-in answer 503 until it answers (docs/operations/README.md, "Redis outages")',
      ]);
      expect(lines.filter((l) => l.startsWith('{') || l.startsWith('[redis'))).toEqual([]);
      expect(server.output()).not.toContain('r3dis-Pa55');
    } finally {
      await server.stop('SIGKILL');
    }
  });
});

describe('start-up with OUTBOUND_WEBHOOK_ALLOW_PRIVATE=1', () => {
  it('serves, after one warning line saying outbound webhooks may reach private addresses (a start without it has none: above)', async () => {
    const server = await startServeProcess({ OUTBOUND_WEBHOOK_ALLOW_PRIVATE: '1', REDIS_URL: undefined, QUESTLINE_QUIET: undefined, QUESTLINE_TEST_CLOCK: undefined });
    try {
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      expect(linesOf(server.output()).filter((l) => /warning|PRIVATE/i.test(l))).toEqual([
        'Questline: warning: OUTBOUND_WEBHOOK_ALLOW_PRIVATE=1: outbound-webhook endpoints may point at loopback, private and link-local addresses ' +
          '(this machine, its network, cloud metadata); only for a game backend on a private network, and tests (docs/operations/README.md, "Outbound webhooks")',
      ]);
    } finally {
      await server.stop('SIGKILL');
    }
  });
});

describe('the generated secrets', () => {
  it('are printed by the start that makes them, once; a later start says where they are kept', async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'questline-once-')), 'data');
    // A copy of the migrated template database (a fresh one takes long on a loaded machine); the secrets are not in it.
    seedDataDir(dataDir, { ...process.env, DATABASE_URL: undefined });
    const env = { QUESTLINE_DATA_DIR: dataDir, DATABASE_URL: undefined, REDIS_URL: undefined, JWT_SECRET: undefined, ADMIN_API_KEY: undefined, QUESTLINE_QUIET: undefined };
    const first = await startServeProcess(env);
    await first.stop();
    const out1 = first.output();
    const demoSecret = /^Demo app: appId=demo appSecret=(qs_\S+) \(shown once, kept in (\S+)\)$/m.exec(out1);
    const adminKey = /^Admin API key \(generated, shown once, kept in (\S+)\): (\S+)$/m.exec(out1);
    const password = /^Console: sign in at \/admin as admin@localhost with password (\S+) \(generated, shown once, kept in (\S+)\)$/m.exec(out1);
    expect(demoSecret?.[2]).toBe(path.join(dataDir, 'demo-app-secret'));
    expect(adminKey?.[1]).toBe(path.join(dataDir, 'admin-api-key'));
    expect(password?.[2]).toBe(path.join(dataDir, 'admin-password'));
    expect(readdirSync(dataDir)).toEqual(expect.arrayContaining(['demo-app-secret', 'admin-api-key', 'admin-password']));

    const second = await startServeProcess(env);
    await second.stop();
    const out2 = second.output();
    for (const secret of [demoSecret![1], adminKey![2], password![1]]) expect(out2).not.toContain(secret);
    expect(out2).toContain(`Demo app: appId=demo (appSecret in ${path.join(dataDir, 'demo-app-secret')})`);
    expect(out2).toContain(`Admin API key: in ${path.join(dataDir, 'admin-api-key')}`);
    expect(out2).toContain(`Console: sign in at /admin (first admin admin@localhost, password in ${path.join(dataDir, 'admin-password')})`);
  }, 400_000);
});
