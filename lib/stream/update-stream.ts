// One open update stream (GET /v1/sse/updates, and the inspector's
// GET /api/admin/apps/:appId/users/:userId/updates): what it has sent, the live
// messages it holds back while it reads the log, the keep-alive tick (one
// shared timer wheel for all streams) and the clean-up. lib/http/v1/sse.ts opens
// it; the ordering rules are described there.
import { getBus, type Unsubscribe } from '@/lib/bus';
import { AppError, isUnavailableError } from '@/lib/errors';
import { isCircuitOpen } from '@/lib/kv/breaker';
import { kvKey } from '@/lib/kv/keys';
import { logError } from '@/lib/log';
import { outageLog } from '@/lib/log-outage';
import { metrics } from '@/lib/metrics';
import { processWide } from '@/lib/process-wide';
import { compareLogIds, decodeBusMessage, getUpdateLog, type LogEntry } from '@/lib/updates/log';

/** Tunables, exported so tests can make them small. */
export const sseLimits = {
  /** Chunks queued for a reader that does not keep up; beyond this the stream is errored (the client resumes). */
  maxQueuedChunks: 1_000,
  /** Bound on every log read (Upstash REST has no timeout of its own). */
  logReadTimeoutMs: 5_000,
  /** Retry-After of 429 too_many_streams: a slot frees when one of the user's streams ends, which the server cannot foresee. */
  tooManyStreamsRetryMs: 5_000,
};

const encoder = new TextEncoder();

const frame = (entry: LogEntry): string => `id: ${entry.id}\ndata: ${entry.update}\n\n`;

/** Rejects after `ms` with an ETIMEDOUT error (answered 503 `unavailable` if it escapes a handler). */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`${what} timed out after ${ms} ms`), { code: 'ETIMEDOUT' })), ms);
    timer.unref?.();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// The open streams of this process, and how many each app+user holds (the
// SSE_MAX_STREAMS_PER_USER cap). Process-wide, whichever Next.js chunk serves.
const registry = processWide('streams', () => ({ open: new Set<{ close(): void; end(lastWords: string): void }>(), perUser: new Map<string, number>() }));

/** Streams currently open in this process (tests, soak script, metrics). */
export function openStreamCount(): number {
  return registry.open.size;
}

/** The last thing a stream says when the server shuts down (an SSE comment: clients ignore it, people read it). */
const SHUTDOWN_COMMENT = ': server shutting down; reconnect (with Last-Event-ID) to resume\n\n';

/** Ends every open stream cleanly (shutdown) with SHUTDOWN_COMMENT: clients resume elsewhere with Last-Event-ID. */
export function closeAllStreams(): void {
  for (const stream of [...registry.open]) stream.end(SHUTDOWN_COMMENT);
}

/**
 * One keep-alive timer per interval length for all the streams of this
 * process, instead of one per stream: a wheel of up to 150 slots (100 ms each
 * for the 15 s default). Each firing ticks the streams of one slot; a stream
 * joins the slot just behind the current one and stays there, so it ticks
 * once per turn of the wheel (the interval, rounded down to whole slots: never
 * late), and the streams' ticks, with their log and revocation reads, stay
 * spread over the interval as evenly as they were opened. The reads of one
 * slot's streams are sent in the same event-loop turn, which the Redis
 * connection pipelines. The timer stops when its last stream closes.
 */
interface Wheel {
  timer: ReturnType<typeof setInterval>;
  slots: Set<() => void>[];
  cursor: number;
  size: number;
}

const wheels = processWide('stream-wheels', () => new Map<number, Wheel>());

/** Where a stream sits on its wheel, to leave it. */
interface WheelPlace {
  intervalMs: number;
  slot: number;
  tick: () => void;
}

function startTicking(intervalMs: number, tick: () => void): WheelPlace {
  let wheel = wheels.get(intervalMs);
  if (!wheel) {
    const count = Math.max(1, Math.min(150, Math.floor(intervalMs / 10)));
    const sliceMs = Math.max(1, Math.floor(intervalMs / count));
    const w: Wheel = { timer: undefined as unknown as ReturnType<typeof setInterval>, slots: Array.from({ length: count }, () => new Set<() => void>()), cursor: 0, size: 0 };
    w.timer = setInterval(() => {
      const slot = w.slots[w.cursor];
      w.cursor = (w.cursor + 1) % w.slots.length;
      for (const t of [...slot]) t();
    }, sliceMs);
    w.timer.unref?.();
    wheels.set(intervalMs, (wheel = w));
  }
  // The slot just fired: reached again after a whole turn.
  const slot = (wheel.cursor + wheel.slots.length - 1) % wheel.slots.length;
  wheel.slots[slot].add(tick);
  wheel.size++;
  return { intervalMs, slot, tick };
}

