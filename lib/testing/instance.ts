// Test support: the service as a separate PROCESS (scripts/serve.ts) on the
// PostgreSQL and Redis of the environment, for tests that need two instances
// or a process that dies (kill -9) in the middle of a request.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from './processes';
import type { TestServer } from './test-server';

const INSTANCE_ADMIN_KEY = process.env.ADMIN_API_KEY ?? 'two-instances-admin-key-0123456789';
const JWT_SECRET = process.env.JWT_SECRET ?? 'two-instances-jwt-secret-0123456789abcdef';
const root = path.resolve(__dirname, '../..');

/** True when DATABASE_URL and REDIS_URL name shared stores (the embedded default is one process's). */
export const sharedStores = Boolean(process.env.DATABASE_URL?.trim() && process.env.REDIS_URL?.trim());

export interface Instance extends TestServer {
  child: ChildProcess;
  /** What the instance printed so far (its JSON log lines are on stderr); also passed on to this process's output. */
  output(): string;
}

/** `env` adds to (or overrides) this process's environment for the instance, e.g. a REDIS_URL through a fault proxy. */
export async function startInstance(name: string, env: Record<string, string> = {}): Promise<Instance> {
  const port = await freePort();
  // tsx as a loader in this very process (not its CLI, which runs the script in a child
  // process): a SIGKILL must reach the server itself.
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/serve.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), ADMIN_API_KEY: INSTANCE_ADMIN_KEY, JWT_SECRET, QUESTLINE_QUIET: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const [from, to] of [[child.stdout!, process.stdout], [child.stderr!, process.stderr]] as const) {
    from.setEncoding('utf8');
    from.on('data', (text: string) => {
      output += text;
      to.write(text);
    });
  }
  const url = `http://127.0.0.1:${port}`;
  // A bound for a hang, not for speed: at load 30 two instances starting together took over 60 s (run 3 of
  // docs/engineering/reliability.md, "Suite under load").
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`instance ${name} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/v1/openapi.json`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`instance ${name} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    adminKey: INSTANCE_ADMIN_KEY,
    child,
    output: () => output,
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
