// Key-value and channel names built from tenant data. Every part is
// URI-encoded, so no part can contain the `:` separator: app "a" with user
// "b:c" and app "a:b" with user "c" can never share a key (which would leak
// one tenant's idempotent responses or revocations to another). Nor can a
// part contain `{` or `}`, so the only hash tag a key has is the one
// slotKey puts there.
export function kvKey(prefix: string, ...parts: string[]): string {
  return [prefix, ...parts.map(encodeURIComponent)].join(':');
}

/**
 * True when REDIS_CLUSTER names a Redis Cluster (lib/config.ts checks the
 * value at start-up; read here per call, as cheap as a string compare).
 */
export function redisClusterKeys(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  return Boolean(env.REDIS_URL?.trim()) && /^(true|1)$/i.test(env.REDIS_CLUSTER?.trim() ?? '');
}

/**
 * A key (or shard channel) that a Lua script uses together with others of
 * the same parts: on a Redis Cluster the parts become a hash tag
 * (`updlog:{app:user}`), so every key and channel of one user lives in one
 * hash slot and one script may touch them all (no CROSSSLOT). On a single
 * Redis the name stays kvKey's (`updlog:app:user`): an upgrade keeps finding
 * the keys it wrote before (the order state, the log a stream resumes from).
 */
export function slotKey(prefix: string, ...parts: string[]): string {
  if (!redisClusterKeys()) return kvKey(prefix, ...parts);
  return `${prefix}:{${parts.map(encodeURIComponent).join(':')}}`;
}

/**
 * A free-form identifier (a rate limiter's) as a hash tag on a Redis Cluster,
 * so the keys the limiter derives from it (`<prefix>:<identifier>:<window>`,
 * two windows per script) share a slot; unchanged on a single Redis. Braces
 * and `%` inside are escaped so the tag is the whole identifier and two
 * identifiers never share one.
 */
export function slotTag(identifier: string, cluster = redisClusterKeys()): string {
  if (!cluster) return identifier;
  return `{${identifier.replace(/[%{}]/g, (c) => encodeURIComponent(c))}}`;
}
