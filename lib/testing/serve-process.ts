// Test support: scripts/serve.ts (the route table on a plain Node server, no
// build needed) as a child process of its own, its output kept, for tests of
// signals, shutdown and what the process logs.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seedDataDir } from './pglite-template';
import { freePort } from './processes';

const root = path.resolve(__dirname, '../..');
export const SERVE_ADMIN_KEY = 'serve-process-admin-key-0123456789';

export interface ServeProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything printed so far (stdout and stderr). */
  output(): string;
  exited: Promise<number | null>;
  /** Sends the signal (when still running) and answers the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts scripts/serve.ts on a free port (a fresh embedded data directory unless DATABASE_URL is set) and waits for /api/health. */
export async function startServeProcess(env: Record<string, string | undefined> = {}): Promise<ServeProcess> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    ADMIN_API_KEY: SERVE_ADMIN_KEY,
    JWT_SECRET: process.env.JWT_SECRET ?? 'serve-process-jwt-secret-0123456789abcdef',
    QUESTLINE_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'questline-serve-')),
    QUESTLINE_QUIET: '1',
  };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete childEnv[name];
    else childEnv[name] = value;
  }
  if (env.QUESTLINE_DATA_DIR === undefined && childEnv.QUESTLINE_DATA_DIR) seedDataDir(childEnv.QUESTLINE_DATA_DIR, childEnv);
  // tsx as a loader of this very process (not its CLI, which would put the server in a grandchild): signals reach the server.
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/serve.ts'], { cwd: root, env: childEnv });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  // After the process ended and its output was read to the end ('close'), or 2 s after its
  // exit if something it started still holds its output open.
  const exited = new Promise<number | null>((resolve) => {
    child.once('close', (code) => resolve(code));
    child.once('exit', (code) => setTimeout(() => resolve(code), 2_000).unref());
  });
  const url = `http://127.0.0.1:${port}`;
  const instance: ServeProcess = {
    url,
    port,
    child,
    output: () => output,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`scripts/serve.ts exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return instance;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await instance.stop('SIGKILL');
      throw new Error(`scripts/serve.ts did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Resolves once a new connection to the port is refused (the listening socket is closed). */
export async function untilRefused(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) });
    } catch (err) {
      const code = (err as { cause?: { code?: string } }).cause?.code;
      if (code === 'ECONNREFUSED' || code === 'ECONNRESET') return;
    }
    if (Date.now() > deadline) throw new Error(`${url} still accepts connections`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
