// Vitest setup file: on PostgreSQL + Redis, each worker process runs its files
// against a database and a Redis database index of its own (made by
// lib/testing/global-setup.ts), so two files can run at once even when one of
// them locks or alters the events or catalog tables on purpose (webhook
// atomicity, catalog race, PostgreSQL faults). Runs before a test file's
// imports read DATABASE_URL/REDIS_URL; servers and processes a test starts
// inherit them.
import { workerStoreUrls } from './worker-store-urls';

const pool = Number(process.env.VITEST_POOL_ID);
if (process.env.DATABASE_URL?.trim() && Number.isInteger(pool) && pool > 0) {
  const urls = workerStoreUrls(pool, process.env.DATABASE_URL, process.env.REDIS_URL);
  process.env.DATABASE_URL = urls.database;
  if (urls.redis !== undefined) process.env.REDIS_URL = urls.redis;
}
