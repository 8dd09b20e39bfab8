// Update log on Redis Streams, through an @upstash/redis client: over TCP
// (TcpRequester, plain Redis >= 6.2) or over Upstash REST, one code path.
// One stream key per user: XADD MAXLEN ~ maxLen (approximate: keeps at least
// maxLen, trims whole nodes), XTRIM MINID (now - maxAge) exactly (cheap: at
// most ~maxLen entries), and PEXPIRE maxAge so an idle user's key disappears.
import { createHash } from 'node:crypto';
import type { Redis } from '@upstash/redis';
import { appended, ORDER_STATE_MAX_AGE_MS, type Appended, type LogEntry, type LogOrder, type UpdateLog } from './log';
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
const sha = (script: string) => createHash('sha1').update(script).digest('hex');
/**
 * The same scripts for a Redis Cluster: SPUBLISH on the user's shard channel,
 * which lives in the slot of the script's keys (lib/kv/keys.ts slotKey), as
 * Redis requires of a script's shard channels. Classic PUBLISH would be
 * broadcast to every node of the cluster.
 */
const sharded = (script: string) => script.replace(/'PUBLISH'/g, "'SPUBLISH'");

/**
 * Ordered append (lib/updates/log.ts LogOrder). KEYS[1] log key, KEYS[2] order
 * state (a hash: `last` = last published sequence number, `max` = the
 * highest sequence number handed in, published or waiting, `p<seq>` = a
 * waiting message's updates joined by newlines; JSON text has none).
 * ARGV[1] channel, ARGV[2] max length, ARGV[3] max age ms, ARGV[4] mode
 * (`seq`: store and publish what is in order; `flush`: give up on the gap
 * before ARGV[5]), ARGV[5] sequence number, ARGV[6] the order state's max
 * age ms, ARGV[7] `1` when the change before ARGV[5] is settled (LogOrder),
 * ARGV[8..] the updates' JSON. Without a state (a new user, or one silent for
 * longer than its max age) only sequence number 1, or one whose predecessor
 * is settled, is known to be next; any other waits for the flush.
 * Answers {status, ids...}.
 */
const APPEND_ORDERED = `
local t = redis.call('TIME')
local nowMs = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local seq = tonumber(ARGV[5])
local lastText = redis.call('HGET', KEYS[2], 'last')
local last
if ARGV[4] == 'seq' then
  if lastText then last = tonumber(lastText) elseif ARGV[7] == '1' then last = seq - 1 else last = 0 end
  if seq <= last then return {'late'} end
  local payload = {}
  for i = 8, #ARGV do payload[#payload + 1] = ARGV[i] end
  redis.call('HSET', KEYS[2], 'p' .. seq, table.concat(payload, '\\n'))
  local maxText = redis.call('HGET', KEYS[2], 'max')
  if not maxText or tonumber(maxText) < seq then redis.call('HSET', KEYS[2], 'max', seq) end
else
  if redis.call('HEXISTS', KEYS[2], 'p' .. seq) == 0 then return {'published'} end
  last = tonumber(lastText or '0')
  local s = last + 1
  while s < seq and redis.call('HEXISTS', KEYS[2], 'p' .. s) == 0 do s = s + 1 end
  last = s - 1
end
local ids = {'published'}
local s = last + 1
while true do
  local waiting = redis.call('HGET', KEYS[2], 'p' .. s)
  if not waiting then break end
  redis.call('HDEL', KEYS[2], 'p' .. s)
  for u in string.gmatch(waiting, '[^\\n]+') do
    local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*', 'u', u)
    redis.call('PUBLISH', ARGV[1], '{"id":"' .. id .. '","update":' .. u .. '}')
    ids[#ids + 1] = id
  end
  last = s
  s = s + 1
end
redis.call('HSET', KEYS[2], 'last', last)
redis.call('PEXPIRE', KEYS[2], ARGV[6])
if last < seq then ids[1] = 'pending' end
if #ids > 1 then
  redis.call('XTRIM', KEYS[1], 'MINID', tostring(nowMs - tonumber(ARGV[3])))
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
return ids
`;


