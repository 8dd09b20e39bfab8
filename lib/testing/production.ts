// Test support: the production build started the way `npm start` starts it
// (node scripts/start.mjs), or as `next start` (the route files). The suites
// reuse the one build `npm test` makes first; run on their own without a
// fresh build they are skipped with the reason (with QUESTLINE_REQUIRE_BUILD=1,
// as npm test sets it, they fail instead).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'vitest';
import { isBuildStale } from '../../scripts/build-server.mjs';
import { seedDataDir } from './pglite-template';
import { freePort } from './processes';

const ROOT = path.resolve(__dirname, '../..');

/** describe() for suites that need the production build. */
export function describeWithBuild(title: string, body: () => void): void {
  if (!isBuildStale()) describe(title, body);
  else if (process.env.QUESTLINE_REQUIRE_BUILD === '1') {
    describe(title, () => {
      it('needs the production build (QUESTLINE_REQUIRE_BUILD is set, so this fails rather than skips)', () => {
        throw new Error('No fresh production build: run `node scripts/start.mjs --build-only` (npm test does)');
      });
    });
  } else describe.skip(`${title} — skipped: no fresh production build (run \`node scripts/start.mjs --build-only\`)`, body);
}

export interface Instance {
  url: string;
  child: ChildProcess;
  /** Everything the process printed (stdout and stderr). */
  output(): string;
  exited: Promise<number | null>;
  /** Sends the signal and answers the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface StartOptions {
  /** Added to (or, when undefined, removed from) the environment of this test process. */
  env?: Record<string, string | undefined>;
  /** Serve with `next start` (the route files) instead of the custom server. */
  nextStart?: boolean;
  /** Wait until it serves (default true). */
  wait?: boolean;
  /** In a process group of its own (its pid is the group's id), so a test can signal the whole group. */
  detached?: boolean;
}

/** `node scripts/start.mjs` on a free port with a fresh data directory unless one is given. */
export async function startProduction(options: StartOptions = {}): Promise<Instance> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    QUESTLINE_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'questline-prod-')),
  };
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const args = [path.join(ROOT, 'scripts', 'start.mjs'), ...(options.nextStart ? ['--next-start'] : [])];
  if (!('QUESTLINE_DATA_DIR' in (options.env ?? {})) && env.QUESTLINE_DATA_DIR) seedDataDir(env.QUESTLINE_DATA_DIR, env);
  // `--next-start` runs `next start` as a child of start.mjs: in a group of their own, so that stop() (a SIGKILL
  // too, which start.mjs cannot pass on) reaches both; otherwise the `next start` server outlived every run.
  const group = options.detached === true || options.nextStart === true;
  const child = spawn(process.execPath, args, { cwd: ROOT, env, detached: group });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const instance: Instance = {
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (options.nextStart) {
        try {
          process.kill(-child.pid!, signal);
        } catch {
          // the group is gone already
        }
      } else if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  if (options.wait !== false) await serving(instance);
  return instance;
}

async function serving(instance: Instance): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (instance.child.exitCode !== null) throw new Error(`server exited with ${instance.child.exitCode}:\n${instance.output()}`);
    if (await fetch(`${instance.url}/v1/openapi.json`).then((r) => r.ok, () => false)) return;
    if (Date.now() > deadline) throw new Error(`server did not start:\n${instance.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