function stopTicking(place: WheelPlace): void {
  const wheel = wheels.get(place.intervalMs);
  if (!wheel || !wheel.slots[place.slot].delete(place.tick)) return;
  if (--wheel.size === 0) {
    clearInterval(wheel.timer);
    wheels.delete(place.intervalMs);
  }
}

export interface UpdateStreamOptions {
  /** Whose updates: the stream's log and channel belong to this app and user. */
  owner: { appId: string; userId: string };
  /**
   * Asked on every keep-alive tick (after the keep-alive is written); false
   * closes the stream: the player's token expired or was revoked, or the staff
   * session ended or lost its role.
   */
  stillAuthorized: () => Promise<boolean>;
  /** The per-user cap's count: players' streams and staff streams watching a player are counted apart. */
  capScope?: 'streams' | 'staff-streams';
  logKey: string;
  channel: string;
  keepAliveMs: number;
  signal: AbortSignal;
  /** The id counted as already sent: live and logged messages up to it are skipped. */
  lastSent: string;
  /** Streams one app+user may hold open on this instance; one more is refused (429 too_many_streams). */
  maxPerUser: number;
  /**
   * Called when a log read works again after failing (Redis came back): the
   * opener checks the log against the database (lib/updates/resync.ts).
   */
  onLogRecovered?: () => void;
}

/** Unsubscribes of closing streams that failed because Redis was away or slow: one line when they begin, one when one works again. */
const unsubscribeOutage = outageLog('stream.unsubscribe', 'stream unsubscribe');

/** After a bus reconnect, each stream's catch-up read starts within this long (10,000 streams do not read at once). */
const GAP_CATCH_UP_SPREAD_MS = 1_000;

export class UpdateStream {
  private closed = false;
  /** While true, live messages wait in `buffer` (a log read is in progress). */
  private buffering = true;
  private readonly buffer: LogEntry[] = [];
  private lastSent: string;
  private catchingUp = false;
  /** The last log read failed: the next one that works reports it (onLogRecovered). */
  private logFailed = false;
  private controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  /** Its place on the shared keep-alive wheel, while it ticks. */
  private ticking: WheelPlace | null = null;
  private unsubscribe: Unsubscribe | null = null;
  /** Stops hearing of the bus's reconnects (set while open). */
  private offResubscribed: (() => void) | null = null;
  /** A bus gap came while a catch-up ran: it reads again once its read ends. */
  private catchUpAgain = false;
  /**
   * The bus dropped and came back (messages published meanwhile never
   * arrived), or the replay's read failed: live messages wait in `buffer`
   * until a log read made after that worked (a later message sent first
   * would make the stream skip the missed ones for good: ids only go up).
   */
  private busGap = false;

  private readonly userKey: string;
  /** Subscriptions to channels outside the log (the staff channel), released by close(). */
  private readonly extraUnsubscribes: Unsubscribe[] = [];
  /** Unlogged frames heard before the stream started, written right after its head. */
  private readonly pendingUnlogged: string[] = [];
  /** Unlogged messages are rendered one after the other, so they are written in the order heard. */
  private unloggedChain: Promise<void> = Promise.resolve();

