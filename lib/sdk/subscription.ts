// subscribe(): the live stream with reconnect (exponential backoff + jitter,
// Last-Event-ID resume, dedupe by id), a polling fallback after repeated
// failures, and a clean close (no timer or connection left behind).
import { backoffDelay } from './backoff';
import { QuestlineError, UnauthorizedError } from './errors';
import type { Core } from './http';
import { fetchSnapshot } from './polling';
import { DeliveredState } from './state';
import {
  canEventSource,
  canStreamFetch,
  eventSourceTransport,
  fetchTransport,
  StreamUnsupportedError,
  type StreamTransport,
} from './transports';
import type { SdkUpdate } from './types';
import type { Subscription, SubscribeOptions, SubscriptionState, Timers, UpdateMeta } from './subscription-types';

export type { Subscription, SubscribeOptions, SubscriptionState, Timers, UpdateMeta };

const SEEN_MAX = 2000;

/** An empty or blank id is no id (an empty Last-Event-ID header would ask the server for an unknown id). */
const eventId = (id: string | null | undefined): string | null => (id == null || id.trim() === '' ? null : id);

export function subscribe(core: Core, onUpdate: (u: SdkUpdate, meta: UpdateMeta) => void, options: SubscribeOptions = {}): Subscription {
  const timers: Timers = options.timers ?? {
    setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
    clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
  };
  const threshold = options.failuresBeforePolling ?? 5;
  const pollMs = options.pollIntervalMs ?? 10_000;
  const idleMs = options.idleTimeoutMs ?? 45_000;
  let transport: StreamTransport = pickTransport(options.transport);

  let state: SubscriptionState = 'connecting';
  let userClosed = false;
  let lastEventId: string | null = eventId(options.lastEventId);
  let failures = 0;
  /** The immediate retry after a 401 was used and no connection opened since (a second 401 is fatal). */
  let authRetried = false;
  let everOpened = false;
  let generation = 0;
  let abort: AbortController | null = null;
  let retryTimer: unknown = null;
  let idleTimer: unknown = null;
  let pollTimer: unknown = null;
  let replayTimer: unknown = null;
  let polling = false;
  /** Polling told things since the stream was last open: its next open starts a replay window. */
  let reconcile = false;
  let pollGeneration = 0;
  const seen = new Set<string>();
  const delivered = new DeliveredState();

  const setState = (next: SubscriptionState) => {
    if (next === state) return;
    const prev = state;
    state = next;
    safe(() => options.onStateChange?.(next, prev));
  };
  const reportError = (err: Error) => safe(() => options.onError?.(err));
  const clear = (h: unknown) => {
    if (h !== null) timers.clearTimeout(h);
    return null;
  };

  const deliver = (update: SdkUpdate, meta: UpdateMeta) => {
    if (!delivered.accept(update, meta.source === 'stream')) return;
    try {
      onUpdate(update, meta);
    } catch (err) {
      reportError(err instanceof Error ? err : new Error(String(err)));
    }
  };

  const onMessage = (rawId: string | null, data: string) => {
    const id = eventId(rawId);
    if (id !== null) {
      if (seen.has(id)) return;
      seen.add(id);
      if (seen.size > SEEN_MAX) seen.delete(seen.values().next().value as string);
      lastEventId = id;
    }
    let update: SdkUpdate;
    try {
      update = JSON.parse(data) as SdkUpdate;
    } catch {
      return reportError(new Error(`Unparsable stream message: ${data.slice(0, 100)}`));
    }
    if (!update || typeof update !== 'object' || typeof update.type !== 'string' || typeof update.data !== 'object') return;
    deliver(update, { id, source: 'stream' });
  };

  const armIdle = (gen: number) => {
    idleTimer = clear(idleTimer);
    idleTimer = timers.setTimeout(() => {
      if (gen !== generation) return;
      abort?.abort();
      failed(new Error(`No data on the stream for ${idleMs} ms`));
    }, idleMs);
  };

  /** `freshToken`: the token unauthorized() just got (not asked for again). */
  async function connect(freshToken?: string): Promise<void> {
    const gen = ++generation;
    abort?.abort();
    const ac = new AbortController();
    abort = ac;
    // Off for a transport that cannot see keep-alive comments (EventSource): it relies on its own error event.
    let watchdog = true;
    let token: string;
    try {
      token = freshToken ?? (await core.token());
    } catch (err) {
      if (gen === generation) failed(err as Error);
      return;
    }
    if (gen !== generation || userClosed) return;
    transport({
      core,
      token,
      lastEventId,
      signal: ac.signal,
      handlers: {
        onOpen: (info) => {
          if (gen !== generation) return;
          failures = 0;
          authRetried = false;
          everOpened = true;
          watchdog = info?.keepAlives !== false;
          stopPolling();
          setState('open');
          if (watchdog) armIdle(gen);
          // Also after polling ended by a fatal 401 and reconnect(): what polling told is still to reconcile.
          if (reconcile) {
            reconcile = false;
            // The stream replays what it can; one last poll covers what it cannot.
            delivered.beginReplayWindow();
            void pollOnce(pollGeneration);
            replayTimer = clear(replayTimer);
            replayTimer = timers.setTimeout(() => {
              replayTimer = null;
              delivered.endReplayWindow();
            }, options.replayWindowMs ?? 15_000);
          }
        },
        onActivity: () => {
          if (gen === generation && watchdog) armIdle(gen);
        },
        onMessage: (id, data) => {
          if (gen === generation) onMessage(id, data);
        },
        onClose: (err) => {
          if (gen !== generation) return;
          idleTimer = clear(idleTimer);
          if (err instanceof StreamUnsupportedError && options.transport !== 'fetch' && canEventSource()) {
            transport = eventSourceTransport();
            return void connect();
          }
          if (err instanceof QuestlineError && err.status === 401) return void unauthorized(token, err);
          failed(err ?? new Error('The server ended the stream'));
        },
      },
    });
  }

  /**
   * A 401 changes nothing by waiting: one immediate retry when getToken answers a new token, and only
   * once until a connection opens; a second consecutive 401 (even with yet another token) is fatal.
   */
  async function unauthorized(used: string, err: QuestlineError): Promise<void> {
    const gen = generation;
    let fresh: string | null = null;
    if (!authRetried) {
      try {
        fresh = await core.token();
      } catch {
        // no new token
      }
    }
    if (gen !== generation || userClosed) return;
    if (fresh !== null && fresh !== used) {
      authRetried = true;
      return failed(err, 0, fresh);
    }
    // Fatal: no reconnect until reconnect() is called (with a token source that now answers a valid token).
    stopAll();
    setState('closed');
    reportError(err instanceof UnauthorizedError ? err : new UnauthorizedError({ status: 401, code: 'unauthorized', message: err.message, requestId: err.requestId }));
  }

  function failed(err: Error, delayOverride?: number, freshToken?: string): void {
    if (userClosed) return;
    abort?.abort();
    failures += 1;
    reportError(err);
    if (failures >= threshold && !polling) startPolling();
    if (failures === 1 && !delivered.hasBaseline()) void captureBaseline();
    setState(polling ? 'polling' : 'reconnecting');
    const delay = delayOverride ?? backoffDelay(failures - 1, options.backoff);
    retryTimer = clear(retryTimer);
    retryTimer = timers.setTimeout(() => {
      retryTimer = null;
      void connect(freshToken);
    }, delay);
  }

  async function pollOnce(pgen: number): Promise<void> {
    try {
      const snapshot = await fetchSnapshot(core);
      if (pgen !== pollGeneration || userClosed) return;
      if (!delivered.hasBaseline()) return delivered.setBaseline(snapshot);
      for (const update of delivered.diff(snapshot)) deliver(update, { id: null, source: 'poll' });
      delivered.absorb(snapshot);
      delivered.setBaseline(snapshot);
    } catch (err) {
      if (pgen === pollGeneration) reportError(err as Error);
    }
  }

  /** Best effort, at the first failure: the state to diff against if polling starts. */
  async function captureBaseline(): Promise<void> {
    try {
      const snapshot = await fetchSnapshot(core);
      if (!userClosed && !delivered.hasBaseline()) delivered.setBaseline(snapshot);
    } catch {
      // the service is down too: the first poll will be the baseline
    }
  }

  function startPolling(): void {
    polling = true;
    reconcile = true;
    // A replay window still running belongs to the previous return of the stream: the next one starts its own
    // (its timer must not forget the grants synthesized by this round of polling).
    replayTimer = clear(replayTimer);
    const pgen = ++pollGeneration;
    const tick = async () => {
      pollTimer = null;
      await pollOnce(pgen);
      if (pgen === pollGeneration && polling && !userClosed) pollTimer = timers.setTimeout(() => void tick(), pollMs);
    };
    void tick();
  }

  function stopPolling(): void {
    polling = false;
    pollGeneration += 1;
    pollTimer = clear(pollTimer);
  }

  function stopAll(): void {
    generation += 1;
    abort?.abort();
    abort = null;
    retryTimer = clear(retryTimer);
    idleTimer = clear(idleTimer);
    replayTimer = clear(replayTimer);
    stopPolling();
  }

  void connect();

  return {
    get state() {
      return state;
    },
    get lastEventId() {
      return lastEventId;
    },
    reconnect() {
      if (userClosed) return;
      const wasPolling = polling;
      retryTimer = clear(retryTimer);
      idleTimer = clear(idleTimer);
      authRetried = false;
      setState(wasPolling ? 'polling' : everOpened ? 'reconnecting' : 'connecting');
      void connect();
    },
    close() {
      if (userClosed) return;
      userClosed = true;
      stopAll();
      setState('closed');
    },
  };
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
