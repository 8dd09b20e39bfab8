// Staff sign-in (Better Auth, the console) with Redis down and stalled: a
// redis-server of the test's own behind a TCP proxy, the machine's
// PostgreSQL. What Redis does there is the failed-sign-in limit only
// (sessions, accounts and password hashes are in PostgreSQL; Better Auth has
// no secondary storage and its own rate limit is off), and that limit fails
// closed (docs/operations/README.md, "Redis outages"): a sign-in answers 503
// `unavailable` promptly, right or wrong password alike, while sessions
// already open keep working from the database; once Redis is back sign-in
// works again without a restart. The log tells each outage in two lines (one
// when sign-in starts failing, with the cause; one when it works again, with
// the count), not one per refused attempt.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sharedStores } from '@/lib/testing/instance';
import { REDIS_FAILURE_CAUSE, redisBehindProxy, waitUntil, type FaultProxy, type RedisProcess } from '@/lib/testing/faults';
import type { TestServer } from '@/lib/testing/test-server';

/** As the other fault suites: a loaded machine answers a healthy command well within it. */
const COMMAND_TIMEOUT_MS = 3_000;
/** A bound for a hang on a loaded machine, not for speed (the answer takes about one command timeout). */
const HANG_MS = 30_000;

function suite() {
  let redis: RedisProcess;
  let proxy: FaultProxy;
  let server: TestServer;
  let staffHelpers: typeof import('@/lib/testing/staff');
  const figures: Record<string, number> = {};

  beforeAll(async () => {
    ({ redis, proxy } = await redisBehindProxy({ commandTimeoutMs: COMMAND_TIMEOUT_MS }));
    const { startTestServer } = await import('@/lib/testing/test-server');
    staffHelpers = await import('@/lib/testing/staff');
    server = await startTestServer();
  });

  afterAll(async () => {
    vi.restoreAllMocks();
    await server?.close();
    await proxy?.close();
    await redis?.close();
    console.log(`[staff-faults] ${JSON.stringify(figures)}`);
  });

  /** 503 answers since the count was last reset (each is one failure the log should count, not print). */
  let refusals = 0;

  /** Sign-in through the real handler; fails the test on a hang. */
  async function signInAnswer(email: string, password: string): Promise<{ status: number; text: string; ms: number }> {
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const hung = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`sign-in hung for ${HANG_MS} ms`)), HANG_MS);
    });
    try {
      const res = await Promise.race([staffHelpers.signInRequest(server, email, password), hung]);
      if (res.status === 503) refusals += 1;
      return { status: res.status, text: await res.text(), ms: Date.now() - started };
    } finally {
      clearTimeout(timer);
    }
  }

  function expectUnavailable(answer: { status: number; text: string }): void {
    expect(answer.status, answer.text).toBe(503);
    const body = JSON.parse(answer.text) as Record<string, unknown>;
    expect(body.error).toBe('unavailable');
    // A clear error, not a stack or a driver's message.
    expect(answer.text).not.toMatch(/ECONNREFUSED|timed out|at \w+ \(|\.ts:\d+/);
  }

  /** The server's log lines (pino JSON through console.error, in this process) whose message starts with `start`. */
  function logLines(logged: { mock: { calls: unknown[][] } }, start: string): Array<Record<string, unknown>> {
    return logged.mock.calls
      .map((c) => String(c[0]))
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => typeof l.message === 'string' && l.message.startsWith(start));
  }

  /** The log of one outage: one error line with the cause, no line per refused attempt, one line once sign-in works. */
  function expectOneOutage(logged: { mock: { calls: unknown[][] } }, cause: RegExp, failures: number): void {
    const began = logLines(logged, 'staff sign-in failing');
    expect(began, 'one line when sign-in starts failing').toHaveLength(1);
    expect(began[0]).toMatchObject({ level: 'error', url: expect.stringContaining('/sign-in/email') });
    expect(String(began[0].cause)).toMatch(cause);
    expect(logLines(logged, 'staff auth failure'), 'no line per refused attempt').toEqual([]);
    const ended = logLines(logged, 'staff sign-in works again');
    expect(ended, 'one line when sign-in works again').toHaveLength(1);
    expect(ended[0]).toMatchObject({ level: 'warn', failures });
    expect(ended[0].failingForMs).toBeGreaterThan(0);
  }

  it('Redis killed, then stalled: sign-in answers 503 unavailable promptly (fail-closed), open sessions work from the database, sign-in recovers', async () => {
    const member = await staffHelpers.signedInStaff(server, 'admin');
    const whoAmI = () => staffHelpers.asStaff(server, member.cookie, 'GET', '/api/admin/apps');
    // Passed through to the console as before, and recorded.
    const logged = vi.spyOn(console, 'error');
    refusals = 0;

    await redis.stop();
    // Right and wrong password alike: the 503 tells an attacker nothing.
    const right = await signInAnswer(member.email, member.password);
    expectUnavailable(right);
    expectUnavailable(await signInAnswer(member.email, 'wrong password, guessed'));
    // Attempts go on while Redis is away (a console user retrying): each is refused, none is logged.
    for (let i = 0; i < 3; i++) expectUnavailable(await signInAnswer(member.email, member.password));
    figures.downSignInMs = right.ms;
    // The session opened before the outage is read from PostgreSQL.
    expect((await whoAmI()).status).toBe(200);
    // The staff session endpoint of Better Auth does not touch Redis either.
    const { handleStaffAuth } = await import('@/lib/http/staff-auth-handler');
    const session = await handleStaffAuth(new Request(`${server.url}/api/auth/get-session`, { headers: { Cookie: member.cookie, Origin: server.url } }));
    expect(session.status).toBe(200);
    expect(((await session.json()) as { user?: { email?: string } }).user?.email).toBe(member.email);

    await redis.start();
    let back = Date.now();
    await waitUntil(async () => (await signInAnswer(member.email, member.password)).status === 200, 'sign-in to work again', 60_000);
    figures.signInBackMs = Date.now() - back;
    expectOneOutage(logged, REDIS_FAILURE_CAUSE, refusals);
    figures.killedRefusals = refusals;

    // Redis answering nothing (a hung server): bounded by the command timeout, not a hang.
    logged.mockClear();
    refusals = 0;
    proxy.mode = 'stall';
    const stalled = await signInAnswer(member.email, member.password);
    expectUnavailable(stalled);
    figures.stalledSignInMs = stalled.ms;
    expect((await whoAmI()).status).toBe(200);

    proxy.mode = 'pass';
    back = Date.now();
    await waitUntil(async () => (await signInAnswer(member.email, member.password)).status === 200, 'sign-in to work again after the stall', 60_000);
    figures.signInBackAfterStallMs = Date.now() - back;
    expectOneOutage(logged, REDIS_FAILURE_CAUSE, refusals);
    // The failure limit counts again: a wrong password is a 401, not a 503.
    // Waited on with a bound: one answer may still meet the tail of the stall (a 503) on a loaded machine.
    await waitUntil(async () => (await signInAnswer(member.email, 'wrong password again')).status === 401, 'a wrong password to answer 401', 60_000);
  }, 180_000);
}

if (sharedStores) {
  describe('Staff sign-in with Redis down (own redis-server behind a TCP proxy, real PostgreSQL)', suite);
} else {
  describe.skip('Staff sign-in faults — skipped: set DATABASE_URL and REDIS_URL (the PostgreSQL + Redis pass starts its own redis-server)', suite);
}