const ERASE = `return redis.call('XTRIM', KEYS[1], 'MAXLEN', 0)`;
const ERASE_SHA = sha(ERASE);

export interface RedisLogLimits {
  maxLen: number;
  maxAgeMs: number;
  /** A Redis Cluster: publish with SPUBLISH (sharded Pub/Sub). */
  sharded?: boolean;
}

interface Script {
  text: string;
  sha: string;
}

const script = (text: string): Script => ({ text, sha: sha(text) });

export class RedisUpdateLog implements UpdateLog {
  private readonly append: Script;
  private readonly appendOrdered: Script;

  constructor(
    private readonly client: () => Redis,
    readonly kind: 'redis' | 'upstash',
    private readonly limits: RedisLogLimits,
  ) {
    this.append = script(limits.sharded ? sharded(APPEND) : APPEND);
    this.appendOrdered = script(limits.sharded ? sharded(APPEND_ORDERED) : APPEND_ORDERED);
  }

  private async script(text: string, sha: string, keys: string[], args: string[]): Promise<unknown> {
    const redis = this.client();
    try {
      return await redis.evalsha(sha, keys, args);
    } catch (err) {
      if (!/NOSCRIPT/i.test(err instanceof Error ? err.message : String(err))) throw err;
      return redis.eval(text, keys, args);
    }
  }

  async appendAndPublish(logKey: string, channel: string, updates: string[], order?: LogOrder): Promise<Appended> {
    if (order) return this.ordered(logKey, channel, order, 'seq', updates);
    if (updates.length === 0) return appended([], 'published');
    const args = [channel, String(this.limits.maxLen), String(this.limits.maxAgeMs), ...updates];
    const reply = await this.script(this.append.text, this.append.sha, [logKey], args);
    if (!Array.isArray(reply)) throw new Error('update log: unexpected reply to the append script');
    return appended(reply.map(String), 'published');
  }

  async flushThrough(logKey: string, channel: string, order: LogOrder): Promise<string[]> {
    return this.ordered(logKey, channel, order, 'flush', []);
  }

  private async ordered(logKey: string, channel: string, order: LogOrder, mode: 'seq' | 'flush', updates: string[]): Promise<Appended> {
    const args = [channel, String(this.limits.maxLen), String(this.limits.maxAgeMs), mode, String(order.seq), String(ORDER_STATE_MAX_AGE_MS), order.settled ? '1' : '0', ...updates];
    const reply = await this.script(this.appendOrdered.text, this.appendOrdered.sha, [logKey, order.stateKey], args);
    if (!Array.isArray(reply) || reply.length === 0) throw new Error('update log: unexpected reply to the ordered append script');
    const [status, ...ids] = reply.map(String);
    return appended(ids, status as 'published' | 'pending' | 'late');
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

  async publishedThrough(stateKey: string): Promise<number | null> {
    const last = (await this.client().hget(stateKey, 'last')) as unknown;
    return last === null || last === undefined ? null : Number(last);
  }

  async latestSeq(stateKey: string): Promise<number | null> {
    const max = (await this.client().hget(stateKey, 'max')) as unknown;
    return max === null || max === undefined ? null : Number(max);
  }

  async erase(logKey: string): Promise<void> {
    // XTRIM to nothing, not DEL: the stream keeps its last id, so later ids still increase.
    await this.script(ERASE, ERASE_SHA, [logKey], []);
  }

  async lastId(logKey: string): Promise<string | null> {
    // Raw reply [[id, fields]] (newest first), or [] for a missing key.
    const raw = (await this.client().xrevrange(logKey, '+', '-', 1)) as unknown;
    if (!Array.isArray(raw) || raw.length === 0) return null;
    const newest = raw[0] as unknown;
    return Array.isArray(newest) && newest.length > 0 ? String(newest[0]) : null;
  }
}
