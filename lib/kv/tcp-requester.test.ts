// The TCP requester must give @upstash/redis the replies it would get from
// the Upstash REST API, including for batches and Upstash-flavoured scripts.
import { createHash } from 'node:crypto';
import type { Redis } from '@upstash/redis';
import { Redis as IORedis } from 'ioredis';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createRawRedis } from './clients';
import { TcpRequester } from './tcp-requester';
import { deleteKeysWithPrefix, describeWithRedis, redisReachable, runPrefix, testRedisUrl } from './testing';

const redisUp = await redisReachable();
const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');

describeWithRedis(`TcpRequester (${testRedisUrl})`, redisUp, () => {
  let connection: IORedis;
  let requester: TcpRequester;
  let client: Redis;
  const prefix = runPrefix('req');
  const k = (name: string) => `${prefix}${name}`;
  // A random comment makes each run's script new to the server's cache.
  const script = `#!lua flags=allow-key-locking\n-- ${prefix}\nreturn {ARGV[1], redis.call('INCR', KEYS[1])}`;

  beforeAll(() => {
    connection = new IORedis(testRedisUrl);
    requester = new TcpRequester(connection);
    client = createRawRedis(requester);
  });
  afterAll(async () => {
    await deleteKeysWithPrefix(connection, prefix);
    await connection.quit();
  });

  it('answers plain commands in the REST shape', async () => {
    expect(await requester.request({ body: ['set', k('a'), 'v'] })).toEqual({ result: 'OK' });
    expect(await requester.request({ body: ['get', k('a')] })).toEqual({ result: 'v' });
    expect(await requester.request({ body: ['get', k('none')] })).toEqual({ result: null });
    expect(await requester.request({ body: ['incrby', k('n'), 5] })).toEqual({ result: 5 });
  });

  it('returns Redis error replies as { error } and the client throws them', async () => {
    await client.set(k('str'), 'x');
    const res = await requester.request({ body: ['incr', k('str')] });
    expect(res.error).toMatch(/^ERR value is not an integer/);
    await expect(client.incr(k('str'))).rejects.toThrow(/not an integer/);
  });

  it('runs pipelines, keeping per-command errors', async () => {
    const out = await client.pipeline().set(k('p'), 'one').get(k('p')).incr(k('p')).exec({ keepErrors: true });
    expect(out[0].result).toBe('OK');
    expect(out[1].result).toBe('one');
    expect(out[2].error).toMatch(/not an integer/);
  });

  it('runs multi-exec transactions', async () => {
    const out = await client.multi().set(k('m'), '1').incr(k('m')).get(k('m')).exec();
    // Raw strings back (no JSON parsing): '2', not 2.
    expect(out).toEqual(['OK', 2, '2']);
  });

  it('rejects a transaction Redis aborts', async () => {
    const bad = requester.request({ path: ['multi-exec'], body: [['set', k('x')], ['get', k('x')]] });
    await expect(bad).rejects.toThrow(/EXECABORT/);
  });

  it('runs scripts carrying an Upstash-only shebang flag', async () => {
    expect(await client.eval(script, [k('s')], ['hi'])).toEqual(['hi', 1]);
  });

  it('maps EVALSHA of the original script to the stripped one in a single round trip', async () => {
    await client.eval(script, [k('s2')], ['warm']);
    const spy = vi.spyOn(connection, 'call');
    try {
      expect(await client.evalsha(sha1(script), [k('s2')], ['again'])).toEqual(['again', 2]);
      expect(spy).toHaveBeenCalledTimes(1);
      expect(spy.mock.calls[0][0]).toBe('evalsha');
      expect(spy.mock.calls[0][1]).not.toBe(sha1(script));
    } finally {
      spy.mockRestore();
    }
  });

  it('SCRIPT LOAD answers the sha of the script as sent', async () => {
    const other = `${script}\n-- load`;
    expect(await client.scriptLoad(other)).toBe(sha1(other));
    expect(await client.evalsha(sha1(other), [k('s3')], ['x'])).toEqual(['x', 1]);
  });

  it('falls back to EVAL when the server lost the script', async () => {
    await client.eval(script, [k('s4')], ['a']);
    await connection.script('FLUSH');
    expect(await client.evalsha(sha1(script), [k('s4')], ['b'])).toEqual(['b', 2]);
  });

  it('reports NOSCRIPT for an unknown sha, which is what makes callers send EVAL', async () => {
    const res = await requester.request({ body: ['evalsha', 'f'.repeat(40), 0] });
    expect(res.error).toMatch(/^NOSCRIPT/);
  });

  it('refuses REST-only routes such as SSE subscribe', async () => {
    expect((await requester.request({ path: ['subscribe', 'c'], body: [] })).error).toMatch(/not supported/);
  });
});
