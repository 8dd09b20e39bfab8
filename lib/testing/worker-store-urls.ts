// The database and Redis index of Vitest worker `pool` (1…maxWorkers) on PostgreSQL + Redis:
// `<database>_w<pool>` on the same server, Redis database index base + pool (mod 16).
export function workerStoreUrls(pool: number, databaseUrl: string, redisUrl?: string): { database: string; redis?: string } {
  const database = new URL(databaseUrl);
  database.pathname = `/${workerDatabaseName(pool, databaseUrl)}`;
  if (!redisUrl?.trim()) return { database: database.toString() };
  const redis = new URL(redisUrl);
  const base = Number(redis.pathname.replace(/^\//, '') || '0');
  redis.pathname = `/${((Number.isInteger(base) ? base : 0) + pool) % 16}`;
  return { database: database.toString(), redis: redis.toString() };
}

/** The database name of worker `pool`: the configured one with `_w<pool>`. */
export function workerDatabaseName(pool: number, databaseUrl: string): string {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, '')) || 'postgres';
  return `${name}_w${pool}`;
}
