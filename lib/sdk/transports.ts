// Stream transports: fetch streaming (Authorization header, works in browsers
// and Node 20+) and the browser's EventSource (token in `access_token`).
import { errorFromResponse, NetworkError, type QuestlineError } from './errors';
import type { Core } from './http';
import { createSseParser } from './sse-parser';

export interface OpenInfo {
  /**
   * false when the transport never sees the server's `: keep-alive` comments (EventSource): the
   * subscription then runs no idle watchdog on it. Default true (onActivity reports every chunk).
   */
  keepAlives?: boolean;
}

export interface StreamHandlers {
  /** The server accepted the stream (200 text/event-stream). */
  onOpen(info?: OpenInfo): void;
  onMessage(id: string | null, data: string): void;
  /** Any bytes, comments (keep-alives) included. */
  onActivity(): void;
  /** The connection ended or failed; `error` is null for a clean end by the server. */
  onClose(error: QuestlineError | Error | null): void;
}

export interface StreamRequest {
  core: Core;
  token: string;
  lastEventId: string | null;
  signal: AbortSignal;
  handlers: StreamHandlers;
}

/** Opens one connection; must call handlers.onClose exactly once unless the signal aborts. */
export type StreamTransport = (request: StreamRequest) => void;

const STREAM_PATH = '/v1/sse/updates';

/** True when this runtime can read a fetch response body as a stream. */
export function canStreamFetch(): boolean {
  return typeof globalThis.fetch === 'function' && typeof ReadableStream !== 'undefined' && typeof TextDecoder !== 'undefined';
}

export function canEventSource(): boolean {
  return typeof (globalThis as { EventSource?: unknown }).EventSource === 'function';
}

export class StreamUnsupportedError extends Error {}

export const fetchTransport: StreamTransport = ({ core, token, lastEventId, signal, handlers }) => {
  // Only headers the service's CORS preflight allows (Authorization, Last-Event-ID) or safelisted ones (Accept).
  const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' };
  if (lastEventId !== null && lastEventId.trim() !== '') headers['Last-Event-ID'] = lastEventId;
  let finished = false;
  const finish = (err: QuestlineError | Error | null) => {
    if (finished || signal.aborted) return;
    finished = true;
    handlers.onClose(err);
  };
  void (async () => {
    let res: Response;
    try {
      res = await core.fetch(core.url(STREAM_PATH), { headers, signal, cache: 'no-store' });
    } catch (err) {
      return finish(new NetworkError({ status: 0, code: 'network_error', message: 'Stream connection failed', cause: err }));
    }
    if (!res.ok) return finish(await errorFromResponse(res).catch((e: Error) => e));
    const reader = res.body?.getReader?.();
    if (!reader) return finish(new StreamUnsupportedError('fetch response bodies are not readable streams here'));
    const onAbort = () => void reader.cancel().catch(() => undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    const decoder = new TextDecoder();
    const parser = createSseParser((m) => {
      if (!signal.aborted) handlers.onMessage(m.id, m.data);
    });
    handlers.onOpen();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || signal.aborted) break;
        handlers.onActivity();
        parser.feed(decoder.decode(value, { stream: true }));
      }
      finish(null);
    } catch (err) {
      finish(new NetworkError({ status: 0, code: 'network_error', message: 'Stream interrupted', cause: err }));
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  })();
};

interface EventSourceLike {
  onopen: ((e: unknown) => void) | null;
  onmessage: ((e: { data: string; lastEventId: string }) => void) | null;
  onerror: ((e: unknown) => void) | null;
  close(): void;
}
type EventSourceCtor = new (url: string) => EventSourceLike;

/**
 * The EventSource fallback. Its own automatic reconnect is switched off (the
 * SDK's backoff drives it). EventSource hides the status of a refused
 * connection, so a failure before open is probed with a GET to tell 401 apart.
 */
export function eventSourceTransport(Ctor?: EventSourceCtor): StreamTransport {
  return ({ core, token, lastEventId, signal, handlers }) => {
    const ES = Ctor ?? (globalThis as unknown as { EventSource: EventSourceCtor }).EventSource;
    const query: Record<string, string> = { access_token: token };
    if (lastEventId !== null && lastEventId.trim() !== '') query.lastEventId = lastEventId;
    const es = new ES(core.url(STREAM_PATH, query));
    let opened = false;
    let finished = false;
    const finish = (err: QuestlineError | Error | null) => {
      es.close();
      if (finished || signal.aborted) return;
      finished = true;
      handlers.onClose(err);
    };
    signal.addEventListener('abort', () => es.close(), { once: true });
    es.onopen = () => {
      opened = true;
      // EventSource never surfaces comments: no keep-alive to watch; a broken connection fires onerror.
      handlers.onOpen({ keepAlives: false });
    };
    es.onmessage = (e) => {
      handlers.onActivity();
      handlers.onMessage(e.lastEventId || null, e.data);
    };
    es.onerror = () => {
      if (opened) return finish(new NetworkError({ status: 0, code: 'network_error', message: 'Stream interrupted' }));
      es.close();
      core
        .call('/v1/missions', { query: { limit: 1 }, signal })
        .then(
          () => finish(new NetworkError({ status: 0, code: 'network_error', message: 'Stream connection failed' })),
          (err: Error) => finish(err),
        );
    };
  };
}
