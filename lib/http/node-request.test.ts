// The Node server's light request (lib/http/node-request.ts) answers the
// members the handlers use as a web Request over the same headers and body does.
import { describe, expect, it } from 'vitest';
import { NodeRequest, bufferedBody } from './node-request';
import { readJsonBody, readRawBytes } from './body';

const record = {
  host: 'example.test',
  'content-type': 'application/json',
  'x-request-id': 'abcdefgh-1',
  'set-cookie': ['a=1', 'b=2'],
  cookie: 'one=1; two=2',
};
const never = () => new AbortController().signal;

function light(body: Buffer | null, method = 'POST'): Request {
  return new NodeRequest(method, 'http://example.test/v1/events?x=1', record, body, never) as unknown as Request;
}

describe('NodeRequest', () => {
  it('reads headers as web Headers do: any case, null when absent, set-cookie joined by get and apart by getSetCookie', () => {
    const req = light(null, 'GET');
    const web = new Headers();
    for (const [name, value] of Object.entries(record)) (Array.isArray(value) ? value : [value]).forEach((v) => web.append(name, v));
    for (const name of ['Host', 'content-type', 'X-Request-Id', 'cookie', 'set-cookie', 'authorization']) {
      expect(req.headers.get(name)).toBe(web.get(name));
      expect(req.headers.has(name)).toBe(web.has(name));
    }
    expect(req.headers.getSetCookie()).toEqual(web.getSetCookie());
    expect([...req.headers]).toEqual([...web]);
    const seen: [string, string][] = [];
    req.headers.forEach((value, name) => seen.push([name, value]));
    expect(seen).toEqual([...web]);
  });

  it('copies into web Headers with new Headers(…)', () => {
    const copy = new Headers(light(null, 'GET').headers);
    expect(copy.get('cookie')).toBe('one=1; two=2');
    expect(copy.getSetCookie()).toEqual(['a=1', 'b=2']);
  });

  it('has no body for GET; a body stream built only when read, with the bytes', async () => {
    expect(light(null, 'GET').body).toBeNull();
    const req = light(Buffer.from('{"a":1}'));
    expect(await new Response(req.body).text()).toBe('{"a":1}');
    expect(req.bodyUsed).toBe(true);
  });

  it('hands its bytes to readRawBytes without a stream, once, and still refuses more than the cap', async () => {
    const bytes = Buffer.from('{"a":"é"}');
    const req = light(bytes);
    expect(await readRawBytes(req)).toBe(bytes);
    await expect(readRawBytes(req)).rejects.toThrow(TypeError);
    await expect(readRawBytes(light(Buffer.alloc(100)), 10)).rejects.toMatchObject({ code: 'payload_too_large' });
    expect((await readJsonBody(light(bytes))).value).toEqual({ a: 'é' });
    expect(bufferedBody(new Request('http://x/', { method: 'POST', body: 'x' }))).toBeUndefined();
  });

  it('answers text() and json() as a web Request (a byte-order mark skipped)', async () => {
    expect(await light(Buffer.from('\uFEFF{"a":[1]}')).json()).toEqual({ a: [1] });
    expect(await light(Buffer.from('hé')).text()).toBe('hé');
  });
});
