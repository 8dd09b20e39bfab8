import { backendFromEnv, type Env } from '@/lib/kv/config';
import { createHttpRedisClient } from '@/lib/kv/clients';
import { MemoryBus } from './memory';
import { RedisBus } from './redis';
import { RedisClusterBus } from './redis-cluster';
import type { Bus } from './types';
import { UpstashBus } from './upstash';

export type { Bus, Unsubscribe } from './types';
export { MemoryBus } from './memory';
export { RedisBus } from './redis';

/** A new bus for the backend the environment selects (same rules as the KV). */
export function createBus(env: Env = process.env): Bus {
  const backend = backendFromEnv(env);
  switch (backend.kind) {
    case 'redis':
      // A Redis Cluster (REDIS_CLUSTER=true): sharded Pub/Sub.
      return backend.cluster ? new RedisClusterBus(backend.url) : new RedisBus(backend.url);
    case 'upstash':
      return new UpstashBus(createHttpRedisClient(backend.url, backend.token).client);
    case 'memory':
      return new MemoryBus();
  }
}

// On globalThis so Next.js dev reloads keep one subscriber connection.
const SLOT = Symbol.for('questline.bus');
type Slot = { [SLOT]?: Bus };
const slot = globalThis as typeof globalThis & Slot;

/** The process-wide bus, created on first use (connections open lazily too). */
export function getBus(): Bus {
  slot[SLOT] ??= createBus();
  return slot[SLOT];
}

/** Closes the process-wide bus; the next getBus() starts a fresh one. For tests and shutdown. */
export async function closeBus(): Promise<void> {
  const bus = slot[SLOT];
  slot[SLOT] = undefined;
  await bus?.close();
}
