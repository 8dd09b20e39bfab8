import { afterEach, describe, expect, it, vi } from 'vitest';
import { kvKey, redisClusterKeys, slotKey, slotTag } from './keys';

describe('kvKey', () => {
  it('keeps parts apart: a separator inside a part cannot shift the boundary', () => {
    expect(kvKey('idem', 'a', 'b:c', 'd')).not.toBe(kvKey('idem', 'a:b', 'c', 'd'));
    expect(kvKey('idem', 'a', 'b', 'c:d')).not.toBe(kvKey('idem', 'a', 'b:c', 'd'));
    expect(kvKey('idem', 'a', 'b', 'c')).toBe('idem:a:b:c');
  });
});

describe('slotKey and slotTag (hash tags on a Redis Cluster only)', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('leaves the names of a single Redis as they were, so an upgrade finds its keys', () => {
    vi.stubEnv('REDIS_URL', 'redis://127.0.0.1:6379/8');
    vi.stubEnv('REDIS_CLUSTER', '');
    expect(redisClusterKeys()).toBe(false);
    expect(slotKey('updlog', 'app', 'u:1')).toBe(kvKey('updlog', 'app', 'u:1'));
    expect(slotTag('tok-1')).toBe('tok-1');
  });

  it('puts the parts in one hash tag on a cluster; a brace in a part cannot end it early', () => {
    vi.stubEnv('REDIS_URL', 'redis://127.0.0.1:7100');
    vi.stubEnv('REDIS_CLUSTER', 'true');
    expect(redisClusterKeys()).toBe(true);
    expect(slotKey('updlog', 'app', 'u:1')).toBe('updlog:{app:u%3A1}');
    expect(slotKey('updseq', 'a}b', '{c')).toBe('updseq:{a%7Db:%7Bc}');
    expect(slotTag('tok-1')).toBe('{tok-1}');
    // Injective: the escape character itself is escaped.
    expect(slotTag('a}b')).toBe('{a%7Db}');
    expect(slotTag('a%7Db')).toBe('{a%257Db}');
  });
});