  /** Throws 429 too_many_streams when the user already holds `maxPerUser` streams here; nothing is held then. */
  constructor(private readonly opts: UpdateStreamOptions) {
    this.lastSent = opts.lastSent;
    this.userKey = kvKey(opts.capScope ?? 'streams', opts.owner.appId, opts.owner.userId);
    const held = registry.perUser.get(this.userKey) ?? 0;
    if (held >= opts.maxPerUser) {
      const retryAfterMs = sseLimits.tooManyStreamsRetryMs;
      throw new AppError('too_many_streams', `This user already has ${held} open streams on this server (at most ${opts.maxPerUser}); close one or retry later`, {
        extra: { retryAfterMs },
        headers: { 'Retry-After': String(Math.ceil(retryAfterMs / 1000)) },
      });
    }
    registry.perUser.set(this.userKey, held + 1);
    registry.open.add(this);
    // The gauge reads this process's streams from the first one on (before it, its default 0 is the count).
    metrics().sources.openStreams = openStreamCount;
    this.offResubscribed = getBus().onResubscribed(this.afterBusGap);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** The bus subscription's release, owned from now on (released by close()). */
  adopt(unsubscribe: Unsubscribe): void {
    if (this.closed) void this.release(unsubscribe);
    else this.unsubscribe = unsubscribe;
  }

  /** Another bus subscription's release (a channel outside the log), owned from now on. */
  adoptExtra(unsubscribe: Unsubscribe): void {
    if (this.closed) void this.release(unsubscribe);
    else this.extraUnsubscribes.push(unsubscribe);
  }

  /**
   * A bus listener for messages outside the log (the staff channel,
   * lib/updates/staff.ts): each is rendered by `render` (null: skip) and sent
   * live as a `data:` frame WITHOUT an id, so it never moves the stream's
   * resume point; nothing of it is replayed. Rendered in the order heard.
   */
  unloggedListener(render: (message: string) => Promise<string | null>): (message: string) => void {
    return (message) => {
      if (this.closed) return;
      this.unloggedChain = this.unloggedChain.then(async () => {
        const text = await render(message).catch((err: unknown) => {
          logError('stream: unlogged message not rendered', err, { channel: this.opts.channel });
          return null;
        });
        if (text === null || this.closed) return;
        const frameText = `data: ${text}\n\n`;
        if (this.controller) this.write(frameText);
        else if (this.pendingUnlogged.length < sseLimits.maxQueuedChunks) this.pendingUnlogged.push(frameText);
      });
    };
  }

  /** The bus listener: live messages, held back while the log is being read. */
  readonly onMessage = (message: string): void => {
    if (this.closed) return;
    const entry = decodeBusMessage(message);
    if (!entry) return logError('stream: malformed bus message', null, { channel: this.opts.channel });
    if (!this.buffering) return this.send(entry);
    // Held too long (log reads failing after a bus gap): the client resumes from the log.
    if (this.buffer.length >= sseLimits.maxQueuedChunks) return this.close(new Error('stream: live messages held too long'));
    this.buffer.push(entry);
  };

  /** The bus came back after a drop (called before the messages it held are dispatched). */
  private readonly afterBusGap = (): void => {
    if (this.closed) return;
    this.busGap = true;
    // Live messages wait from now on (catchUp buffers at once, or one is running and reads again).
    this.buffering = true;
    // Not started yet: the start catches up instead of sending what waited.
    if (!this.controller) return;
    // Spread over a second: every stream of the process hears of the same reconnect.
    const timer = setTimeout(() => {
      if (this.closed) return;
      if (this.catchingUp) this.catchUpAgain = true;
      else void this.catchUp();
    }, Math.random() * GAP_CATCH_UP_SPREAD_MS);
    timer.unref?.();
  };

  /**
   * The replay: what the log holds after `lastSent`. On failure (logged)
   * nothing, and live messages wait until a keep-alive tick's read works.
   */
  async readReplay(): Promise<LogEntry[]> {
    const entries = await this.tryReadLog();
    if (entries !== null) return entries;
    this.busGap = true;
    return [];
  }

  /** What the log holds after `lastSent`; null when the read failed (logged). */
  private async tryReadLog(): Promise<LogEntry[] | null> {
    const { logKey, channel } = this.opts;
    try {
      const entries = await withTimeout(getUpdateLog().readAfter(logKey, this.lastSent), sseLimits.logReadTimeoutMs, 'update log read');
      if (this.logFailed) {
        this.logFailed = false;
        this.opts.onLogRecovered?.();
      }
      return entries;
    } catch (err) {
      this.logFailed = true;
      metrics().updateLogErrors.inc();
      if (!isCircuitOpen(err)) logError('stream: update log read failed', err, { channel });
      return null;
    }
  }

  /** A ReadableStream that opens with `: connected` and the replay, then goes live. */
  toReadable(replay: LogEntry[]): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>(
      {
        start: (c) => {
          this.controller = c;
          if (this.closed) return c.close();
          let head = ': connected\n\n';
          for (const entry of replay) head += this.take(entry) ?? '';
          this.write(head + this.pendingUnlogged.splice(0).join(''));
          // The replay's read failed, or a bus gap came during the open (the replay may have been read before it).
          if (this.busGap) void this.catchUp();
          else this.flushBuffer();
          this.ticking = startTicking(this.opts.keepAliveMs, () => void this.tick());
          this.opts.signal.addEventListener('abort', this.onAbort, { once: true });
          if (this.opts.signal.aborted) this.close();
        },
        cancel: () => this.close(),
      },
      // No read-ahead: desiredSize goes negative as soon as a chunk waits.
      { highWaterMark: 0 },
    );
  }

