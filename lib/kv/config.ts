// Which store backs KV, rate limiting and the bus. Decided once from the
// environment so every adapter in a process talks to the same place.
import { ConfigError, redisClusterFromEnv } from '@/lib/config';

export type Env = Readonly<Record<string, string | undefined>>;

export type BackendConfig =
  | { kind: 'memory' }
  | { kind: 'redis'; url: string; /** REDIS_CLUSTER=true: `url` is one node of a Redis Cluster. */ cluster: boolean }
  | { kind: 'upstash'; url: string; token: string };

/**
 * REDIS_URL wins over Upstash REST so a deployment that sets both (e.g. an
 * Upstash database reached over TCP) gets the pub/sub-capable transport.
 * A half-configured Upstash pair throws instead of silently falling back to
 * memory: memory is per instance, so limits and fan-out would quietly break.
 */
export function backendFromEnv(env: Env = process.env): BackendConfig {
  const redisUrl = env.REDIS_URL?.trim();
  if (redisUrl) {
    if (!/^rediss?:\/\//.test(redisUrl)) {
      throw new ConfigError('REDIS_URL', 'must be a redis:// or rediss:// URL');
    }
    return { kind: 'redis', url: redisUrl, cluster: redisClusterFromEnv(env) };
  }
  const url = env.UPSTASH_REDIS_REST_URL?.trim();
  const token = env.UPSTASH_REDIS_REST_TOKEN?.trim();
  if (url && token) return { kind: 'upstash', url, token };
  if (url || token) {
    const missing = url ? 'UPSTASH_REDIS_REST_TOKEN' : 'UPSTASH_REDIS_REST_URL';
    throw new ConfigError(missing, 'is required when the other Upstash variable is set');
  }
  return { kind: 'memory' };
}
