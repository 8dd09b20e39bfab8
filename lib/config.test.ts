// The console's configuration: the first admin's variables go together, the
// session key needs no variable of its own, and the public URL is an origin.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const JWT_SECRET = 'a-jwt-secret-that-is-long-enough-0123456789';
const base = () => ({ QUESTLINE_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'questline-config-')), JWT_SECRET, ADMIN_API_KEY: 'admin-key-0123456789abcdef' });

describe('console configuration', () => {
  it('takes ADMIN_EMAIL and ADMIN_PASSWORD together, lower-casing the address', () => {
    const config = loadConfig({ ...base(), ADMIN_EMAIL: 'Ops@Studio.Test', ADMIN_PASSWORD: 'long enough password' });
    expect(config.firstAdmin).toEqual({ email: 'ops@studio.test', password: 'long enough password' });
    expect(loadConfig(base()).firstAdmin).toBeNull();
  });

  it('stops start-up with one line naming the missing or bad variable', () => {
    expect(() => loadConfig({ ...base(), ADMIN_EMAIL: 'ops@studio.test' })).toThrow(new ConfigError('ADMIN_PASSWORD', 'is required when the other of ADMIN_EMAIL and ADMIN_PASSWORD is set'));
    expect(() => loadConfig({ ...base(), ADMIN_PASSWORD: 'long enough password' })).toThrow(/^Configuration error: ADMIN_EMAIL /);
    expect(() => loadConfig({ ...base(), ADMIN_EMAIL: 'ops@studio.test', ADMIN_PASSWORD: 'short' })).toThrow(/^Configuration error: ADMIN_PASSWORD must be 12 to 128/);
    expect(() => loadConfig({ ...base(), ADMIN_EMAIL: 'not an address', ADMIN_PASSWORD: 'long enough password' })).toThrow(/ADMIN_EMAIL must be an e-mail/);
    expect(() => loadConfig({ ...base(), BETTER_AUTH_SECRET: 'too short' })).toThrow(/BETTER_AUTH_SECRET must be at least 32/);
    expect(() => loadConfig({ ...base(), BETTER_AUTH_URL: 'https://console.example.com/admin' })).toThrow(/BETTER_AUTH_URL must be an origin/);
  });

  it('refuses a CATALOG_MAX_AGE_MS that is not an integer from 1000 to 3600000, rather than falling back to 60 s', () => {
    for (const bad of ['60s', '999', '3600001', '1.5e4', '-5000']) {
      expect(() => loadConfig({ ...base(), CATALOG_MAX_AGE_MS: bad })).toThrow(new ConfigError('CATALOG_MAX_AGE_MS', `must be an integer from 1000 to 3600000 (got "${bad}")`));
    }
    expect(() => loadConfig({ ...base(), CATALOG_MAX_AGE_MS: '600000' })).not.toThrow();
    expect(() => loadConfig({ ...base(), CATALOG_MAX_AGE_MS: '' })).not.toThrow();
  });

  it('derives the session key from JWT_SECRET (same on every instance, never the JWT key itself) unless BETTER_AUTH_SECRET is set', () => {
    const a = loadConfig(base());
    const b = loadConfig(base());
    expect(a.staffAuthSecret).toBe(b.staffAuthSecret);
    expect(a.staffAuthSecret).not.toContain(JWT_SECRET);
    expect(loadConfig({ ...base(), JWT_SECRET: `${JWT_SECRET}x` }).staffAuthSecret).not.toBe(a.staffAuthSecret);
    const own = 'b'.repeat(40);
    expect(loadConfig({ ...base(), BETTER_AUTH_SECRET: own }).staffAuthSecret).toBe(own);
  });

  it('reads BETTER_AUTH_URL without a trailing slash and BETTER_AUTH_TRUSTED_ORIGINS as a list', () => {
    const config = loadConfig({ ...base(), BETTER_AUTH_URL: 'https://console.example.com/', BETTER_AUTH_TRUSTED_ORIGINS: 'https://a.example, https://b.example' });
    expect(config.publicUrl).toBe('https://console.example.com');
    expect(config.trustedOrigins).toEqual(['https://a.example', 'https://b.example']);
  });
});

describe('QUESTLINE_WORKERS', () => {
  const shared = { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/x', REDIS_URL: 'redis://127.0.0.1:6379/0' };

  it('defaults to 1 and takes 2 to 64 on PostgreSQL with a shared store', () => {
    expect(loadConfig(base()).workers).toBe(1);
    expect(loadConfig({ ...base(), ...shared, QUESTLINE_WORKERS: '4' }).workers).toBe(4);
  });

  it('refuses several workers on the embedded default or without a shared store, and values out of range', () => {
    expect(() => loadConfig({ ...base(), QUESTLINE_WORKERS: '2' })).toThrow(/^Configuration error: QUESTLINE_WORKERS above 1 needs DATABASE_URL/);
    expect(() => loadConfig({ ...base(), DATABASE_URL: shared.DATABASE_URL, QUESTLINE_WORKERS: '2' })).toThrow(/QUESTLINE_WORKERS above 1 needs/);
    expect(() => loadConfig({ ...base(), ...shared, QUESTLINE_WORKERS: '0' })).toThrow(/QUESTLINE_WORKERS must be an integer from 1 to 64/);
    expect(() => loadConfig({ ...base(), ...shared, QUESTLINE_WORKERS: '2.5' })).toThrow(/QUESTLINE_WORKERS must be an integer/);
  });
});

describe('REDIS_CLUSTER', () => {
  it('is off unless "true" (or "1"), and names a cluster only with REDIS_URL on database 0', () => {
    expect(loadConfig(base()).redisCluster).toBe(false);
    expect(loadConfig({ ...base(), REDIS_URL: 'redis://10.0.0.1:7000' }).redisCluster).toBe(false);
    expect(loadConfig({ ...base(), REDIS_URL: 'redis://10.0.0.1:7000', REDIS_CLUSTER: 'true' }).redisCluster).toBe(true);
    expect(loadConfig({ ...base(), REDIS_URL: 'rediss://u:p@cfg.example.com:6379/0', REDIS_CLUSTER: '1' }).redisCluster).toBe(true);
    expect(loadConfig({ ...base(), REDIS_URL: 'redis://10.0.0.1:7000/8', REDIS_CLUSTER: 'false' }).redisCluster).toBe(false);
  });

  it('stops start-up on a value it does not know, a cluster without REDIS_URL, or another database', () => {
    expect(() => loadConfig({ ...base(), REDIS_URL: 'redis://h:7000', REDIS_CLUSTER: 'yes' })).toThrow(new ConfigError('REDIS_CLUSTER', 'must be "true" or "false" (got "yes")'));
    expect(() => loadConfig({ ...base(), REDIS_CLUSTER: 'true' })).toThrow(/^Configuration error: REDIS_CLUSTER needs REDIS_URL/);
    expect(() => loadConfig({ ...base(), REDIS_URL: 'redis://h:7000/8', REDIS_CLUSTER: 'true' })).toThrow(
      new ConfigError('REDIS_URL', 'names database 8, but a Redis Cluster has only database 0 (REDIS_CLUSTER=true)'),
    );
  });
});
