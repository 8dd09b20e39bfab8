// Update log on Redis Streams, through an @upstash/redis client: over TCP
// (TcpRequester, plain Redis >= 6.2) or over Upstash REST, one code path.
// One stream key per user: XADD MAXLEN ~ maxLen (approximate: keeps at least
// maxLen, trims whole nodes), XTRIM MINID (now - maxAge) exactly (cheap: at
// most ~maxLen entries), and PEXPIRE maxAge so an idle user's key disappears.
import { createHash } from 'node:crypto';
import type { Redis } from '@upstash/redis';
import type { LogEntry, UpdateLog } from './log';
import { parseLogId } from './log-ids';

/**
 * Append and publish in one script, so PUBLISH order equals id order for
 * every writer on every instance. The bus message is `{"id","update"}`
 * (lib/updates/log-ids.ts encodeBusMessage makes the same text in process).
 * KEYS[1] log key; ARGV[1] channel, ARGV[2] max length, ARGV[3] max age ms,
 * ARGV[4..] the updates' JSON.
 */
const APPEND = `
local t = redis.call('TIME')
local nowMs = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ids = {}
for i = 4, #ARGV do
  local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*', 'u', ARGV[i])
  redis.call('PUBLISH', ARGV[1], '{"id":"' .. id .. '","update":' .. ARGV[i] .. '}')
  ids[#ids + 1] = id
end
redis.call('XTRIM', KEYS[1], 'MINID', tostring(nowMs - tonumber(ARGV[3])))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return ids
`;
const APPEND_SHA = createHash('sha1').update(APPEND).digest('hex');

export interface RedisLogLimits {
  maxLen: number;
  maxAgeMs: number;
}

export class RedisUpdateLog implements UpdateLog {
  constructor(
    private readonly client: () => Redis,
    readonly kind: 'redis' | 'upstash',
    private readonly limits: RedisLogLimits,
  ) {}

  async appendAndPublish(logKey: string, channel: string, updates: string[]): Promise<string[]> {
    if (updates.length === 0) return [];
    const redis = this.client();
    const args = [channel, String(this.limits.maxLen), String(this.limits.maxAgeMs), ...updates];
    let reply: unknown;
    try {
      reply = await redis.evalsha(APPEND_SHA, [logKey], args);
    } catch (err) {
      if (!/NOSCRIPT/i.test(err instanceof Error ? err.message : String(err))) throw err;
      reply = await redis.eval(APPEND, [logKey], args);
    }
    if (!Array.isArray(reply)) throw new Error('update log: unexpected reply to the append script');
    return reply.map(String);
  }

  async readAfter(logKey: string, afterId: string | null): Promise<LogEntry[]> {
    const start = afterId !== null && parseLogId(afterId) ? `(${afterId}` : '-';
    // Automatic deserialisation is off, so this is the raw reply
    // [[id, [field, value, ...]], ...], oldest first.
    const raw = (await this.client().xrange(logKey, start, '+')) as unknown;
    if (!Array.isArray(raw)) return [];
    const out: LogEntry[] = [];
    for (const item of raw as unknown[]) {
      if (!Array.isArray(item) || item.length < 2 || !Array.isArray(item[1])) continue;
      const fields = item[1] as unknown[];
      for (let i = 0; i + 1 < fields.length; i += 2) {
        if (String(fields[i]) === 'u') out.push({ id: String(item[0]), update: String(fields[i + 1]) });
      }
    }
    return out;
  }

  async lastId(logKey: string): Promise<string | null> {
    // Raw reply [[id, fields]] (newest first), or [] for a missing key.
    const raw = (await this.client().xrevrange(logKey, '+', '-', 1)) as unknown;
    if (!Array.isArray(raw) || raw.length === 0) return null;
    const newest = raw[0] as unknown;
    return Array.isArray(newest) && newest.length > 0 ? String(newest[0]) : null;
  }
}
