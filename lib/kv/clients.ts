// Builds the @upstash/redis clients used by KV and rate limiting, over HTTP
// (Upstash REST) or over TCP (plain Redis through TcpRequester).
import { Cluster, Redis as IORedis, type RedisOptions } from 'ioredis';
import { Redis, type Requester, type UpstashRequest, type UpstashResponse } from '@upstash/redis';
import { ConfigError } from '@/lib/config';
import { outageAnnounced } from '@/lib/log-outage';
import { processWide } from '@/lib/process-wide';
import { throughBreaker } from './breaker';
import type { RedisConnection } from './connection';
import { TcpRequester } from './tcp-requester';

/** Default bound on one Redis command (REDIS_COMMAND_TIMEOUT_MS). */
const DEFAULT_REDIS_COMMAND_TIMEOUT_MS = 2_000;

/**
 * The bound on one Redis command, over TCP or REST: REDIS_COMMAND_TIMEOUT_MS
 * (default 2 s). A Redis that answers slowly or not at all (a hung server, a
 * dropped route) then fails the command instead of holding the request.
 */
function redisCommandTimeoutMs(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const raw = env.REDIS_COMMAND_TIMEOUT_MS?.trim();
  if (!raw) return DEFAULT_REDIS_COMMAND_TIMEOUT_MS;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 10 || ms > 60_000) {
    throw new ConfigError('REDIS_COMMAND_TIMEOUT_MS', 'must be a whole number of milliseconds from 10 to 60000');
  }
  return ms;
}

// The last connection error any ioredis client of this process met ('connect ECONNREFUSED …'): a command
// that gave up only says it ran out of retries, and start-up's warning names the reason (lib/boot.ts).
const lastConnectionError = processWide('redis.last-connection-error', () => ({ message: '' }));

/** The last connection error of a Redis client of this process, or null. */
export function lastRedisConnectionError(): string | null {
  return lastConnectionError.message || null;
}

/**
 * ioredis connection with fail-fast settings: a web request should get an
 * error within a few seconds rather than wait through 20 silent retries, and
 * no command waits longer than REDIS_COMMAND_TIMEOUT_MS for its reply.
 * Errors are logged (once per distinct message) because an unhandled ioredis
 * 'error' event is noisy and would otherwise hide the reason.
 */
export function connectIORedis(url: string, role: string, options: { autoPipelining?: boolean } = {}): IORedis {
  const redis = new IORedis(url, {
    connectionName: `questline:${role}`,
    maxRetriesPerRequest: 2,
    connectTimeout: 5_000,
    // Commands issued in the same tick (a request's token checks, rate limit
    // and cache read; its publish and cache write) leave in one write.
    enableAutoPipelining: options.autoPipelining ?? false,
    commandTimeout: redisCommandTimeoutMs(),
  });
  logConnectionErrors(redis, role);
  return redis;
}


/**
 * An ioredis Cluster client seeded with the node REDIS_URL names (the others
 * come from its CLUSTER SLOTS), with the bounds of connectIORedis on every
 * node connection. A command whose node went away (a master failing over to
 * its replica) is retried on the refreshed slot map (retryDelayOnFailover,
 * up to maxRedirections) before it fails as unavailable. `shardedSubscribers`:
 * SSUBSCRIBE goes to one subscriber connection per master (lib/bus/redis-cluster.ts).
 */
export function connectIORedisCluster(url: string, role: string, options: { shardedSubscribers?: boolean } = {}): Cluster {
  const seed = new URL(url);
  const tls = seed.protocol === 'rediss:';
  const redisOptions: RedisOptions = {
    connectionName: `questline:${role}`,
    maxRetriesPerRequest: 2,
    connectTimeout: 5_000,
    commandTimeout: redisCommandTimeoutMs(),
    ...(seed.username ? { username: decodeURIComponent(seed.username) } : {}),
    ...(seed.password ? { password: decodeURIComponent(seed.password) } : {}),
    ...(tls ? { tls: { servername: seed.hostname } } : {}),
  };
  const cluster = new Cluster([{ host: seed.hostname, port: Number(seed.port || 6379) }], {
    redisOptions,
    // No auto-pipelining on a cluster. ioredis batches the commands of one tick per node and
    // handles a MOVED reply for the batch as a whole: it is retried only when every error in it
    // is the same and every command that succeeded is a read. After a failover (the slot map
    // changes under the batch) two slots' MOVED differ, or a write in it succeeded, and each
    // MOVED went back to its caller as a reply error, which the service answered 500
    // (ioredis issues #1692, #2075). Sent one by one, every command follows MOVED and is
    // retried through the failover (below). The explicit batches the limiter and the update
    // log send keep all their keys in one slot (lib/kv/keys.ts), so their MOVED is one.
    enableAutoPipelining: false,
    shardedSubscribers: options.shardedSubscribers ?? false,
    // A failover takes the cluster's node timeout and an election: a command to the
    // failed master is retried every 100 ms on a refreshed slot map, 16 times at most.
    retryDelayOnFailover: 100,
    retryDelayOnClusterDown: 100,
    maxRedirections: 16,
    slotsRefreshTimeout: 2_000,
    // Managed clusters over TLS announce node addresses the certificate names: no lookup of our own.
    ...(tls ? { dnsLookup: (address: string, callback: (err: Error | null, address: string) => void) => callback(null, address) } : {}),
  });
  logConnectionErrors(cluster, role);
  return cluster;
}

