// What reaches a log line: the record as given, minus every secret.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { logError, logLevel, logWarn, REDACTED, redact, redactText } from './log';

afterEach(() => vi.restoreAllMocks());

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.c2lnbmF0dXJl';

describe('redaction', () => {
  it('replaces secret query parameters, also when the name is percent-encoded, and keeps the rest', () => {
    expect(redactText('/v1/sse/updates?access_token=abc.def&lastEventId=5')).toBe(`/v1/sse/updates?access_token=${REDACTED}&lastEventId=5`);
    expect(redactText('GET http://h/x?a=1&access%5Ftoken=zzz')).toBe(`GET http://h/x?a=1&access%5Ftoken=${REDACTED}`);
    expect(redactText('/cb?code=123&state=ok&api_key=k')).toBe(`/cb?code=${REDACTED}&state=ok&api_key=${REDACTED}`);
  });

  it('replaces bearer and basic credentials and any JWT inside a string', () => {
    expect(redactText('Authorization: Bearer abc.def-ghi')).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(redactText('basic dXNlcjpwYXNz')).toBe(`basic ${REDACTED}`);
    expect(redactText(`token was ${JWT} here`)).toBe(`token was ${REDACTED} here`);
  });

  it('replaces fields named like secrets (headers, cookies, passwords, keys), at any depth', () => {
    const out = redact({
      headers: { authorization: 'Bearer x', cookie: 'questline.session_token=s', 'x-request-id': 'r1' },
      body: { appSecret: 'qs_1', password: 'p', webhookSecret: 'w', nested: [{ apiKey: 'k', ok: 1 }] },
      url: `/v1/sse/updates?access_token=${JWT}`,
    });
    expect(out).toEqual({
      headers: { authorization: REDACTED, cookie: REDACTED, 'x-request-id': 'r1' },
      body: { appSecret: REDACTED, password: REDACTED, webhookSecret: REDACTED, nested: [{ apiKey: REDACTED, ok: 1 }] },
      url: `/v1/sse/updates?access_token=${REDACTED}`,
    });
  });

  it('logError and logWarn write one JSON line with level, time and message, redacted', () => {
    const lines: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void lines.push(String(line)));
    logError(`failed for ?access_token=${JWT}`, new Error(`upstream said Bearer ${JWT}`), { url: `/x?access_token=${JWT}`, authorization: 'Bearer y' });
    logWarn('absorbed', { cookie: 'c=1', reason: 'timeout' });
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).not.toContain(JWT);
    const first = JSON.parse(lines[0]) as Record<string, unknown>;
    expect(first).toMatchObject({
      level: 'error',
      message: `failed for ?access_token=${REDACTED}`,
      url: `/x?access_token=${REDACTED}`,
      authorization: REDACTED,
      error: `upstream said Bearer ${REDACTED}`,
    });
    expect(typeof first.at).toBe('string');
    expect(JSON.parse(lines[1])).toMatchObject({ level: 'warn', message: 'absorbed', cookie: REDACTED, reason: 'timeout' });
  });

  it("logError names what an error wraps, with codes (a driver's error behind a query error), redacted", () => {
    const lines: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void lines.push(String(line)));
    const driver = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    const socket = Object.assign(new Error(`reset while sending Bearer ${JWT}`), { code: 'ECONNRESET' });
    logError('request failed', new Error('Failed query: update user_sequences …', { cause: Object.assign(driver, { cause: socket }) }));
    logError('plain', Object.assign(new Error('no cause'), { code: 'E1' }));
    const query = new Error(`Failed query: insert into events …\nparams: ${'x'.repeat(5_000)}`);
    logError('wrapped query', new Error('outer', { cause: query }));
    logError('long', new Error('outer', { cause: new Error('y'.repeat(1_000)) }));
    expect(lines).toHaveLength(4);
    expect(lines[0]).not.toContain(JWT);
    const first = JSON.parse(lines[0]) as Record<string, unknown>;
    expect(first).toMatchObject({ error: 'Failed query: update user_sequences …' });
    expect(first.code).toBeUndefined();
    expect(first.causes).toEqual([
      { error: 'deadlock detected', code: '40P01' },
      { error: `reset while sending Bearer ${REDACTED}`, code: 'ECONNRESET' },
    ]);
    const second = JSON.parse(lines[1]) as Record<string, unknown>;
    expect(second).toMatchObject({ error: 'no cause', code: 'E1' });
    expect(second.causes).toBeUndefined();
    // A wrapped query error is cut before its parameters, any wrapped message at 300 characters.
    expect((JSON.parse(lines[2]) as { causes: unknown }).causes).toEqual([{ error: 'Failed query: insert into events …' }]);
    expect((JSON.parse(lines[3]) as { causes: unknown }).causes).toEqual([{ error: `${'y'.repeat(300)}…` }]);
  });

  it('LOG_LEVEL chooses the level; the quiet test mode defaults to warn', () => {
    expect(logLevel({ LOG_LEVEL: 'debug' })).toBe('debug');
    expect(logLevel({ LOG_LEVEL: 'ERROR' })).toBe('error');
    expect(logLevel({})).toBe('info');
    expect(logLevel({ QUESTLINE_QUIET: '1' })).toBe('warn');
    expect(logLevel({ QUESTLINE_QUIET: '1', LOG_LEVEL: 'info' })).toBe('info');
  });
});
