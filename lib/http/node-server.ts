// A plain Node HTTP server mounting the same web-standard handlers as the
// Next.js route files (no Next.js per-request overhead). Used by the test
// suite over real HTTP, the benchmark, and deployments that want the API alone.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { adminRoutes, endpoint, matchRoute, notFound, v1Routes, type Method } from './routes';
import { errorRoute } from './handler';
import { logError } from '@/lib/log';

function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const host = req.headers.host ?? 'localhost';
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
    else headers.set(name, value);
  }
  // The nearest proxy's entry goes last (see lib/http/client-ip.ts).
  const peer = req.socket.remoteAddress ?? 'unknown';
  headers.set('x-forwarded-for', headers.has('x-forwarded-for') ? `${headers.get('x-forwarded-for')}, ${peer}` : peer);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(`http://${host}${req.url ?? '/'}`, {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    signal,
    // Required by undici for a streamed request body.
    ...(hasBody ? { duplex: 'half' } : {}),
  } as RequestInit);
}

async function writeResponse(req: IncomingMessage, res: ServerResponse, response: Response, signal: AbortSignal): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // A request body left unread (413, or refused before it was read) would stall
  // the keep-alive connection: the next request on it would never be parsed.
  // Close the connection after this response instead of draining an unbounded body.
  if (!req.complete) headers.connection = 'close';
  res.writeHead(response.status, headers);
  if (!response.body || req.method === 'HEAD') {
    // HEAD: status and headers only. Cancelling the body runs its cancel
    // (the stream's clean-up: subscription and timer released).
    await response.body?.cancel().catch(() => undefined);
    res.end();
    return;
  }
  const reader = response.body.getReader();
  // Rejects when the body is errored (a stream dropping a slow reader); never resolves otherwise.
  const failed = new Promise<void>((_, reject) => void reader.closed.then(() => undefined, reject));
  failed.catch(() => undefined);
  signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined), { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await Promise.race([drainedOrClosed(res, signal), failed]);
      if (signal.aborted) break;
    }
  } catch {
    // The body failed (or the client went away): a cut-off response must not
    // look complete, and a client that stopped reading must not keep the socket.
    res.destroy();
    return;
  }
  res.end();
}

/** Waits for 'drain', or for the client to go away (a closed socket never drains). */
function drainedOrClosed(res: ServerResponse, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    res.once('drain', done);
    signal.addEventListener('abort', done, { once: true });
  });
}

const routes = [...v1Routes, ...adminRoutes];
const unknownMethod = errorRoute('method_not_allowed');
const endpoints = new Map(routes.map((r) => [r, endpoint(r.handlers, r.path.startsWith('/v1/'))]));

export async function handleNodeRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const abort = new AbortController();
  res.on('close', () => abort.abort());
  try {
    const request = toRequest(req, abort.signal);
    const pathname = new URL(request.url).pathname;
    const match = matchRoute(routes, pathname);
    // Like Next.js: no params object at all for a route without dynamic segments.
    const ctx = { params: Promise.resolve(match && Object.keys(match.params).length > 0 ? match.params : undefined) };
    let response: Response;
    if (!match) response = await notFound(request, ctx);
    else {
      const handlers = endpoints.get(match.entry)!;
      const method = (req.method ?? 'GET').toUpperCase();
      const handler = method === 'HEAD' ? handlers.GET : handlers[method as Method | 'OPTIONS'];
      response = await (handler ?? unknownMethod)(request, ctx);
    }
    await writeResponse(req, res, response, abort.signal);
  } catch (err) {
    logError('node server failure', err);
    if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ error: 'internal_error' }));
  }
}

export function createNodeServer(): Server {
  const server = createServer((req, res) => void handleNodeRequest(req, res));
  server.keepAliveTimeout = 65_000;
  return server;
}
