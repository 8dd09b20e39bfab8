// The SDK's typed errors follow the service's error table (generated into
// contract-types.ts): every code has its class, and unknown codes fall back
// on the generic class of their status.
import { describe, expect, it } from 'vitest';
import { ERRORS } from '@/lib/contract/errors';
import { ERROR_STATUS } from './contract-types';
import { errorFromResponse, NotFoundError, QuestlineError, RateLimitedError, ServiceUnavailableError, ValidationError } from './errors';

const respond = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'X-Request-Id': 'req-1' } });

describe('errorFromResponse', () => {
  it('knows the same codes and statuses as the service', () => {
    expect(ERROR_STATUS).toEqual(Object.fromEntries(Object.entries(ERRORS).map(([code, e]) => [code, e.status])));
  });

  it.each(Object.entries(ERROR_STATUS))('%s (%i) becomes its own subclass with code, status and request id', async (code, status) => {
    const err = await errorFromResponse(respond(status, { error: code, message: 'm', retryAfterMs: 5 }));
    expect(err).toBeInstanceOf(QuestlineError);
    expect(err.constructor).not.toBe(QuestlineError);
    expect(err).toMatchObject({ code, status, message: 'm', requestId: 'req-1' });
  });

  it('gives an unknown code the generic class of its status, and gateways’ 502/504 ServiceUnavailableError', async () => {
    expect(await errorFromResponse(respond(404, { error: 'gadget_not_found' }))).toBeInstanceOf(NotFoundError);
    expect(await errorFromResponse(respond(400, { error: 'toString' }))).toBeInstanceOf(ValidationError);
    expect(await errorFromResponse(new Response('<html>bad gateway</html>', { status: 502 }))).toBeInstanceOf(ServiceUnavailableError);
    expect(await errorFromResponse(respond(429, { error: 'too_many_streams' }))).toBeInstanceOf(RateLimitedError);
    const plain = await errorFromResponse(respond(418, { error: 'teapot' }));
    expect(plain.constructor).toBe(QuestlineError);
  });
});
