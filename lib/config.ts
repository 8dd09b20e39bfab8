// Reads and checks the environment once. A bad or missing required value stops
// start-up with one clear line naming the variable (ConfigError).
import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { STAFF_PASSWORD_MAX, STAFF_PASSWORD_MIN } from '@/lib/contract/staff';
import { processWide } from './process-wide';

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Configuration error: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

/**
 * The one line to print for an error that stops start-up on purpose (bad
 * configuration, data directory or port in use, database unreachable or
 * missing: lib/startup-errors.ts), or null for an unexpected failure.
 * By name, not class: the error may come from another Next.js chunk's copy.
 */
export function startupErrorLine(err: unknown): string | null {
  return err instanceof Error && ['ConfigError', 'DataDirInUseError', 'DatabaseStartError', 'PortInUseError'].includes(err.name) ? err.message : null;
}

export type DbDriver = 'pglite' | 'node-postgres' | 'neon';

export interface Config {
  port: number;
  dataDir: string;
  databaseUrl: string | null;
  dbDriver: DbDriver;
  redisUrl: string | null;
  /** REDIS_URL names one node of a Redis Cluster (REDIS_CLUSTER=true): lib/kv/config.ts. */
  redisCluster: boolean;
  upstash: { url: string; token: string } | null;
  jwtSecret: Uint8Array;
  adminApiKey: string | null;
  /** True when the admin key is generated and kept in the data directory (embedded default). */
  adminApiKeyGenerated: boolean;
  /** True when this start generated it (the first start): printed this once, later starts say where it is kept. */
  adminApiKeyNew: boolean;
  openaiApiKey: string | null;
  openaiModel: string;
  /** An OpenAI-compatible API (a self-hosted model, a gateway); null for OpenAI's own. */
  openaiBaseUrl: string | null;
  /** Time allowed to the recommendation model call before the fallback answers (OPENAI_TIMEOUT_MS, default 5 s). */
  openaiTimeoutMs: number;
  embedded: boolean;
  /** Interval of the stream's `: keep-alive` comment (SSE_KEEPALIVE_MS, default and maximum 15 s). */
  sseKeepAliveMs: number;
  /** The console's first admin (ADMIN_EMAIL + ADMIN_PASSWORD), created when no staff account exists. */
  firstAdmin: { email: string; password: string } | null;
  /** Signs the staff session cookies: BETTER_AUTH_SECRET, else derived from the JWT secret. */
  staffAuthSecret: string;
  /** The console's public origin (BETTER_AUTH_URL); null: taken from each request's Host. */
  publicUrl: string | null;
  /** Extra origins allowed to send cookie-authenticated writes (BETTER_AUTH_TRUSTED_ORIGINS). */
  trustedOrigins: string[];
  /** Open streams allowed per app and user on one instance (SSE_MAX_STREAMS_PER_USER, default 10). */
  sseMaxStreamsPerUser: number;
  /**
   * Proxies in front of the service (TRUST_PROXY, default 0): the client is the
   * n-th X-Forwarded-For address from the right; 0 ignores the header.
   */
  trustProxy: number;
  /** Time in-flight requests get to finish at shutdown before their connections are cut (SHUTDOWN_GRACE_MS, default 10 s). */
  shutdownGraceMs: number;
  /** `npm start`'s worker processes (node:cluster) sharing the port; 1: the server runs in the started process. */
  workers: number;
  /** Lowest level logged (LOG_LEVEL: fatal, error, warn, info, debug, trace or silent; default info). */
  logLevel: LogLevel;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
type LogLevel = (typeof LOG_LEVELS)[number];

type Env = Record<string, string | undefined>;

function nonEmpty(env: Env, name: string): string | null {
  const value = env[name]?.trim();
  return value ? value : null;
}

/**
 * REDIS_CLUSTER: `true` when REDIS_URL names a node of a Redis Cluster (any
 * node; the others are found from its CLUSTER SLOTS), `false` or unset for a
 * single Redis. Checked here and read by lib/kv/config.ts. A cluster has one
 * database, so a URL naming another one (`/3`) is refused instead of ignored.
 */
export function redisClusterFromEnv(env: Env = process.env): boolean {
  const text = nonEmpty(env, 'REDIS_CLUSTER')?.toLowerCase() ?? 'false';
  if (text !== 'true' && text !== 'false' && text !== '1' && text !== '0') {
    throw new ConfigError('REDIS_CLUSTER', `must be "true" or "false" (got "${text}")`);
  }
  const cluster = text === 'true' || text === '1';
  if (!cluster) return false;
  const url = nonEmpty(env, 'REDIS_URL');
  if (!url) throw new ConfigError('REDIS_CLUSTER', 'needs REDIS_URL (a redis:// or rediss:// URL of one of the cluster\'s nodes)');
  const db = /^rediss?:\/\/[^/]*\/(\d*)/.exec(url)?.[1];
  if (db && db !== '0') throw new ConfigError('REDIS_URL', `names database ${db}, but a Redis Cluster has only database 0 (REDIS_CLUSTER=true)`);
  return true;
}

/** Picks the database driver: PGlite without a URL; Neon's serverless driver when asked or on a Neon host. */
export function selectDbDriver(env: Env): DbDriver {
  const url = nonEmpty(env, 'DATABASE_URL');
  if (!url) return 'pglite';
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new ConfigError('DATABASE_URL', 'must be a postgres:// or postgresql:// URL');
  }
  const forced = nonEmpty(env, 'DATABASE_DRIVER');
  if (forced) {
    if (forced !== 'node-postgres' && forced !== 'neon') {
      throw new ConfigError('DATABASE_DRIVER', 'must be "node-postgres" or "neon"');
    }
    return forced;
  }
  // Neon's own hosts are reached over WebSockets by the serverless driver;
  // any other URL (self-hosted PostgreSQL) uses node-postgres over TCP.
  return /\.neon\.(tech|build)(:|\/|$)/.test(new URL(url).hostname + '/') ? 'neon' : 'node-postgres';
}

