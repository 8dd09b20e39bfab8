// The quickstart's runnable blocks (```sh runnable in docs/quickstart.md), run
// as written against a server started here on a fresh embedded data directory
// (real HTTP, scripts/serve.ts). They run in order in one bash with
// `set -euo pipefail`, from a directory whose `.data` is the server's, with
// the quickstart's `localhost:3000` pointed at the server and `curl` failing
// on an HTTP error (--fail-with-body), so a command that stops working fails
// the test; each `# {…}` answer a block shows must be a line of the output.
// The quickstart is about the embedded default, so it runs on it on either
// backend of the suite.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedAnswers, fences, RUNNABLE } from '@/lib/testing/markdown';
import { seedDataDir } from '@/lib/testing/pglite-template';
import { startServeProcess, type ServeProcess } from '@/lib/testing/serve-process';

const quickstart = readFileSync(path.resolve(__dirname, 'quickstart.md'), 'utf8');
const blocks = fences(quickstart).filter((f) => RUNNABLE.test(f.info)).map((f) => f.text);

/** The blocks as one bash script against `origin` (host:port), from `cwd`: its exit code and output. */
function run(script: string[], origin: string, cwd: string): { status: number | null; stdout: string; stderr: string } {
  const text = [
    'set -euo pipefail',
    // `set -e` inside $(…) too: a failed command in a substitution stops the script, not only the substitution.
    'shopt -s inherit_errexit',
    // Each answer on a line of its own; an HTTP error fails the command (its body is still printed).
    'curl() { command curl --fail-with-body "$@" && echo; }',
    ...script.map((block, i) => `echo "## block ${i + 1}" >&2\n${block.replaceAll('localhost:3000', origin)}`),
  ].join('\n');
  const result = spawnSync('bash', ['-c', text], { cwd, encoding: 'utf8', timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('docs/quickstart.md, its runnable blocks run as written', () => {
  let server: ServeProcess;
  let work: string;

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'questline-quickstart-'));
    const dataDir = path.join(work, '.data');
    // The embedded default, whatever the suite's backend: no database, Redis or secrets from the environment.
    const embedded = {
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
      UPSTASH_REDIS_REST_URL: undefined,
      UPSTASH_REDIS_REST_TOKEN: undefined,
      JWT_SECRET: undefined,
      ADMIN_API_KEY: undefined,
      OPENAI_API_KEY: undefined,
      QUESTLINE_DATA_DIR: dataDir,
    };
    seedDataDir(dataDir, { ...process.env, DATABASE_URL: undefined });
    server = await startServeProcess(embedded);
  }, 120_000);

  afterAll(async () => {
    // Nothing here is about shutdown: no drain to wait for.
    await server?.stop('SIGKILL');
  });

  it('has runnable blocks, each promising answers', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    expect(blocks.flatMap(expectedAnswers).length).toBeGreaterThanOrEqual(4);
  });

  it('runs every runnable block, in order, and prints the answers they show', () => {
    const result = run(blocks, `127.0.0.1:${server.port}`, work);
    expect(result.status, `${result.stderr}\n${result.stdout}`).toBe(0);
    for (const answer of blocks.flatMap(expectedAnswers)) expect(result.stdout, result.stderr).toMatch(answer);
  }, 150_000);

  it('fails when a command of a block fails (here: a path the service does not have)', () => {
    const broken = blocks[0].replace('/v1/auth/token', '/v1/auth/no-such-route');
    expect(broken).not.toBe(blocks[0]);
    const result = run([broken], `127.0.0.1:${server.port}`, work);
    expect(result.status).not.toBe(0);
    // It stopped at the token request: nothing after it ran.
    expect(result.stdout).toBe('');
    expect(result.stdout + result.stderr).not.toContain('accepted');
  }, 60_000);
});