  /**
   * Ends the stream once: clears the timer, releases the bus subscription.
   * `error` errors the stream instead of closing it, which drops the queued
   * chunks and makes the HTTP writer give up the socket (slow readers).
   */
  readonly close = (error?: Error): void => {
    if (this.closed) return;
    this.closed = true;
    registry.open.delete(this);
    const held = (registry.perUser.get(this.userKey) ?? 1) - 1;
    if (held > 0) registry.perUser.set(this.userKey, held);
    else registry.perUser.delete(this.userKey);
    if (this.ticking !== null) stopTicking(this.ticking);
    this.ticking = null;
    this.offResubscribed?.();
    this.offResubscribed = null;
    this.opts.signal.removeEventListener('abort', this.onAbort);
    this.buffer.length = 0;
    const release = this.unsubscribe;
    this.unsubscribe = null;
    if (release) void this.release(release);
    for (const extra of this.extraUnsubscribes.splice(0)) void this.release(extra);
    this.pendingUnlogged.length = 0;
    try {
      if (error) this.controller?.error(error);
      else this.controller?.close();
    } catch {
      // Already closed or errored by the runtime.
    }
    this.controller = null;
  };

  /** Writes a last chunk (a comment), then closes. */
  end(lastWords: string): void {
    this.write(lastWords);
    this.close();
  }

  private readonly onAbort = (): void => this.close();

  private async release(unsubscribe: Unsubscribe): Promise<void> {
    try {
      await unsubscribe();
      unsubscribeOutage.recovered();
    } catch (err) {
      // Redis away or slow (a mass disconnect can time out many at once): the bus sends it again (lib/bus/redis.ts).
      if (isUnavailableError(err)) unsubscribeOutage.failed(err, { channel: this.opts.channel });
      else logError('stream unsubscribe failed', err, { channel: this.opts.channel });
    }
  }

  private async tick(): Promise<void> {
    // First, so a slow check below never delays it past the interval.
    this.write(': keep-alive\n\n');
    if (!(await this.opts.stillAuthorized())) return this.close();
    await this.catchUp();
  }

  /**
   * Sends what the log holds after the last id sent (messages the pub/sub
   * lost), then the live messages that waited. After a bus gap they wait
   * until a read made after it worked (the next tick tries again).
   */
  private async catchUp(): Promise<void> {
    if (this.catchingUp || this.closed) return;
    this.catchingUp = true;
    this.buffering = true;
    try {
      do {
        this.catchUpAgain = false;
        const gapBefore = this.busGap;
        const missed = await this.tryReadLog();
        if (missed === null) continue;
        for (const entry of missed) this.send(entry);
        // This read was made after the gap it knew of (a later one sets catchUpAgain).
        if (gapBefore && !this.catchUpAgain) this.busGap = false;
      } while (this.catchUpAgain && !this.closed);
    } finally {
      this.catchingUp = false;
      if (!this.busGap) this.flushBuffer();
    }
  }

  private flushBuffer(): void {
    this.buffering = false;
    for (const entry of this.buffer.splice(0)) this.send(entry);
  }

  private send(entry: LogEntry): void {
    const text = this.take(entry);
    if (text) this.write(text);
  }

  /** The entry's frame, counted as sent; null when an id up to the last one sent was already covered. */
  private take(entry: LogEntry): string | null {
    if (compareLogIds(entry.id, this.lastSent) <= 0) return null;
    this.lastSent = entry.id;
    return frame(entry);
  }

  private write(text: string): void {
    const c = this.controller;
    if (this.closed || !c) return;
    if ((c.desiredSize ?? 0) < -sseLimits.maxQueuedChunks) return this.close(new Error('stream reader too slow'));
    try {
      c.enqueue(encoder.encode(text));
    } catch {
      this.close();
    }
  }
}
