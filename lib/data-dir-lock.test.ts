// One process per embedded data directory: the lock file, its take-over when
// the holder died, and two real server processes on one directory.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, LOCK_FILE, lockDataDir } from './data-dir-lock';
import { seedDataDir } from '@/lib/testing/pglite-template';
import { freePort } from '@/lib/testing/processes';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'questline-lock-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The pid of a process that has exited (pids are not reused that fast). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
  return Number(child.stdout.trim());
}

const mode = (file: string) => statSync(file).mode & 0o777;

describe('lockDataDir', () => {
  let sleeper: ChildProcess | null = null;
  afterEach(() => {
    sleeper?.kill();
    sleeper = null;
  });

  it('creates the directory 0700 and a lock file 0600 holding this pid; release removes it', () => {
    const dir = path.join(tempDir(), 'nested', 'data');
    const release = lockDataDir(dir);
    const lock = path.join(dir, LOCK_FILE);
    expect(readFileSync(lock, 'utf8').trim()).toBe(String(process.pid));
    expect(mode(dir)).toBe(0o700);
    expect(mode(lock)).toBe(0o600);
    // Taking it again in the same process is fine (a reopened database).
    lockDataDir(dir)();
    release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses while a living process holds it, naming the directory and that pid', () => {
    const dir = tempDir();
    sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    writeFileSync(path.join(dir, LOCK_FILE), `${sleeper.pid}\n`);
    let error: unknown;
    try {
      lockDataDir(dir);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DataDirInUseError);
    expect((error as Error).message).toContain(dir);
    expect((error as Error).message).toContain(`process ${sleeper.pid}`);
    expect((error as Error).message).not.toContain('\n');
    // The holder's lock is untouched.
    expect(readFileSync(path.join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(sleeper.pid));
  });

  it('takes over a lock left by a process that died, or a lock file that holds no pid', () => {
    for (const content of [`${deadPid()}\n`, 'garbage', '']) {
      const dir = tempDir();
      writeFileSync(path.join(dir, LOCK_FILE), content);
      const release = lockDataDir(dir);
      expect(readFileSync(path.join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
      release();
    }
  });
});

const root = path.resolve(__dirname, '..');
const ADMIN_KEY = 'lock-test-admin-key-0123456789';

interface Served {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** scripts/serve.ts on the embedded default (never the suite's PostgreSQL: the lock is the embedded database's). */
async function serve(dataDir: string): Promise<Served> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), QUESTLINE_DATA_DIR: dataDir, ADMIN_API_KEY: ADMIN_KEY, QUESTLINE_QUIET: '1' };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'UPSTASH_REDIS_REST_URL', 'UPSTASH_REDIS_REST_TOKEN', 'JWT_SECRET']) delete env[name];
  // A copy of the run's migrated template database (lib/testing/pglite-template.ts) unless one is there:
  // a fresh PGlite directory's initdb alone took minutes at load 30.
  seedDataDir(dataDir, env);
  // node --import tsx (not the tsx CLI, which runs the script in a child): the pid is the server's own.
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/serve.ts'], { cwd: root, env });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, url: `http://127.0.0.1:${port}`, output: () => output, exited };
}

async function ready(s: Served): Promise<void> {
  // A fresh embedded database's start and migrations took over 60 s with the load average at 20-30 (run 3
  // of docs/engineering/reliability.md, "Suite under load"): a bound for a hang, not for speed.
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (s.child.exitCode !== null) throw new Error(`server exited ${s.child.exitCode}: ${s.output()}`);
    if (await fetch(`${s.url}/v1/openapi.json`).then((r) => r.ok, () => false)) return;
    if (Date.now() > deadline) throw new Error(`server did not start: ${s.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const adminCall = (s: Served, method: string, route: string, body?: unknown) =>
  fetch(s.url + route, {
    method,
    headers: { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('two server processes on one embedded data directory', () => {
  const running: Served[] = [];
  afterAll(() => running.forEach((s) => s.child.kill('SIGKILL')));

  it('the second is refused with one line naming the directory and the holder; the first keeps serving; a restart finds all data; files are owner-only', async () => {
    const dataDir = path.join(tempDir(), 'data');
    const first = await serve(dataDir);
    running.push(first);
    await ready(first);
    expect((await adminCall(first, 'POST', '/api/admin/apps', { id: 'before', name: 'Before' })).status).toBe(201);

    const second = await serve(dataDir);
    running.push(second);
    expect(await second.exited).toBe(1);
    const lines = second.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(dataDir);
    expect(lines[0]).toContain(`process ${first.child.pid}`);

    // The first is unharmed: it reads what it wrote before and writes more.
    expect((await adminCall(first, 'POST', '/api/admin/apps', { id: 'after', name: 'After' })).status).toBe(201);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const files: string[] = [];
    const walk = (d: string): void => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const full = path.join(d, e.name);
        if (e.isDirectory()) {
          expect(mode(full), full).toBe(0o700);
          walk(full);
        } else files.push(full);
      }
    };
    expect(mode(dataDir)).toBe(0o700);
    walk(dataDir);
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((f) => mode(f) !== 0o600)).toEqual([]);
    expect(files.map((f) => path.basename(f))).not.toContain(LOCK_FILE);

    const restarted = await serve(dataDir);
    running.push(restarted);
    await ready(restarted);
    const { apps } = (await (await adminCall(restarted, 'GET', '/api/admin/apps')).json()) as { apps: { id: string }[] };
    expect(apps.map((a) => a.id)).toEqual(expect.arrayContaining(['before', 'after', 'demo']));
    restarted.child.kill('SIGTERM');
    expect(await restarted.exited).toBe(0);
  }, 600_000); // three server starts on a loaded two-core machine
});
