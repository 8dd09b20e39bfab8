// Database driver selection and configuration errors (pure), and a real
// connection: openDatabase migrates and serves queries on the embedded PGlite
// and, when DATABASE_URL is set, on PostgreSQL through node-postgres.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, selectDbDriver } from '@/lib/config';
import { openDatabase, pipelineConnections } from './client';

const SECRET = 'a-jwt-secret-that-is-at-least-32-bytes-long';
const tmp = () => mkdtempSync(path.join(tmpdir(), 'questline-config-'));

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('DATABASE_PIPELINE_CONNECTIONS', () => {
  it('is 4 by default, 0 turns the pipelined connections off, and anything but a whole number from 0 to 64 is refused', () => {
    expect(pipelineConnections({})).toBe(4);
    expect(pipelineConnections({ DATABASE_PIPELINE_CONNECTIONS: ' ' })).toBe(4);
    expect(pipelineConnections({ DATABASE_PIPELINE_CONNECTIONS: '0' })).toBe(0);
    expect(pipelineConnections({ DATABASE_PIPELINE_CONNECTIONS: '64' })).toBe(64);
    for (const bad of ['-1', '65', '2.5', 'four']) {
      expect(configError(() => pipelineConnections({ DATABASE_PIPELINE_CONNECTIONS: bad })).message).toMatch(/DATABASE_PIPELINE_CONNECTIONS.*whole number from 0 to 64/);
    }
  });
});

describe('selectDbDriver', () => {
  it('chooses the embedded PGlite without DATABASE_URL (or with a blank one)', () => {
    expect(selectDbDriver({})).toBe('pglite');
    expect(selectDbDriver({ DATABASE_URL: '  ' })).toBe('pglite');
  });

  it('chooses node-postgres for a postgres:// or postgresql:// URL', () => {
    expect(selectDbDriver({ DATABASE_URL: 'postgres://u:p@db.internal:5432/app' })).toBe('node-postgres');
    expect(selectDbDriver({ DATABASE_URL: 'postgresql://localhost/app' })).toBe('node-postgres');
  });

  it('chooses neon for a *.neon.tech host, not for a look-alike host', () => {
    expect(selectDbDriver({ DATABASE_URL: 'postgres://u:p@ep-cool-1.us-east-2.aws.neon.tech/neondb?sslmode=require' })).toBe('neon');
    expect(selectDbDriver({ DATABASE_URL: 'postgres://u:p@neon.tech.example.com/db' })).toBe('node-postgres');
  });

  it('lets DATABASE_DRIVER override the guess, and rejects an unknown driver naming the variable', () => {
    expect(selectDbDriver({ DATABASE_URL: 'postgres://localhost/db', DATABASE_DRIVER: 'neon' })).toBe('neon');
    expect(selectDbDriver({ DATABASE_URL: 'postgres://x.neon.tech/db', DATABASE_DRIVER: 'node-postgres' })).toBe('node-postgres');
    expect(configError(() => selectDbDriver({ DATABASE_URL: 'postgres://localhost/db', DATABASE_DRIVER: 'mysql' })).message).toContain('DATABASE_DRIVER');
  });

  it('throws a ConfigError naming DATABASE_URL for a URL that is not postgres', () => {
    for (const url of ['mysql://localhost/db', 'localhost:5432', 'http://db']) {
      expect(configError(() => selectDbDriver({ DATABASE_URL: url })).message).toContain('DATABASE_URL');
    }
  });
});