/** Errors are logged once per distinct message; a later 'ready' clears it. */
function logConnectionErrors(redis: RedisConnection, role: string): void {
  let lastError = '';
  redis.on('error', (err: Error) => {
    lastConnectionError.message = err.message;
    if (err.message === lastError) return;
    lastError = err.message;
    // Start-up already said in one line that the store is unreachable (lib/boot.ts).
    if (outageAnnounced()) return;
    console.error(`[redis:${role}] ${err.message}`);
  });
  redis.on('ready', () => {
    lastError = '';
  });
}

/**
 * `new Redis(requester)` from @upstash/redis ignores client options (see
 * platforms/nodejs.ts), so automatic JSON deserialisation would stay on and
 * a stored '{"a":1}' or '42' would come back as an object or a number.
 * `opts` is protected, so a subclass may set it; commands read it per call.
 */
class RawRedis extends Redis {
  constructor(requester: Requester) {
    super(requester);
    this.opts = { automaticDeserialization: false };
  }
}

/** An @upstash/redis client on any requester, without JSON deserialisation. */
export function createRawRedis(requester: Requester): Redis {
  return new RawRedis(requester);
}

export interface RedisClientHandle {
  client: Redis;
  close(): Promise<void>;
}

export interface TcpRedisClientHandle extends RedisClientHandle {
  /** The ioredis connection under `client` (the KV's plain commands go straight to it). */
  connection: RedisConnection;
}

export function createTcpRedisClient(url: string, cluster = false): TcpRedisClientHandle {
  const connection = cluster ? connectIORedisCluster(url, 'kv') : connectIORedis(url, 'kv', { autoPipelining: true });
  return {
    connection,
    client: createRawRedis(new TcpRequester(connection)),
    close: async () => {
      await connection.quit().catch(() => connection.disconnect());
    },
  };
}

/**
 * Upstash REST with the same bounds as the TCP client: every command is
 * abandoned after REDIS_COMMAND_TIMEOUT_MS (one signal covers the request,
 * its one quick retry and the body), and goes through the process-wide
 * breaker (REDIS_BREAKER_MS), so an Upstash that stalls or refuses fails a
 * request's later Redis calls at once instead of each waiting out its own
 * timeout. @upstash/redis's own default (5 retries with exponential backoff,
 * about 4 s on a refused connection, per command) is replaced by one retry.
 */
export function createHttpRedisClient(url: string, token: string): RedisClientHandle {
  const http = new Redis({
    url,
    token,
    // KV values are opaque strings; never JSON.parse them.
    automaticDeserialization: false,
    enableAutoPipelining: false,
    retry: { retries: 1, backoff: () => 50 },
    // A fresh signal per request: the REST call is abandoned after the same bound as a TCP command.
    signal: () => AbortSignal.timeout(redisCommandTimeoutMs()),
  });
  // The client's HTTP requester (protected on the class), wrapped by the breaker.
  const inner = (http as unknown as { client: Requester }).client;
  const client = createRawRedis(new BreakerRequester(inner));
  // Off so HTTP sends one request per command, exactly the shapes the TCP
  // requester is tested with; batching can be turned on once measured.
  (client as unknown as { enableAutoPipelining: boolean }).enableAutoPipelining = false;
  // fetch keeps no connection we own, so there is nothing to close.
  return { client, close: async () => {} };
}

/** A requester whose every call goes through the Redis breaker (lib/kv/breaker.ts). */
class BreakerRequester implements Requester {
  constructor(private readonly inner: Requester) {}

  request<TResult = unknown>(req: UpstashRequest): Promise<UpstashResponse<TResult>> {
    return throughBreaker(() => this.inner.request<TResult>(req));
  }
}
