// subscribe(): the live stream with reconnect (exponential backoff + jitter,
// Last-Event-ID resume, dedupe by id), a polling fallback after repeated
// failures (poller.ts), and a clean close (no timer or connection left behind).
import { backoffDelay } from './backoff';
import { QuestlineError, UnauthorizedError } from './errors';
import type { Core } from './http';
import { Poller } from './poller';
import { DeliveredState } from './state';
import { StreamMessages } from './stream-messages';
import {
  canEventSource,
  canStreamFetch,
  eventSourceTransport,
  fetchTransport,
  StreamUnsupportedError,
  type OpenInfo,
  type StreamTransport,
} from './transports';
import type { SdkUpdate } from './types';
import type { Subscription, SubscribeOptions, SubscriptionState, Timers, UpdateMeta } from './subscription-types';

export type { Subscription, SubscribeOptions, SubscriptionState, Timers, UpdateMeta };

const defaultTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
};

export function subscribe(core: Core, onUpdate: (u: SdkUpdate, meta: UpdateMeta) => void, options: SubscribeOptions = {}): Subscription {
  const subscription = new StreamSubscription(core, onUpdate, options);
  void subscription.connect();
  return {
    get state() {
      return subscription.state;
    },
    get lastEventId() {
      return subscription.messages.lastEventId;
    },
    reconnect: () => subscription.reconnect(),
    close: () => subscription.close(),
  };
}

/** One subscription's connection lifecycle: connect, open, fail and back off, 401, close. */
class StreamSubscription {
  state: SubscriptionState = 'connecting';
  readonly messages: StreamMessages;
  private readonly timers: Timers;
  private readonly delivered = new DeliveredState();
  private readonly poller: Poller;
  private transport: StreamTransport;
  private userClosed = false;
  private failures = 0;
  /** The immediate retry after a 401 was used and no connection opened since (a second 401 is fatal). */
  private authRetried = false;
  private everOpened = false;
  /** Incremented by every connection attempt and by stopAll: callbacks of an older one are ignored. */
  private generation = 0;
  private abort: AbortController | null = null;
  private retryTimer: unknown = null;
  private idleTimer: unknown = null;

  constructor(
    private readonly core: Core,
    private readonly onUpdate: (u: SdkUpdate, meta: UpdateMeta) => void,
    private readonly options: SubscribeOptions,
  ) {
    this.timers = options.timers ?? defaultTimers;
    this.transport = pickTransport(options.transport);
    this.messages = new StreamMessages(options.lastEventId);
    this.poller = new Poller({
      core,
      delivered: this.delivered,
      timers: this.timers,
      options,
      deliver: (update, meta) => this.deliver(update, meta),
      reportError: (err) => this.reportError(err),
      isClosed: () => this.userClosed,
    });
  }

  /** `freshToken`: the token unauthorized() just got (not asked for again). */
  async connect(freshToken?: string): Promise<void> {
    const gen = ++this.generation;
    this.abort?.abort();
    const ac = new AbortController();
    this.abort = ac;
    // Off for a transport that cannot see keep-alive comments (EventSource): it relies on its own error event.
    let watchdog = true;
    let token: string;
    try {
      token = freshToken ?? (await this.core.token());
    } catch (err) {
      if (gen === this.generation) this.failed(err as Error);
      return;
    }
    if (gen !== this.generation || this.userClosed) return;
    this.transport({
      core: this.core,
      token,
      lastEventId: this.messages.lastEventId,
      signal: ac.signal,
      handlers: {
        onOpen: (info) => {
          if (gen === this.generation) watchdog = this.opened(gen, info);
        },
        onActivity: () => {
          if (gen === this.generation && watchdog) this.armIdle(gen);
        },
        onMessage: (id, data) => {
          if (gen === this.generation) this.received(id, data);
        },
        onClose: (err) => {
          if (gen === this.generation) this.closed(token, err);
        },
      },
    });
  }

  reconnect(): void {
    if (this.userClosed) return;
    this.retryTimer = this.clear(this.retryTimer);
    this.idleTimer = this.clear(this.idleTimer);
    this.authRetried = false;
    this.setState(this.poller.active ? 'polling' : this.everOpened ? 'reconnecting' : 'connecting');
    void this.connect();
  }

  close(): void {
    if (this.userClosed) return;
    this.userClosed = true;
    this.stopAll();
    this.setState('closed');
  }

