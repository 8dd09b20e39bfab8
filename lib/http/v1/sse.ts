// GET /v1/sse/updates – the caller's stream of SDKUpdate messages, with resume.
//
// Wire format: every message is exactly `id: <id>\ndata: <{type,data}>\n\n`
// (no `event:` line, so a browser's onmessage gets all of them). Comments:
// `: connected` once at the start (flushes the headers through any buffer)
// and `: keep-alive` every SSE_KEEPALIVE_MS (default 15 s), written first
// thing on each tick so nothing below can delay it.
//
// Every stream starts from an id it counts as sent:
// - resuming (a non-empty Last-Event-ID header, else the `lastEventId` query
//   parameter): that id. An id the log no longer knows (too old, malformed,
//   from the future) counts as "before everything", so the stream replays
//   everything the log still holds (15 min / 1,000 messages per user);
// - otherwise: the newest id in the user's log, read BEFORE subscribing (or
//   MIN_LOG_ID when the log is empty). Nothing from before the connection is
//   replayed, and a message appended meanwhile is not lost.
// Then the stream subscribes and buffers live messages, reads the log after
// that id, sends what it read, flushes the buffer skipping ids <= the last
// one sent, and goes live. The log adapters publish in id order
// (lib/updates/log.ts), so this gives no duplicates and no gaps.
//
// Every keep-alive tick also re-reads the log after the last id sent, so a
// message the pub/sub lost (a Redis reconnect drops what is published
// meanwhile) still arrives, in order, within one interval; and it checks the
// token, so a revoked or expired token's stream is closed. Log reads are
// bounded (sseLimits.logReadTimeoutMs); live messages are held back only
// while one is in progress.
//
// Changes whose messages never reached the log (Redis was away when they
// were published) are filled in from the database: every stream that opens,
// and every live stream whose log reads work again after failing, has the
// user's sequence number compared with the log's (lib/updates/resync.ts); a
// repair arrives as ordinary messages, live and in the log.
//
// Clean-up: request abort, stream cancel, a failed write, a slow reader (the
// stream is errored, so the HTTP writer drops the socket), the token's expiry
// or revocation all end in UpdateStream.close(), which runs once: the
// stream leaves the shared keep-alive wheel and the bus subscription is
// released at once.
// The per-stream state lives in lib/stream/update-stream.ts.
import { isRevoked } from '@/lib/auth/revocation';
import type { TokenClaims } from '@/lib/auth/jwt';
import { getBus } from '@/lib/bus';
import { getConfig } from '@/lib/config';
import { getUpdateLog, MIN_LOG_ID, resumableId, userLogKey } from '@/lib/updates/log';
import { userChannel } from '@/lib/updates/publish';
import { checkStreamGap } from '@/lib/updates/resync';
import { userRoute } from '../handler';
import { databaseOnDemand } from '../service-context';
import { sseLimits, UpdateStream, withTimeout } from '@/lib/stream/update-stream';
import { metrics } from '@/lib/metrics';

export { closeAllStreams, openStreamCount, sseLimits } from '@/lib/stream/update-stream';

const SSE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/event-stream',
  // no-transform also keeps compression middleware (next start) off the stream.
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

/** The id the client resumes from: the header unless empty, else the query parameter; null when neither. */
function requestedLastEventId(req: Request, url: URL): string | null {
  const nonEmpty = (v: string | null) => (v !== null && v.trim() !== '' ? v : null);
  return nonEmpty(req.headers.get('last-event-id')) ?? nonEmpty(url.searchParams.get('lastEventId'));
}

/**
 * Opens one user's stream (the caller has authorized the request): resume or
 * start from the newest id, subscribe, replay the log, go live.
 */
export async function openUpdateStream(args: {
  req: Request;
  url: URL;
  owner: { appId: string; userId: string };
  stillAuthorized: () => Promise<boolean>;
  capScope: 'streams' | 'staff-streams';
  /**
   * Staff streams: a channel outside the user's log (lib/updates/staff.ts)
   * whose messages are rendered and sent live, without ids, beside the log's.
   */
  unlogged?: { channel: string; render(message: string): Promise<string | null> };
}): Promise<Response> {
  const { req, url, owner } = args;
  const requested = requestedLastEventId(req, url);
  const logKey = userLogKey(owner.appId, owner.userId);
  const channel = userChannel(owner.appId, owner.userId);
  const from =
    requested !== null
      ? (resumableId(requested) ?? MIN_LOG_ID)
      : ((await withTimeout(getUpdateLog().lastId(logKey), sseLimits.logReadTimeoutMs, 'update log lastId').catch((err: unknown) => {
          metrics().updateLogErrors.inc();
          throw err;
        })) ?? MIN_LOG_ID);

  const stream = new UpdateStream({
    owner,
    stillAuthorized: args.stillAuthorized,
    capScope: args.capScope,
    logKey,
    channel,
    keepAliveMs: getConfig().sseKeepAliveMs,
    maxPerUser: getConfig().sseMaxStreamsPerUser,
    signal: req.signal,
    lastSent: from,
    onLogRecovered: () => checkStreamGap(owner.appId, owner.userId),
  });
  try {
    stream.adopt(await getBus().subscribe(channel, stream.onMessage));
    if (args.unlogged) stream.adoptExtra(await getBus().subscribe(args.unlogged.channel, stream.unloggedListener(args.unlogged.render)));
    if (req.signal.aborted) {
      stream.close();
      return new Response(null, { status: 204 });
    }
    // A failed read leaves the replay to the first keep-alive tick (live messages wait for it).
    const replay = await stream.readReplay();
    // Changes the log missed (Redis was away when they were published) are
    // filled in from the database, in the background (lib/updates/resync.ts).
    checkStreamGap(owner.appId, owner.userId);
    return new Response(stream.toReadable(replay), { headers: SSE_HEADERS });
  } catch (err) {
    stream.close();
    throw err;
  }
}

/** The token's stream stays open while the token is neither expired (the client reconnects with a fresh one) nor revoked. */
function tokenStillValid(auth: TokenClaims): () => Promise<boolean> {
  return async () => Date.now() < auth.exp * 1000 && !(await isRevoked(auth, databaseOnDemand).catch(() => false));
}

export const streamUpdates = userRoute({ tokenInQuery: true }, async ({ req, url, auth }) =>
  openUpdateStream({ req, url, owner: { appId: auth.appId, userId: auth.userId }, stillAuthorized: tokenStillValid(auth), capScope: 'streams' }),
);
