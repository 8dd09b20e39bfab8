// Options and handle of subscribe().
import type { BackoffOptions } from './backoff';
import type { StreamTransport } from './transports';

export type SubscriptionState = 'connecting' | 'open' | 'reconnecting' | 'polling' | 'closed';

export interface UpdateMeta {
  /** Stream message id; null for updates synthesized by polling. */
  id: string | null;
  source: 'stream' | 'poll';
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface SubscribeOptions {
  onStateChange?(state: SubscriptionState, previous: SubscriptionState): void;
  /** Connection failures, fatal errors (UnauthorizedError) and exceptions thrown by onUpdate. */
  onError?(error: Error): void;
  /** `auto` (default): fetch streaming, else EventSource. A function replaces the transport (tests). */
  transport?: 'auto' | 'fetch' | 'eventsource' | StreamTransport;
  /** Resume after this id (e.g. kept from an earlier session); empty or blank means none. */
  lastEventId?: string;
  backoff?: BackoffOptions;
  /** Consecutive failures before polling starts (default 5). */
  failuresBeforePolling?: number;
  /** Polling period, ms (default 10000). */
  pollIntervalMs?: number;
  /** No byte (keep-alives included) for this long means a dead connection (default 45000). Not for EventSource, which never surfaces keep-alives. */
  idleTimeoutMs?: number;
  /** How long after the stream is back from polling its replay is matched against what polling told (default 15000). */
  replayWindowMs?: number;
  timers?: Timers;
}

export interface Subscription {
  readonly state: SubscriptionState;
  /** Id of the last stream message received (sent as Last-Event-ID on reconnect). */
  readonly lastEventId: string | null;
  /** Drops the current connection and connects again at once (also after a fatal 401). */
  reconnect(): void;
  /** Stops everything: connection, timers, polling. */
  close(): void;
}
