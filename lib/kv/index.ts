import { backendFromEnv, type Env } from './config';
import { createHttpRedisClient, createTcpRedisClient } from './clients';
import { MemoryKv } from './memory';
import type { Redis } from '@upstash/redis';
import type { KV } from './types';
import { IORedisKv } from './ioredis';
import { UpstashKv } from './upstash';

export type { KV } from './types';
export { backendFromEnv, type Env } from './config';
export { UpstashKv } from './upstash';

/**
 * A new KV for the backend the environment selects (see backendFromEnv).
 * The caller owns it and must close() it; most code wants getKv().
 */
export function createKv(env: Env = process.env): KV {
  const backend = backendFromEnv(env);
  switch (backend.kind) {
    case 'redis': {
      // Plain commands on ioredis directly; the @upstash/redis client on the same connection serves the limiter and update log.
      // REDIS_CLUSTER=true: an ioredis Cluster under the same two clients (keys: lib/kv/keys.ts).
      const { connection, client, close } = createTcpRedisClient(backend.url, backend.cluster);
      return new IORedisKv(connection, client, close, backend.cluster);
    }
    case 'upstash': {
      const { client, close } = createHttpRedisClient(backend.url, backend.token);
      return new UpstashKv(client, 'upstash', close);
    }
    case 'memory':
      return new MemoryKv();
  }
}

/**
 * The @upstash/redis client under a Redis or Upstash KV (shared by the rate
 * limiter and the update log), null for the in-process store. Decided by the
 * KV's kind, which comes from the configuration, never by `instanceof`: the
 * process-wide KV may have been built by another Next.js chunk's copy of
 * this module, with its own copy of the class.
 */
export function redisClientOf(kv: KV): Redis | null {
  if (kv.kind === 'memory') return null;
  // Both IORedisKv (redis) and UpstashKv (upstash) expose it.
  return (kv as UpstashKv | IORedisKv).client;
}

// Kept on globalThis so Next.js dev reloads reuse the connection instead of
// opening a new one per edit (module state is reset on reload, globals not).
const SLOT = Symbol.for('questline.kv');
type Slot = { [SLOT]?: KV };
const slot = globalThis as typeof globalThis & Slot;

/** The process-wide KV, created on first use (not at import, so builds never connect). */
export function getKv(): KV {
  slot[SLOT] ??= createKv();
  return slot[SLOT];
}

/** Closes the process-wide KV; the next getKv() starts a fresh one. For tests and shutdown. */
export async function closeKv(): Promise<void> {
  const kv = slot[SLOT];
  slot[SLOT] = undefined;
  await kv?.close();
}
