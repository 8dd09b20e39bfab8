// In-process update log for the embedded default (one instance): a ring per
// user, bounded three ways so memory cannot grow without limit:
// - per user: the newest `maxLen` messages, none older than `maxAgeMs`;
// - users: at most `maxUsers` logs; idle ones (nothing newer than maxAgeMs)
//   are dropped as new appends come in, and the least recently written log
//   goes first when the count is over;
// - total messages across users: at most `maxTotal` (least recently written
//   users' logs are dropped first).
import type { Bus } from '@/lib/bus';
import { appended, ORDER_STATE_MAX_AGE_MS, type Appended, type LogEntry, type LogOrder, type UpdateLog } from './log';
import { encodeBusMessage, parseLogId } from './log-ids';

interface Stored extends LogEntry {
  ms: number;
  seq: number;
}

interface OrderState {
  /** The last sequence number published. */
  last: number;
  /** The highest sequence number handed in (published or waiting). */
  max?: number;
  /** Messages that came before their predecessors, by sequence number. */
  waiting: Map<number, string[]>;
  touchedMs: number;
}

interface UserLog {
  entries: Stored[];
  lastWriteMs: number;
}

export interface MemoryLogLimits {
  maxLen: number;
  maxAgeMs: number;
  maxUsers?: number;
  maxTotal?: number;
}

export class MemoryUpdateLog implements UpdateLog {
  readonly kind = 'memory' as const;
  /** Insertion order = least recently written first (re-inserted on write). */
  private readonly logs = new Map<string, UserLog>();
  /** Per-user order states, least recently touched first. */
  private readonly orders = new Map<string, OrderState>();
  private total = 0;
  private lastMs = 0;
  private lastSeq = 0;
  private readonly maxUsers: number;
  private readonly maxTotal: number;

  constructor(
    private readonly bus: () => Bus,
    private readonly limits: MemoryLogLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.maxUsers = limits.maxUsers ?? 10_000;
    this.maxTotal = limits.maxTotal ?? 100_000;
  }

  async appendAndPublish(logKey: string, channel: string, updates: string[], order?: LogOrder): Promise<Appended> {
    if (order) return this.ordered(logKey, channel, order, updates);
    return appended(await this.publish(logKey, channel, updates), 'published');
  }

  async flushThrough(logKey: string, channel: string, order: LogOrder): Promise<string[]> {
    const state = this.orders.get(order.stateKey);
    if (!state || !state.waiting.has(order.seq)) return appended([], 'published');
    // Give up on the sequence numbers before the first one waiting.
    let s = state.last + 1;
    while (s < order.seq && !state.waiting.has(s)) s++;
    state.last = s - 1;
    return this.drain(logKey, channel, order.stateKey, state);
  }

  /** The same steps as the Redis script (lib/updates/log-redis.ts), with no await before the publishes are queued. */
  private async ordered(logKey: string, channel: string, order: LogOrder, updates: string[]): Promise<Appended> {
    const now = this.now();
    let state = this.orders.get(order.stateKey);
    if (!state || state.touchedMs < now - ORDER_STATE_MAX_AGE_MS) {
      // Only the first change, or one whose predecessor is settled, is known to be next (see ORDER_STATE_MAX_AGE_MS).
      state = { last: order.settled ? order.seq - 1 : 0, waiting: new Map(), touchedMs: now };
    }
    if (order.seq <= state.last) return appended([], 'late');
    state.waiting.set(order.seq, updates);
    state.max = Math.max(state.max ?? 0, order.seq);
    this.orders.delete(order.stateKey);
    this.orders.set(order.stateKey, state);
    this.evictOrders(now);
    const ids = await this.drain(logKey, channel, order.stateKey, state);
    return appended(ids, state.last < order.seq ? 'pending' : 'published');
  }

  private drain(logKey: string, channel: string, stateKey: string, state: OrderState): Promise<string[]> {
    const batch: string[] = [];
    for (let s = state.last + 1; state.waiting.has(s); s++) {
      batch.push(...state.waiting.get(s)!);
      state.waiting.delete(s);
      state.last = s;
    }
    state.touchedMs = this.now();
    return this.publish(logKey, channel, batch);
  }

