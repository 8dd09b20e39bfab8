// GET /v1/sse/updates – the caller's stream of SDKUpdate messages, with resume.
//
// Wire format: every message is exactly `id: <id>\ndata: <{type,data}>\n\n`
// (no `event:` line, so a browser's onmessage gets all of them). Comments:
// `: connected` once at the start (flushes the headers through any buffer)
// and `: keep-alive` every SSE_KEEPALIVE_MS (default 15 s).
//
// Resume (Last-Event-ID header, or `lastEventId` query parameter): the stream
// subscribes first and buffers live messages, reads the log after the id,
// sends that replay, then flushes the buffer skipping ids already sent, and
// goes live. The log adapters publish in id order (lib/updates/log.ts), so
// "skip ids <= the last one sent" gives no duplicates and no gaps. An id the
// log no longer knows (too old, malformed, from the future) replays
// everything the log still holds (15 min / 1,000 messages per user).
//
// Every keep-alive tick also re-reads the log after the last id sent, so a
// message the pub/sub lost (a Redis reconnect drops what is published
// meanwhile) still arrives, in order, within one interval; and it checks the
// token, so a revoked or expired token's stream is closed.
//
// Clean-up: request abort, stream cancel, a failed write, a slow reader,
// the token's expiry or revocation all end in close(), which runs once: the
// keep-alive timer is cleared and the bus subscription released at once.
import { getBus } from '@/lib/bus';
import { getConfig } from '@/lib/config';
import { logError } from '@/lib/log';
import { compareLogIds, decodeBusMessage, getUpdateLog, resumableId, userLogKey, type LogEntry } from '@/lib/updates/log';
import { userChannel } from '@/lib/updates/publish';
import { isRevoked } from '@/lib/auth/revocation';
import { userRoute } from '../handler';

const encoder = new TextEncoder();
/** Chunks queued for a reader that does not keep up; beyond this the stream is closed (the client resumes). */
const MAX_QUEUED_CHUNKS = 1_000;

export const SSE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/event-stream',
  // no-transform also keeps compression middleware (next start) off the stream.
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

export const frame = (entry: LogEntry): string => `id: ${entry.id}\ndata: ${entry.update}\n\n`;

let openStreams = 0;
/** Streams currently open in this process (tests, soak script, metrics). */
export function openStreamCount(): number {
  return openStreams;
}

export const streamUpdates = userRoute({ tokenInQuery: true }, async ({ req, url, auth }) => {
  const requested = req.headers.get('last-event-id') ?? url.searchParams.get('lastEventId');
  const channel = userChannel(auth.appId, auth.userId);
  const keepAliveMs = getConfig().sseKeepAliveMs;
  const expiresAtMs = auth.exp * 1000;

  let closed = false;
  let buffering = true;
  const buffer: LogEntry[] = [];
  let lastSent: string | null = null;
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;
  let unsubscribe: (() => Promise<void>) | null = null;

  const close = () => {
    if (closed) return;
    closed = true;
    openStreams -= 1;
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
    req.signal.removeEventListener('abort', close);
    buffer.length = 0;
    const release = unsubscribe;
    unsubscribe = null;
    release?.().catch((err: unknown) => logError('stream unsubscribe failed', err, { channel }));
    try {
      controller?.close();
    } catch {
      // Already closed or errored by the runtime.
    }
    controller = null;
  };

  const write = (text: string): void => {
    if (closed || !controller) return;
    if ((controller.desiredSize ?? 0) < -MAX_QUEUED_CHUNKS) return close();
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      close();
    }
  };

  const flushBuffer = (): void => {
    buffering = false;
    for (const entry of buffer.splice(0)) send(entry);
  };

  /** Sends what the log holds after the last id sent (messages the pub/sub lost). */
  let catchingUp = false;
  const catchUp = async (): Promise<void> => {
    if (catchingUp || closed || lastSent === null) return;
    catchingUp = true;
    buffering = true;
    try {
      const missed = await getUpdateLog().readAfter(userLogKey(auth.appId, auth.userId), lastSent);
      for (const entry of missed) send(entry);
    } catch (err) {
      logError('stream catch-up failed', err, { channel });
    } finally {
      catchingUp = false;
      flushBuffer();
    }
  };

  const tick = async (): Promise<void> => {
    // The client reconnects with a fresh token.
    if (Date.now() >= expiresAtMs) return close();
    if (await isRevoked(auth).catch(() => false)) return close();
    await catchUp();
    write(': keep-alive\n\n');
  };

  const send = (entry: LogEntry): void => {
    if (lastSent !== null && compareLogIds(entry.id, lastSent) <= 0) return; // already sent
    lastSent = entry.id;
    write(frame(entry));
  };

  // Counted from here so every path below that gives up goes through close().
  openStreams += 1;
  try {
    unsubscribe = await getBus().subscribe(channel, (message) => {
      if (closed) return;
      const entry = decodeBusMessage(message);
      if (!entry) return logError('stream: malformed bus message', null, { channel });
      if (buffering) buffer.push(entry);
      else send(entry);
    });
    if (req.signal.aborted) {
      close();
      return new Response(null, { status: 204 });
    }
    let replay: LogEntry[] = [];
    if (requested !== null) {
      const from = resumableId(requested);
      replay = await getUpdateLog().readAfter(userLogKey(auth.appId, auth.userId), from);
      // Nothing newer in the log: live messages up to `from` were seen already.
      lastSent = from;
    }
    const stream = new ReadableStream<Uint8Array>(
      {
        start(c) {
          controller = c;
          if (closed) return c.close();
          let head = ': connected\n\n';
          for (const entry of replay) {
            if (lastSent !== null && compareLogIds(entry.id, lastSent) <= 0) continue;
            lastSent = entry.id;
            head += frame(entry);
          }
          write(head);
          flushBuffer();
          timer = setInterval(() => void tick(), keepAliveMs);
          timer.unref?.();
          req.signal.addEventListener('abort', close, { once: true });
          if (req.signal.aborted) close();
        },
        cancel() {
          close();
        },
      },
      // No read-ahead: desiredSize goes negative as soon as a chunk waits.
      { highWaterMark: 0 },
    );
    return new Response(stream, { headers: SSE_HEADERS });
  } catch (err) {
    close();
    throw err;
  }
});
