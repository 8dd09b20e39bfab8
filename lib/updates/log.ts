// The per-user update log behind the stream's `id:` lines and resume
// (Last-Event-ID). One port, three adapters chosen like the KV and the bus:
// Redis Streams over TCP, the same commands over Upstash REST, and an
// in-process ring for the embedded default.
//
// Ids are `<ms>-<seq>` strings (Redis stream ids; the memory ring makes ids of
// the same shape), increasing per user, compared by (ms, seq). Clients treat
// them as opaque.
//
// The one invariant the stream relies on: for a given user, messages are
// published on the bus in id order, even with concurrent writers on several
// instances. So append and publish are one step per message: one Lua script
// (XADD then PUBLISH) on Redis, one synchronous section in process.
import { getBus } from '@/lib/bus';
import { getKv, redisClientOf } from '@/lib/kv';
import { redisClusterKeys, slotKey } from '@/lib/kv/keys';
import { MemoryUpdateLog } from './log-memory';
import { RedisUpdateLog } from './log-redis';

export { compareLogIds, decodeBusMessage, MIN_LOG_ID, resumableId } from './log-ids';

/** Retention: at least this long or this many messages per user (docs/api.md, GET /v1/sse/updates). */
export const LOG_MAX_AGE_MS = 15 * 60 * 1000;
const LOG_MAX_LEN = 1000;


export interface LogEntry {
  id: string;
  /** The JSON text of the SdkUpdate `{type, data}`. */
  update: string;
}

export interface UpdateLog {
  readonly kind: 'memory' | 'redis' | 'upstash';
  /**
   * Appends each update to the user's log and publishes `{"id","update"}` on
   * `channel`, message by message, so that publish order equals id order.
   * Answers the ids given, in order.
   */
  appendAndPublish(logKey: string, channel: string, updates: string[], order?: LogOrder): Promise<Appended>;
  /**
   * Publishes what waits in the user's order state up to `seq`, skipping
   * sequence numbers that never came (a change whose publisher died after
   * commit). Called by a publisher whose message had to wait for a gap.
   */
  flushThrough(logKey: string, channel: string, order: LogOrder): Promise<string[]>;
  /**
   * What the log still holds after `afterId` (exclusive), oldest first. A null
   * id, or one older than everything retained, answers everything retained.
   */
  readAfter(logKey: string, afterId: string | null): Promise<LogEntry[]>;
  /** The id of the newest message the log holds for the user; null when it holds none. */
  lastId(logKey: string): Promise<string | null>;
  /**
   * Drops every message the log holds for the user (a data erasure). Later
   * messages still get higher ids, so a client's Last-Event-ID stays valid.
   */
  erase(logKey: string): Promise<void>;
  /**
   * The last sequence number published from the user's order state; null
   * when there is no state (a new or long-idle user, or a Redis that came
   * back empty). Compared with the database's number to find changes whose
   * messages never reached the log (lib/updates/resync.ts).
   */
  publishedThrough(stateKey: string): Promise<number | null>;
  /**
   * The highest sequence number handed to the user's order state, published
   * or still waiting for a gap; null when there is no state or it predates
   * this field. The mission list trusts the cached user state (lib/progress/user-state.ts)
   * only while it equals the number the cached state is at.
   */
  latestSeq(stateKey: string): Promise<number | null>;
}

// slotKey: on a Redis Cluster the log, the order state and the channel (lib/updates/publish.ts)
// of one user share a hash slot, which the append scripts (lib/updates/log-redis.ts) need.
export const userLogKey = (appId: string, userId: string) => slotKey('updlog', appId, userId);
/** Where the user's last published sequence number and the messages waiting for a gap are kept. */
export const userOrderKey = (appId: string, userId: string) => slotKey('updseq', appId, userId);

/**
 * A message's place in its user's order: the sequence number its change got
 * in the database transaction (user_sequences: lib/events/write-event.ts, lib/progress/records.ts). Messages are
 * appended and published in sequence order whatever order their publishers
 * arrive in: one that comes before its predecessor waits in the order state
 * until the predecessor arrives (or until flushThrough gives up on it); one
 * that comes after a later one was published (`late`) is dropped, so a stream
 * never shows an older state after a newer one.
 */
export interface LogOrder {
  stateKey: string;
  seq: number;
  /**
   * The change before `seq` committed at least PREDECESSOR_SETTLED_MS ago: its
   * publisher has published it or died long since. With no order state (a
   * user back after more than ORDER_STATE_MAX_AGE_MS), `seq` goes out at once
   * instead of waiting GAP_WAIT_MS for it and repairing the stream.
   */
  settled?: boolean;
}

/**
 * How long after a change committed its predecessor counts as settled
 * (LogOrder.settled): far longer than a publish takes (milliseconds) or a
 * request lives (the server's request timeout).
 */
export const PREDECESSOR_SETTLED_MS = 5 * 60 * 1000;

/** The ids appended by the call (a waiting message's later predecessor appends it), and how it went. */
export type Appended = string[] & { status?: 'published' | 'pending' | 'late' };

export function appended(ids: string[], status: 'published' | 'pending' | 'late'): Appended {
  // Not enumerable: the answer still compares equal to a plain array of ids.
  return Object.defineProperty(ids, 'status', { value: status, enumerable: false });
}

/**
 * How long a user's order state (last sequence number published) is kept
 * after their last change. A change after a longer silence cannot tell from
 * the state whether its predecessor is still on its way: unless it is the
 * user's first ever (sequence number 1) or the database says its predecessor
 * is settled (LogOrder.settled), it waits GAP_WAIT_MS (lib/updates/publish.ts).
 */
export const ORDER_STATE_MAX_AGE_MS = 24 * 60 * 60 * 1000;

function createUpdateLog(): UpdateLog {
  const kind = getKv().kind;
  if (kind === 'memory') {
    return new MemoryUpdateLog(() => getBus(), { maxLen: LOG_MAX_LEN, maxAgeMs: LOG_MAX_AGE_MS });
  }
  // Shares the KV's @upstash/redis client (over TCP or REST): no connection of
  // its own. Looked up per call so a closed and reopened KV is followed.
  // On a Redis Cluster the scripts publish with SPUBLISH (sharded Pub/Sub, lib/bus/redis-cluster.ts).
  const sharded = kind === 'redis' && redisClusterKeys();
  return new RedisUpdateLog(() => redisClientOf(getKv())!, kind, { maxLen: LOG_MAX_LEN, maxAgeMs: LOG_MAX_AGE_MS, sharded });
}

const SLOT = Symbol.for('questline.updateLog');
type Slot = { [SLOT]?: UpdateLog };
const slot = globalThis as typeof globalThis & Slot;

/** The process-wide update log (created on first use). */
export function getUpdateLog(): UpdateLog {
  slot[SLOT] ??= createUpdateLog();
  return slot[SLOT];
}