/** A secret kept in the data directory: read when present, else made once and written (owner-only). */
export function readOrCreateSecret(dataDir: string, file: string, make: () => string): string {
  return keptSecret(dataDir, file, make).secret;
}

/** readOrCreateSecret, also telling whether this call made it (start-up prints a secret only the time it is made). */
export function keptSecret(dataDir: string, file: string, make: () => string): { secret: string; created: boolean } {
  const full = path.join(dataDir, file);
  if (existsSync(full)) return { secret: readFileSync(full, 'utf8').trim(), created: false };
  ensureDataDir(dataDir);
  const secret = make();
  // Written aside, then linked into place: the file appears whole or not at
  // all, and of two processes starting together the first link wins (the
  // other reads that secret).
  const aside = `${full}.${process.pid}.tmp`;
  writeFileSync(aside, secret + '\n', { mode: 0o600 });
  try {
    linkSync(aside, full);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return { secret: readFileSync(full, 'utf8').trim(), created: false };
  } finally {
    rmSync(aside, { force: true });
  }
  return { secret, created: true };
}

/** Creates the data directory owner-only (0700); an existing one is made owner-only too. */
export function ensureDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
}

/** The generated admin key's file in the data directory (embedded default, no ADMIN_API_KEY). */
export const ADMIN_API_KEY_FILE = 'admin-api-key';

const randomSecret = (bytes: number) => () => randomBytes(bytes).toString('base64url');

/** PORT (default 3000), checked: read on its own too, so start-up can test the port before anything is created. */
export function portFromEnv(env: Env = process.env): number {
  const portText = nonEmpty(env, 'PORT') ?? '3000';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new ConfigError('PORT', `must be a port number (got "${portText}")`);
  }
  return port;
}