  /** Order states idle for longer than the log's age are forgotten (as the Redis key expires). */
  private evictOrders(now: number): void {
    for (const [key, state] of this.orders) {
      if (state.touchedMs >= now - ORDER_STATE_MAX_AGE_MS && this.orders.size <= this.maxUsers * 10) break;
      this.orders.delete(key);
    }
  }

  private async publish(logKey: string, channel: string, updates: string[]): Promise<string[]> {
    const bus = this.bus();
    const ids: string[] = [];
    // No await between append and publish: MemoryBus.publish queues the
    // delivery synchronously, so publish order is id order.
    const publishing: Promise<void>[] = [];
    for (const update of updates) {
      const entry = this.append(logKey, update);
      ids.push(entry.id);
      publishing.push(bus.publish(channel, encodeBusMessage(entry.id, update)));
    }
    await Promise.all(publishing);
    return ids;
  }

  async readAfter(logKey: string, afterId: string | null): Promise<LogEntry[]> {
    const log = this.logs.get(logKey);
    if (!log) return [];
    this.expire(log, this.now());
    const after = afterId === null ? null : parseLogId(afterId);
    const out: LogEntry[] = [];
    for (const e of log.entries) {
      if (after && (e.ms < after[0] || (e.ms === after[0] && e.seq <= after[1]))) continue;
      out.push({ id: e.id, update: e.update });
    }
    return out;
  }

  async publishedThrough(stateKey: string): Promise<number | null> {
    const state = this.orders.get(stateKey);
    return state && state.touchedMs >= this.now() - ORDER_STATE_MAX_AGE_MS ? state.last : null;
  }

  async latestSeq(stateKey: string): Promise<number | null> {
    const state = this.orders.get(stateKey);
    return state && state.touchedMs >= this.now() - ORDER_STATE_MAX_AGE_MS ? (state.max ?? null) : null;
  }

  async lastId(logKey: string): Promise<string | null> {
    const log = this.logs.get(logKey);
    if (!log) return null;
    this.expire(log, this.now());
    return log.entries.at(-1)?.id ?? null;
  }

  async erase(logKey: string): Promise<void> {
    const log = this.logs.get(logKey);
    if (!log) return;
    this.total -= log.entries.length;
    log.entries = [];
  }

  /** For tests and the soak script. */
  stats(): { users: number; messages: number } {
    return { users: this.logs.size, messages: this.total };
  }

  private append(logKey: string, update: string): Stored {
    const now = this.now();
    // Process-wide monotonic (ms, seq), so ids never go back even when the
    // clock does or a dropped user's log is started again.
    if (now > this.lastMs) {
      this.lastMs = now;
      this.lastSeq = 0;
    } else {
      this.lastSeq += 1;
    }
    const entry: Stored = { id: `${this.lastMs}-${this.lastSeq}`, update, ms: this.lastMs, seq: this.lastSeq };
    let log = this.logs.get(logKey);
    if (log) this.logs.delete(logKey);
    else log = { entries: [], lastWriteMs: now };
    log.entries.push(entry);
    log.lastWriteMs = now;
    this.total += 1;
    this.logs.set(logKey, log);
    if (log.entries.length > this.limits.maxLen) {
      const dropped = log.entries.length - this.limits.maxLen;
      log.entries.splice(0, dropped);
      this.total -= dropped;
    }
    this.expire(log, now);
    this.evict(now, log);
    return entry;
  }

  private expire(log: UserLog, now: number): void {
    const cutoff = now - this.limits.maxAgeMs;
    let n = 0;
    while (n < log.entries.length && log.entries[n].ms < cutoff) n++;
    if (n > 0) {
      log.entries.splice(0, n);
      this.total -= n;
    }
  }

  /** Drops idle logs, then the least recently written ones while over a bound. */
  private evict(now: number, keep: UserLog): void {
    const idleBefore = now - this.limits.maxAgeMs;
    for (const [key, log] of this.logs) {
      if (log === keep) break;
      const over = this.logs.size > this.maxUsers || this.total > this.maxTotal;
      if (!over && log.lastWriteMs >= idleBefore) break;
      this.logs.delete(key);
      this.total -= log.entries.length;
    }
  }
}
