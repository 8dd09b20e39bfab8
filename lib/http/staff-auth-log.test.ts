// What an anonymous request with a foreign Origin to Better Auth's routes
// leaves in the log: no error line (it is the client's doing, and anyone can
// send one on every request), at most one warn line per kind of refusal per
// minute and instance, the refusals between counted into the next line, and
// one `level` key per line (docs/security.md, "Staff sign-in"). Once in a
// real server process (Better Auth checks origins only outside NODE_ENV=test),
// once on the logger itself with the clock moved.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { logBetterAuth, REFUSAL_LOG_EVERY_MS } from '@/lib/auth/staff-auth';
import { startServeProcess, type ServeProcess } from '@/lib/testing/serve-process';

function jsonLines(output: string): Array<Record<string, unknown>> {
  return output.split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    expect(line.match(/"level":/g), line).toHaveLength(1);
    return [JSON.parse(line) as Record<string, unknown>];
  });
}

describe('a real server process, anonymous sign-ins with a foreign Origin', () => {
  let server: ServeProcess;
  beforeAll(async () => {
    server = await startServeProcess({ NODE_ENV: 'production', TEST: undefined, LOG_LEVEL: 'info' });
  }, 120_000);
  afterAll(async () => {
    await server?.stop('SIGKILL');
  });

  it('are refused (403) with no error line and one warn line for the burst', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${server.url}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { Origin: 'https://evil.example', 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: `nobody-${randomUUID()}@example.com`, password: 'not the password 1!' }),
      });
      expect(res.status).toBe(403);
    }
    // A marker request after the burst: once its access line is read, every line before it is too (one ordered stream).
    expect((await fetch(`${server.url}/api/health`, { headers: { 'X-Request-Id': 'req-after-the-burst' } })).status).toBe(200);
    await vi.waitFor(() => expect(server.output()).toContain('req-after-the-burst'), { timeout: 10_000, interval: 20 });
    const lines = jsonLines(server.output());
    expect(lines.filter((l) => l.level === 'error' || l.level === 'fatal')).toEqual([]);
    expect(lines.filter((l) => l.level === 'warn' && String(l.message).startsWith('staff auth'))).toEqual([
      expect.objectContaining({ message: 'staff auth: request refused by Better Auth', refusal: 'Invalid origin', detail: 'Invalid origin: https://evil.example' }),
    ]);
  });
});

describe('the Better Auth logger (in process)', () => {
  const lines: string[] = [];
  beforeAll(() => {
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')));
  });
  afterEach(() => vi.useRealTimers());
  afterAll(() => vi.restoreAllMocks());

  it('turns a refusal into a warning at most once a minute per kind, counting the ones it did not log', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // Past any earlier refusal's minute in this process.
    vi.setSystemTime(Date.now() + REFUSAL_LOG_EVERY_MS + 1);
    const from = lines.length;
    for (let i = 0; i < 4; i++) logBetterAuth('error', `Invalid origin: https://evil-${i}.example`);
    logBetterAuth('error', 'Invalid callbackURL: https://evil.example/cb');
    vi.setSystemTime(Date.now() + REFUSAL_LOG_EVERY_MS - 1);
    logBetterAuth('error', 'Invalid origin: https://evil-4.example');
    vi.setSystemTime(Date.now() + 2);
    logBetterAuth('error', 'Invalid origin: https://evil-5.example');
    expect(jsonLines(lines.slice(from).join('\n')).map((l) => [l.level, l.refusal, l.detail, l.unloggedSinceLast])).toEqual([
      ['warn', 'Invalid origin', 'Invalid origin: https://evil-0.example', undefined],
      ['warn', 'Invalid callbackURL', 'Invalid callbackURL: https://evil.example/cb', undefined],
      ['warn', 'Invalid origin', 'Invalid origin: https://evil-5.example', 4],
    ]);
  });

  it('keeps a real failure an error, and a warning one warn line with one level', () => {
    const from = lines.length;
    logBetterAuth('error', 'Failed to create session', new Error('connection refused'));
    logBetterAuth('warn', 'Social provider misconfigured');
    expect(jsonLines(lines.slice(from).join('\n')).map((l) => [l.level, l.message])).toEqual([
      ['error', 'staff auth: Failed to create session'],
      ['warn', 'staff auth: Social provider misconfigured'],
    ]);
  });
});