describe('loadConfig', () => {
  it('requires JWT_SECRET when DATABASE_URL is set, naming it', () => {
    const err = configError(() => loadConfig({ DATABASE_URL: 'postgres://localhost/db', QUESTLINE_DATA_DIR: tmp() }));
    expect(err.message).toContain('JWT_SECRET');
  });

  it('generates and keeps a JWT secret on the embedded default', () => {
    const dir = tmp();
    const first = loadConfig({ QUESTLINE_DATA_DIR: dir });
    expect(first.jwtSecret.byteLength).toBeGreaterThanOrEqual(32);
    expect(first.embedded).toBe(true);
    expect(Buffer.from(loadConfig({ QUESTLINE_DATA_DIR: dir }).jwtSecret)).toEqual(Buffer.from(first.jwtSecret));
  });

  it('does not require JWT_SECRET just because NODE_ENV=production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', QUESTLINE_DATA_DIR: tmp() })).not.toThrow();
  });

  it('rejects a JWT_SECRET shorter than 32 bytes, naming it', () => {
    const err = configError(() => loadConfig({ JWT_SECRET: 'short', QUESTLINE_DATA_DIR: tmp() }));
    expect(err.message).toContain('JWT_SECRET');
    expect(err.message).toContain('32');
  });

  it.each(['abc', '0', '70000', '3.5'])('rejects PORT=%s, naming PORT', (port) => {
    expect(configError(() => loadConfig({ PORT: port, JWT_SECRET: SECRET, QUESTLINE_DATA_DIR: tmp() })).message).toContain('PORT');
  });

  it('defaults PORT to 3000', () => {
    expect(loadConfig({ JWT_SECRET: SECRET, QUESTLINE_DATA_DIR: tmp() }).port).toBe(3000);
    expect(loadConfig({ PORT: '8080', JWT_SECRET: SECRET, QUESTLINE_DATA_DIR: tmp() }).port).toBe(8080);
  });

  it('rejects one Upstash variable without the other, naming the missing one', () => {
    const base = { JWT_SECRET: SECRET, QUESTLINE_DATA_DIR: tmp() };
    expect(configError(() => loadConfig({ ...base, UPSTASH_REDIS_REST_URL: 'https://x.upstash.io' })).message).toContain('UPSTASH_REDIS_REST_TOKEN');
    expect(configError(() => loadConfig({ ...base, UPSTASH_REDIS_REST_TOKEN: 'tok' })).message).toContain('UPSTASH_REDIS_REST_URL');
    expect(loadConfig({ ...base, UPSTASH_REDIS_REST_URL: 'https://x.upstash.io', UPSTASH_REDIS_REST_TOKEN: 'tok' }).upstash).toEqual({ url: 'https://x.upstash.io', token: 'tok' });
  });

  it('rejects a REDIS_URL that is not redis://, naming it', () => {
    expect(configError(() => loadConfig({ REDIS_URL: 'http://cache', JWT_SECRET: SECRET, QUESTLINE_DATA_DIR: tmp() })).message).toContain('REDIS_URL');
  });

  it('gives one line: "Configuration error: <VARIABLE> ..."', () => {
    const err = configError(() => loadConfig({ PORT: 'x', JWT_SECRET: SECRET }));
    expect(err.message).toMatch(/^Configuration error: PORT /);
    expect(err.message).not.toContain('\n');
  });
});

const TABLES = ['apps', 'missions', 'campaigns', 'events', 'idempotency_keys', 'progress', 'balances', 'ledger', 'revoked_tokens', 'user_revocations', 'analytics_rollups', 'audit_log'];

async function tablesOf(handle: Awaited<ReturnType<typeof openDatabase>>): Promise<string[]> {
  const result = await handle.db.execute(sql`select table_name from information_schema.tables where table_schema = 'public'`);
  const rows = (Array.isArray(result) ? result : (result as { rows: { table_name: string }[] }).rows) as { table_name: string }[];
  return rows.map((r) => r.table_name);
}

describe('openDatabase', () => {
  it('opens the embedded PGlite with every migration applied', async () => {
    const handle = await openDatabase(loadConfig({ QUESTLINE_DATA_DIR: tmp(), JWT_SECRET: SECRET }));
    try {
      expect(handle.driver).toBe('pglite');
      expect(await tablesOf(handle)).toEqual(expect.arrayContaining(TABLES));
    } finally {
      await handle.close();
    }
  });

  it.skipIf(!process.env.DATABASE_URL)('with DATABASE_URL, connects through node-postgres and applies the migrations (twice is harmless)', async () => {
    const config = loadConfig({ DATABASE_URL: process.env.DATABASE_URL, JWT_SECRET: SECRET, QUESTLINE_DATA_DIR: tmp() });
    expect(config.dbDriver).toBe('node-postgres');
    const [a, b] = await Promise.all([openDatabase(config), openDatabase(config)]);
    try {
      expect(a.driver).toBe('node-postgres');
      expect(await tablesOf(a)).toEqual(expect.arrayContaining(TABLES));
      const result = await b.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      const rows = (Array.isArray(result) ? result : (result as { rows: { n: number }[] }).rows) as { n: number }[];
      expect(rows[0].n).toBeGreaterThanOrEqual(1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
