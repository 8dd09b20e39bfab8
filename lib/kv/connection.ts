// The one TCP connection type of lib/kv: a single Redis or a Redis Cluster (ioredis).
import type { Cluster, Redis } from 'ioredis';

/** A connection to a single Redis or to a Redis Cluster (REDIS_CLUSTER=true): the commands Questline sends are the same. */
export type RedisConnection = Redis | Cluster;