  /** The server accepted the stream; answers whether the idle watchdog runs on it. */
  private opened(gen: number, info: OpenInfo | undefined): boolean {
    this.failures = 0;
    this.authRetried = false;
    this.everOpened = true;
    const watchdog = info?.keepAlives !== false;
    this.poller.stop();
    this.setState('open');
    if (watchdog) this.armIdle(gen);
    this.poller.streamOpened();
    return watchdog;
  }

  private received(rawId: string | null, data: string): void {
    const message = this.messages.read(rawId, data, (err) => this.reportError(err));
    if (message) this.deliver(message.update, { id: message.id, source: 'stream' });
  }

  private closed(token: string, err: QuestlineError | Error | null): void {
    this.idleTimer = this.clear(this.idleTimer);
    if (err instanceof StreamUnsupportedError && this.options.transport !== 'fetch' && canEventSource()) {
      this.transport = eventSourceTransport();
      return void this.connect();
    }
    if (err instanceof QuestlineError && err.status === 401) return void this.unauthorized(token, err);
    this.failed(err ?? new Error('The server ended the stream'));
  }

  /**
   * A 401 changes nothing by waiting: one immediate retry when getToken answers a new token, and only
   * once until a connection opens; a second consecutive 401 (even with yet another token) is fatal.
   */
  private async unauthorized(used: string, err: QuestlineError): Promise<void> {
    const gen = this.generation;
    let fresh: string | null = null;
    if (!this.authRetried) {
      try {
        fresh = await this.core.token();
      } catch {
        // no new token
      }
    }
    if (gen !== this.generation || this.userClosed) return;
    if (fresh !== null && fresh !== used) {
      this.authRetried = true;
      return this.failed(err, 0, fresh);
    }
    // Fatal: no reconnect until reconnect() is called (with a token source that now answers a valid token).
    this.stopAll();
    this.setState('closed');
    this.reportError(
      err instanceof UnauthorizedError ? err : new UnauthorizedError({ status: 401, code: 'unauthorized', message: err.message, requestId: err.requestId }),
    );
  }

  private failed(err: Error, delayOverride?: number, freshToken?: string): void {
    if (this.userClosed) return;
    this.abort?.abort();
    this.failures += 1;
    this.reportError(err);
    if (this.failures >= (this.options.failuresBeforePolling ?? 5) && !this.poller.active) this.poller.start();
    if (this.failures === 1 && !this.delivered.hasBaseline()) void this.poller.captureBaseline();
    this.setState(this.poller.active ? 'polling' : 'reconnecting');
    const delay = delayOverride ?? backoffDelay(this.failures - 1, this.options.backoff);
    this.retryTimer = this.clear(this.retryTimer);
    this.retryTimer = this.timers.setTimeout(() => {
      this.retryTimer = null;
      void this.connect(freshToken);
    }, delay);
  }

  private armIdle(gen: number): void {
    const idleMs = this.options.idleTimeoutMs ?? 45_000;
    this.idleTimer = this.clear(this.idleTimer);
    this.idleTimer = this.timers.setTimeout(() => {
      if (gen !== this.generation) return;
      this.abort?.abort();
      this.failed(new Error(`No data on the stream for ${idleMs} ms`));
    }, idleMs);
  }

  private deliver(update: SdkUpdate, meta: UpdateMeta): void {
    if (!this.delivered.accept(update, meta.source === 'stream')) return;
    try {
      this.onUpdate(update, meta);
    } catch (err) {
      this.reportError(err instanceof Error ? err : new Error(String(err)));
    }
  }

  private stopAll(): void {
    this.generation += 1;
    this.abort?.abort();
    this.abort = null;
    this.retryTimer = this.clear(this.retryTimer);
    this.idleTimer = this.clear(this.idleTimer);
    this.poller.dispose();
  }

  private setState(next: SubscriptionState): void {
    if (next === this.state) return;
    const prev = this.state;
    this.state = next;
    safe(() => this.options.onStateChange?.(next, prev));
  }

  private reportError(err: Error): void {
    safe(() => this.options.onError?.(err));
  }

  private clear(handle: unknown): null {
    if (handle !== null) this.timers.clearTimeout(handle);
    return null;
  }
}

function pickTransport(choice: SubscribeOptions['transport']): StreamTransport {
  if (typeof choice === 'function') return choice;
  if (choice === 'eventsource') return eventSourceTransport();
  if (choice === 'fetch' || canStreamFetch() || !canEventSource()) return fetchTransport;
  return eventSourceTransport();
}

function safe(fn: () => void): void {
  try {
    fn();
  } catch {
    // a throwing listener must not break the subscription
  }
}
