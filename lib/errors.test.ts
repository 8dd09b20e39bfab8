import { describe, expect, it } from 'vitest';
import { isDeadlock, isUnavailableError } from './errors';

describe('isDeadlock', () => {
  it('finds SQLSTATE 40P01 on the error or along its cause chain (drizzle wraps the driver error), and nothing else', () => {
    const pgError = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    expect(isDeadlock(pgError)).toBe(true);
    expect(isDeadlock(new Error('Failed query: insert …', { cause: pgError }))).toBe(true);
    expect(isDeadlock(Object.assign(new Error('could not serialize access'), { code: '40001' }))).toBe(false);
    expect(isDeadlock(new Error('Failed query', { cause: new Error('connection terminated') }))).toBe(false);
    expect(isDeadlock(undefined)).toBe(false);
    expect(isDeadlock('40P01')).toBe(false);
  });
});

describe('isUnavailableError: a Redis Cluster failing over', () => {
  it("is the cluster's transient replies and ioredis Cluster's own give-ups, as ioredis rejects them or @upstash/redis rethrows them; not a mere mention", () => {
    const reply = (message: string) => Object.assign(new Error(message), { name: 'ReplyError' });
    for (const transient of [
      reply('MOVED 7957 127.0.0.1:7105'),
      reply('ASK 3999 127.0.0.1:7102'),
      reply('CLUSTERDOWN The cluster is down'),
      reply('TRYAGAIN Multiple keys request during rehashing of slot'),
      reply('LOADING Redis is loading the dataset in memory'),
      reply('MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to no'),
      reply("READONLY You can't write against a read only replica."),
      new Error('Too many Cluster redirections. Last error: ReplyError: CLUSTERDOWN The cluster is down'),
      new Error('None of startup nodes is available'),
      new Error("Cluster isn't ready and enableOfflineQueue options is false"),
      Object.assign(new Error('MOVED 6876 127.0.0.1:7105, command was: ["xrange","updlog:{a:b}","-","+"]'), { name: 'UpstashError' }),
      new Error('Failed query', { cause: reply('CLUSTERDOWN The cluster is down') }),
    ]) {
      expect(isUnavailableError(transient), transient.message).toBe(true);
    }
    for (const other of [
      reply('ERR wrong number of arguments for \'get\' command'),
      reply('WRONGTYPE Operation against a key holding the wrong kind of value'),
      new Error('mission MOVED to another campaign'),
      new Error('the player was MOVED '),
    ]) {
      expect(isUnavailableError(other), other.message).toBe(false);
    }
  });
});
