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
import { kvKey } from '@/lib/kv/keys';
import { MemoryUpdateLog } from './log-memory';
import { RedisUpdateLog } from './log-redis';

export { compareLogIds, decodeBusMessage, encodeBusMessage, MIN_LOG_ID, parseLogId, resumableId } from './log-ids';

/** Retention: at least this long or this many messages per user (docs/api.md, GET /v1/sse/updates). */
export const LOG_MAX_AGE_MS = 15 * 60 * 1000;
export const LOG_MAX_LEN = 1000;

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
  appendAndPublish(logKey: string, channel: string, updates: string[]): Promise<string[]>;
  /**
   * What the log still holds after `afterId` (exclusive), oldest first. A null
   * id, or one older than everything retained, answers everything retained.
   */
  readAfter(logKey: string, afterId: string | null): Promise<LogEntry[]>;
  /** The id of the newest message the log holds for the user; null when it holds none. */
  lastId(logKey: string): Promise<string | null>;
}

export const userLogKey = (appId: string, userId: string) => kvKey('updlog', appId, userId);

export function createUpdateLog(): UpdateLog {
  const kind = getKv().kind;
  if (kind === 'memory') {
    return new MemoryUpdateLog(() => getBus(), { maxLen: LOG_MAX_LEN, maxAgeMs: LOG_MAX_AGE_MS });
  }
  // Shares the KV's @upstash/redis client (over TCP or REST): no connection of
  // its own. Looked up per call so a closed and reopened KV is followed.
  return new RedisUpdateLog(() => redisClientOf(getKv())!, kind, { maxLen: LOG_MAX_LEN, maxAgeMs: LOG_MAX_AGE_MS });
}

const SLOT = Symbol.for('questline.updateLog');
type Slot = { [SLOT]?: UpdateLog };
const slot = globalThis as typeof globalThis & Slot;

/** The process-wide update log (created on first use). */
export function getUpdateLog(): UpdateLog {
  slot[SLOT] ??= createUpdateLog();
  return slot[SLOT];
}

/** Forgets the process-wide log (tests and shutdown; it owns no connection). */
export function resetUpdateLog(): void {
  slot[SLOT] = undefined;
}
