// An outage told in two lines per place (lib/log-outage.ts): the first
// failure with its cause, then nothing per repeat, then one line with the
// count at the first success; the next failure opens a new outage.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => vi.restoreAllMocks());

/** The log lines written (pino JSON through console.error) since the spy was set. */
function lines(logged: { mock: { calls: unknown[][] } }): Array<Record<string, unknown>> {
  return logged.mock.calls.map((c) => JSON.parse(String(c[0])) as Record<string, unknown>);
}

describe('outageLog', () => {
  it('one error line with the cause when failures begin, none per repeat, one warn line with the count when it works again', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { outageLog } = await import('./log-outage');
    const place = outageLog(`test-${randomUUID()}`, 'test publish');
    place.recovered(); // no outage: nothing to say
    const refused = new Error('connect ECONNREFUSED 127.0.0.1:6379');
    place.failed(new Error('Redis unavailable (circuit open)', { cause: refused }), { appId: 'a1' });
    place.failed(refused, { appId: 'a2' });
    place.failed(refused, { appId: 'a3' });
    expect(lines(logged)).toEqual([
      expect.objectContaining({
        level: 'error',
        message: expect.stringMatching(/^test publish failing/),
        appId: 'a1',
        error: 'Redis unavailable (circuit open)',
        cause: 'Redis unavailable (circuit open) <- connect ECONNREFUSED 127.0.0.1:6379',
      }),
    ]);
    expect(lines(logged)[0].causes).toBeUndefined(); // the chain is told once, in `cause`
    place.recovered({ appId: 'a3' });
    place.recovered();
    expect(lines(logged).slice(1)).toEqual([expect.objectContaining({ level: 'warn', message: 'test publish works again', appId: 'a3', failures: 3 })]);
    expect(lines(logged)[1].failingForMs).toBeGreaterThanOrEqual(0);

    place.failed(refused);
    expect(lines(logged)).toHaveLength(3);
    expect(lines(logged)[2]).toMatchObject({ level: 'error', cause: 'connect ECONNREFUSED 127.0.0.1:6379' });
  });

  it('names a cause that is not an error (a string) at the end of the chain', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { outageLog } = await import('./log-outage');
    outageLog(`test-${randomUUID()}`, 'test poll').failed(new Error('poll failed', { cause: new Error('query failed', { cause: 'ECONNREFUSED' }) }));
    expect(lines(logged)[0]).toMatchObject({ level: 'error', cause: 'poll failed <- query failed <- ECONNREFUSED' });
  });

  it('is one outage whichever copy of the module (Next.js chunk) meets it', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const name = `test-${randomUUID()}`;
    vi.resetModules();
    const route = await import('./log-outage');
    vi.resetModules();
    const other = await import('./log-outage');
    expect(other.outageLog).not.toBe(route.outageLog);
    route.outageLog(name, 'test sign-in').failed(new Error('Command timed out'));
    other.outageLog(name, 'test sign-in').failed(new Error('Command timed out'));
    other.outageLog(name, 'test sign-in').recovered();
    expect(lines(logged).map((l) => [l.level, l.failures])).toEqual([
      ['error', undefined],
      ['warn', 2],
    ]);
  });
});