export function loadConfig(env: Env = process.env): Config {
  const port = portFromEnv(env);
  const dataDir = path.resolve(/* turbopackIgnore: true */ nonEmpty(env, 'QUESTLINE_DATA_DIR') ?? '.data');
  const databaseUrl = nonEmpty(env, 'DATABASE_URL');
  const dbDriver = selectDbDriver(env);
  const embedded = databaseUrl === null;

  const redisUrl = nonEmpty(env, 'REDIS_URL');
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError('REDIS_URL', 'must be a redis:// or rediss:// URL');
  }
  const redisCluster = redisClusterFromEnv(env);
  const upstashUrl = nonEmpty(env, 'UPSTASH_REDIS_REST_URL');
  const upstashToken = nonEmpty(env, 'UPSTASH_REDIS_REST_TOKEN');
  if ((upstashUrl === null) !== (upstashToken === null)) {
    throw new ConfigError(
      upstashUrl ? 'UPSTASH_REDIS_REST_TOKEN' : 'UPSTASH_REDIS_REST_URL',
      'is required when the other Upstash variable is set',
    );
  }

  const workersText = nonEmpty(env, 'QUESTLINE_WORKERS') ?? '1';
  const workers = Number(workersText);
  if (!/^\d+$/.test(workersText) || workers < 1 || workers > 64) {
    throw new ConfigError('QUESTLINE_WORKERS', `must be an integer from 1 to 64 (got "${workersText}")`);
  }
  // Several processes need a database and a store they all reach: PGlite is one process per data directory, the in-process store is per process.
  if (workers > 1 && (embedded || (redisUrl === null && upstashUrl === null))) {
    throw new ConfigError('QUESTLINE_WORKERS', 'above 1 needs DATABASE_URL (PostgreSQL) and REDIS_URL or Upstash');
  }

  let jwtSecretText = nonEmpty(env, 'JWT_SECRET');
  if (!jwtSecretText) {
    if (!embedded) throw new ConfigError('JWT_SECRET', 'is required when DATABASE_URL is set');
    jwtSecretText = readOrCreateSecret(dataDir, 'jwt-secret', randomSecret(48));
  }
  const jwtSecret = new TextEncoder().encode(jwtSecretText);
  if (jwtSecret.byteLength < 32) throw new ConfigError('JWT_SECRET', 'must be at least 32 bytes');

  let adminApiKey = nonEmpty(env, 'ADMIN_API_KEY');
  let adminApiKeyGenerated = false;
  let adminApiKeyNew = false;
  if (!adminApiKey && embedded) {
    const kept = keptSecret(dataDir, ADMIN_API_KEY_FILE, randomSecret(24));
    adminApiKey = kept.secret;
    adminApiKeyGenerated = true;
    adminApiKeyNew = kept.created;
  }
  if (adminApiKey && adminApiKey.length < 16) {
    throw new ConfigError('ADMIN_API_KEY', 'must be at least 16 characters');
  }

  const keepAliveText = nonEmpty(env, 'SSE_KEEPALIVE_MS') ?? '15000';
  const sseKeepAliveMs = Number(keepAliveText);
  if (!Number.isInteger(sseKeepAliveMs) || sseKeepAliveMs < 10 || sseKeepAliveMs > 15_000) {
    throw new ConfigError('SSE_KEEPALIVE_MS', `must be an integer from 10 to 15000 (got "${keepAliveText}")`);
  }

  const adminEmail = nonEmpty(env, 'ADMIN_EMAIL');
  const adminPassword = env.ADMIN_PASSWORD ? env.ADMIN_PASSWORD : null;
  if ((adminEmail === null) !== (adminPassword === null)) {
    throw new ConfigError(adminEmail ? 'ADMIN_PASSWORD' : 'ADMIN_EMAIL', 'is required when the other of ADMIN_EMAIL and ADMIN_PASSWORD is set');
  }
  if (adminEmail && !/^[^\s@]+@[^\s@]+$/.test(adminEmail)) throw new ConfigError('ADMIN_EMAIL', 'must be an e-mail address');
  if (adminPassword && (adminPassword.length < STAFF_PASSWORD_MIN || adminPassword.length > STAFF_PASSWORD_MAX)) {
    throw new ConfigError('ADMIN_PASSWORD', `must be ${STAFF_PASSWORD_MIN} to ${STAFF_PASSWORD_MAX} characters`);
  }

  let staffAuthSecret = nonEmpty(env, 'BETTER_AUTH_SECRET');
  if (staffAuthSecret && staffAuthSecret.length < 32) throw new ConfigError('BETTER_AUTH_SECRET', 'must be at least 32 characters');
  // Derived rather than required: every instance already shares JWT_SECRET, and a
  // separate key per purpose keeps a leaked cookie key from signing API tokens.
  staffAuthSecret ??= createHmac('sha256', jwtSecret).update('questline staff sessions').digest('base64url');

  const publicUrl = nonEmpty(env, 'BETTER_AUTH_URL');
  if (publicUrl && !/^https?:\/\/[^/]+\/?$/.test(publicUrl)) {
    throw new ConfigError('BETTER_AUTH_URL', `must be an origin such as https://console.example.com (got "${publicUrl}")`);
  }
  const trustedOrigins = (nonEmpty(env, 'BETTER_AUTH_TRUSTED_ORIGINS') ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  const maxStreamsText = nonEmpty(env, 'SSE_MAX_STREAMS_PER_USER') ?? '10';
  const sseMaxStreamsPerUser = Number(maxStreamsText);
  if (!Number.isInteger(sseMaxStreamsPerUser) || sseMaxStreamsPerUser < 1 || sseMaxStreamsPerUser > 10_000) {
    throw new ConfigError('SSE_MAX_STREAMS_PER_USER', `must be an integer from 1 to 10000 (got "${maxStreamsText}")`);
  }

  const trustProxyText = nonEmpty(env, 'TRUST_PROXY') ?? '0';
  const trustProxy = Number(trustProxyText);
  if (!/^\d+$/.test(trustProxyText) || trustProxy > 10) {
    throw new ConfigError('TRUST_PROXY', `must be the number of proxies in front, 0 to 10 (got "${trustProxyText}")`);
  }

  const graceText = nonEmpty(env, 'SHUTDOWN_GRACE_MS') ?? '10000';
  const shutdownGraceMs = Number(graceText);
  if (!/^\d+$/.test(graceText) || shutdownGraceMs > 600_000) {
    throw new ConfigError('SHUTDOWN_GRACE_MS', `must be an integer from 0 to 600000 (got "${graceText}")`);
  }
  const logLevelText = (nonEmpty(env, 'LOG_LEVEL') ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevelText)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')} (got "${logLevelText}")`);
  }
  const logLevel = logLevelText as LogLevel;

  const openaiBaseUrl = nonEmpty(env, 'OPENAI_BASE_URL');
  if (openaiBaseUrl && !/^https?:\/\/[^/]/.test(openaiBaseUrl)) {
    throw new ConfigError('OPENAI_BASE_URL', 'must be an http:// or https:// URL');
  }
  const openaiTimeoutText = nonEmpty(env, 'OPENAI_TIMEOUT_MS') ?? '5000';
  const openaiTimeoutMs = Number(openaiTimeoutText);
  if (!Number.isInteger(openaiTimeoutMs) || openaiTimeoutMs < 50 || openaiTimeoutMs > 60_000) {
    throw new ConfigError('OPENAI_TIMEOUT_MS', `must be an integer from 50 to 60000 (got "${openaiTimeoutText}")`);
  }
  // Read by the catalog cache itself (lib/catalog/catalog.ts, per call); checked here so a bad value stops start-up.
  const catalogMaxAgeText = nonEmpty(env, 'CATALOG_MAX_AGE_MS');
  if (catalogMaxAgeText !== null) {
    const ms = Number(catalogMaxAgeText);
    if (!/^\d+$/.test(catalogMaxAgeText) || ms < 1_000 || ms > 3_600_000) {
      throw new ConfigError('CATALOG_MAX_AGE_MS', `must be an integer from 1000 to 3600000 (got "${catalogMaxAgeText}")`);
    }
  }

  return {
    port,
    dataDir,
    databaseUrl,
    dbDriver,
    redisUrl,
    redisCluster,
    upstash: upstashUrl && upstashToken ? { url: upstashUrl, token: upstashToken } : null,
    jwtSecret,
    adminApiKey,
    adminApiKeyGenerated,
    adminApiKeyNew,
    openaiApiKey: nonEmpty(env, 'OPENAI_API_KEY'),
    openaiModel: nonEmpty(env, 'OPENAI_MODEL') ?? 'gpt-4o-mini',
    openaiBaseUrl,
    openaiTimeoutMs,
    embedded,
    sseKeepAliveMs,
    firstAdmin: adminEmail && adminPassword ? { email: adminEmail.toLowerCase(), password: adminPassword } : null,
    staffAuthSecret,
    publicUrl: publicUrl ? publicUrl.replace(/\/$/, '') : null,
    trustedOrigins,
    sseMaxStreamsPerUser,
    trustProxy,
    shutdownGraceMs,
    workers,
    logLevel,
  };
}

// One per process (not per Next.js chunk): read once, the same for every caller.
const loaded = processWide('config', () => ({ config: null as Config | null }));

/** The process-wide configuration, read on first use. */
export function getConfig(): Config {
  loaded.config ??= loadConfig();
  return loaded.config;
}
