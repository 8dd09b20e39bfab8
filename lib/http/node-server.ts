// The route table on Node's HTTP server: the same web-standard handlers as
// the Next.js route files, without Next.js's per-request overhead, plus what
// only a server owning the socket can give them (the peer's address). Mounted
// by the custom server of `npm start` (lib/http/app-server.ts) for /v1,
// /api/admin and Better Auth's /api/auth (whose sign-in guard counts per
// client), and on its own by scripts/serve.ts, the test suites and benchmarks.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { adminNotFound, allRoutes, endpoint, matchRoute, notFound, type Method } from './routes';
import { isPreflight, preflightResponse } from './cors';
import { hasDotSegment, hasMalformedEscape, malformedPathResponse, rawPathOf } from './malformed-path';
import { requestIdOf } from './request-id';
import { logError, logInfo } from '@/lib/log';
import { metrics } from '@/lib/metrics';
import { CLIENT_CLOSED_REQUEST, errorRoute } from './handler';
import { loggableUrl } from './observe';
import { MAX_BODY_BYTES } from './body';
import { errorResponse, knownBodyText } from './respond';
import { AppError } from '@/lib/errors';
import { handleStaffAuth } from './staff-auth-handler';
import { NodeRequest } from './node-request';
import { putTestClock } from './admin/test-clock';
import { testClockEnabled } from '@/lib/clock';

/** The test-only clock route (lib/http/admin/test-clock.ts): served only with QUESTLINE_TEST_CLOCK=1. */
const TEST_CLOCK_PATH = '/api/admin/test-clock';
const testClockNotAllowed = errorRoute('method_not_allowed', false, 'PUT');

// A Host header only names a host (and port): anything else (a `/`, `@` or
// `?` in it) could move the path the handlers read away from the one routed.
const SAFE_HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The request's URL: its origin-form path and query on a checked host. */
export function requestUrl(req: IncomingMessage): URL {
  const host = req.headers.host && SAFE_HOST.test(req.headers.host) ? req.headers.host : 'localhost';
  let target = req.url ?? '/';
  if (!target.startsWith('/')) {
    // Absolute-form (`GET http://x/v1/… HTTP/1.1`): only its path and query count.
    const absolute = URL.canParse(target) ? new URL(target) : null;
    target = absolute ? absolute.pathname + absolute.search : '/';
  }
  return new URL(`http://${host}${target}`);
}

/** The methods a web-standard Request can carry and the route table may serve (OPTIONS: preflights). */
const REQUEST_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
    else headers.set(name, value);
  }
  return headers;
}

/**
 * A method no route serves (TRACE, PROPFIND, …): a body-less request that
 * reports that method, answered 405 (or 404) by the table like any other
 * wrong method. (undici refuses to build a Request with TRACE, TRACK or
 * CONNECT at all, which used to end in a 500 with an error-level stack.)
 */
function otherMethodRequest(req: IncomingMessage, url: URL, method: string): Request {
  return lightRequest(req, url, method, null, () => new AbortController().signal);
}

/**
 * The one place a NodeRequest (lib/http/node-request.ts) is passed where a
 * web Request is typed: it has every member the route table's handlers use
 * (method, url, headers' get/has/forEach/iteration, body, signal,
 * text/json/arrayBuffer); lib/auth/staff-session.ts copies its headers into
 * web Headers before handing them to Better Auth.
 */
function lightRequest(req: IncomingMessage, url: URL, method: string, body: Buffer | null, signal: () => AbortSignal): Request {
  return new NodeRequest(method, url.href, req.headers, body, signal) as unknown as Request;
}

/**
 * Whether the client went away before its answer was complete, as an
 * AbortSignal built only when something asks for it: the update stream, a
 * streamed request body's read, a streamed response. Most requests never do,
 * and an AbortController (plus undici linking it to the Request) per request
 * was a measurable share of server CPU (docs/engineering/benchmarks.md).
 */
export class ClientGone {
  private controller: AbortController | null = null;
  private gone = false;

  constructor(res: ServerResponse) {
    // Only a client gone before the answer was complete aborts (an abort builds a DOMException: not on every request).
    res.once('close', () => {
      if (res.writableFinished) return;
      this.gone = true;
      this.controller?.abort();
    });
  }

  /** Aborted already when the client left before the first ask. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.gone) this.controller.abort();
    }
    return this.controller.signal;
  }

  /** Whether a signal was built (tests). */
  get built(): boolean {
    return this.controller !== null;
  }
}

/** The Request's `signal`, read from `gone` when a handler reads it (undici's own signal would never abort). */
function withLazySignal(request: Request, gone: ClientGone): Request {
  Object.defineProperty(request, 'signal', { get: () => gone.signal, configurable: true });
  return request;
}

/**
 * The request handed to the handlers. A body already read (or none): a
 * NodeRequest over Node's request, unless `web` (Better Auth's routes take a
 * real Request). A body left to stream: a web Request over the socket.
 */
function toRequest(req: IncomingMessage, url: URL, gone: ClientGone, body: Buffer | null, web: boolean): Request {
  const method = (req.method ?? 'GET').toUpperCase();
  if (!REQUEST_METHODS.has(method)) return otherMethodRequest(req, url, method);
  const hasBody = method !== 'GET' && method !== 'HEAD';
  if (!web && (!hasBody || body !== null)) return lightRequest(req, url, method, hasBody ? body : null, () => gone.signal);
  const headers = headersOf(req);
  if (!hasBody || body !== null) {
    return withLazySignal(new Request(url, { method: req.method, headers, body: hasBody ? (body as Uint8Array<ArrayBuffer>) : undefined }), gone);
  }
  return withLazySignal(
    new Request(url, {
      method: req.method,
      headers,
      body: Readable.toWeb(req) as ReadableStream<Uint8Array>,
      // Required by undici for a streamed request body.
      duplex: 'half',
    } as RequestInit),
    gone,
  );
}

/**
 * A body announced with a Content-Length within the handlers' cap is read
 * here as bytes (cheaper than a web stream over the socket); anything else
 * (chunked, or announced over the cap) is left to stream, so the handlers'
 * byte counting and 413 apply as before. Null: stream it.
 */
function smallBody(req: IncomingMessage): Promise<Buffer> | null {
  if (req.method === 'GET' || req.method === 'HEAD' || req.headers['transfer-encoding'] !== undefined) return null;
  const declared = req.headers['content-length'];
  if (declared === undefined || !/^\d{1,6}$/.test(declared) || Number(declared) > MAX_BODY_BYTES) return null;
  const length = Number(declared);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      chunks.push(chunk);
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 && total === length ? chunks[0] : Buffer.concat(chunks, total));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onClose = () => {
      if (req.complete) return;
      cleanup();
      reject(new Error('request body cut off'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

async function writeResponse(req: IncomingMessage, res: ServerResponse, response: Response, gone: ClientGone): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  // Each cookie its own header (Better Auth's sign-out clears several): never joined, never only the last.
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  // A request body left unread (413, or refused before it was read) would stall
  // the keep-alive connection: the next request on it would never be parsed.
  // Close the connection after this response instead of draining an unbounded body.
  // (A request without a body may also be incomplete here when the answer came at once: nothing to drain then.)
  const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
  if (hasBody && !req.complete) headers.connection = 'close';
  const text = knownBodyText(response);
  if (text !== undefined && req.method !== 'HEAD') {
    // A body built by json(): head and body leave in one socket write, with a Content-Length (no chunked framing).
    headers['content-length'] = String(Buffer.byteLength(text));
    res.writeHead(response.status, headers);
    res.end(text);
    return;
  }
  res.writeHead(response.status, headers);
  if (!response.body || req.method === 'HEAD') {
    // HEAD: status and headers only. Cancelling the body runs its cancel
    // (the stream's clean-up: subscription and timer released).
    await response.body?.cancel().catch(() => undefined);
    res.end();
    return;
  }
  const signal = gone.signal;
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

const routes = allRoutes;
const endpoints = new Map(routes.map((r) => [r, endpoint(r.handlers, r.path.startsWith('/v1/'), r.path)]));

const STAFF_AUTH = /^\/api\/auth(\/|$)/;
/** Other methods on Better Auth's routes (its route file serves GET and POST; HEAD as GET). */
const staffAuthNotAllowed = errorRoute('method_not_allowed', false, 'GET, HEAD, POST');

/** Better Auth's routes, also when spelled with percent-escapes (as isApiPath). */
function isStaffAuthPath(pathname: string): boolean {
  if (STAFF_AUTH.test(pathname)) return true;
  try {
    return STAFF_AUTH.test(decodeURIComponent(pathname));
  } catch {
    return false;
  }
}

/**
 * The paths this server serves: /v1, /api/admin, the ops endpoints
 * (/api/health, /api/ready, /api/metrics) and Better Auth's /api/auth, also
 * when spelled with percent-escapes (`/%76%31/…`), so that no spelling of an
 * API path reaches the Next.js route files from the custom server.
 */
export function isApiPath(pathname: string): boolean {
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // Malformed escapes: judged on the raw path (answered 400 by handleApiRequest).
  }
  return [pathname, decoded].some((p) => /^\/(v1|api\/admin|api\/auth)(\/|$)/.test(p) || /^\/api\/(health|ready|metrics)\/?$/.test(p));
}

/** Serves one request from the route table (the /v1 and admin handlers). */
export async function handleApiRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const gone = new ClientGone(res);
  try {
    const url = requestUrl(req);
    const pending = smallBody(req);
    let body: Buffer | null = null;
    if (pending) {
      try {
        body = await pending;
      } catch {
        // The client went away before its body arrived: nobody to answer, nothing of ours failed.
        logInfo('client aborted its request body', { method: req.method, url: loggableUrl(url.href) });
        metrics().requests.inc({ route: '(aborted)', method: (req.method ?? 'GET').toUpperCase(), status: String(CLIENT_CLOSED_REQUEST) });
        res.destroy();
        return;
      }
    }
    const staffAuth = isStaffAuthPath(url.pathname);
    const request = toRequest(req, url, gone, body, staffAuth);
    const cors = !url.pathname.startsWith('/api/admin') && !staffAuth;
    const method = (req.method ?? 'GET').toUpperCase();
    const rawPath = rawPathOf(req.url ?? '/');
    let response: Response;
    if (staffAuth && hasMalformedEscape(url.pathname)) {
      response = malformedPathResponse(request, url.pathname, false);
    } else if (staffAuth && hasDotSegment(rawPath)) {
      response = malformedPathResponse(request, rawPath, false, 'dot');
    } else if (staffAuth) {
      // Better Auth's routes (the Next.js route file serves GET and POST), with the socket's address for the sign-in guard.
      const ctx = { params: Promise.resolve(undefined), remoteAddress: req.socket.remoteAddress };
      response = await (method === 'GET' || method === 'HEAD' || method === 'POST' ? handleStaffAuth(request, ctx) : staffAuthNotAllowed(request, ctx));
    } else if (cors && isPreflight(request)) {
      // Any /v1 path, known or not, as proxy.ts does in front of the route files.
      response = preflightResponse(requestIdOf(request));
    } else if (hasMalformedEscape(url.pathname)) {
      response = malformedPathResponse(request, url.pathname, cors);
    } else if (hasDotSegment(rawPath)) {
      // Resolved, it would be another route's path (…/users/%2E/export is …/users/export).
      response = malformedPathResponse(request, rawPath, cors, 'dot');
    } else if (url.pathname === TEST_CLOCK_PATH && testClockEnabled()) {
      const ctx = { params: Promise.resolve(undefined), remoteAddress: req.socket.remoteAddress };
      response = await (method === 'PUT' ? putTestClock : testClockNotAllowed)(request, ctx);
    } else {
      const match = matchRoute(routes, url.pathname);
      // Like Next.js: no params object at all for a route without dynamic segments. Plus the
      // socket's address, which only this server knows (lib/http/client-ip.ts).
      const ctx = {
        params: Promise.resolve(match && Object.keys(match.params).length > 0 ? match.params : undefined),
        remoteAddress: req.socket.remoteAddress,
      };
      if (!match) response = await (cors ? notFound : adminNotFound)(request, ctx);
      else {
        const handlers = endpoints.get(match.entry)!;
        const handler = method === 'HEAD' ? handlers.GET : handlers[method as Method | 'OPTIONS'];
        response = await (handler ?? handlers.otherMethod)(request, ctx);
      }
    }
    if (response.status === CLIENT_CLOSED_REQUEST) return void res.destroy();
    await writeResponse(req, res, response, gone);
  } catch (err) {
    logError('node server failure', err);
    if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ error: 'internal_error' }));
  }
}

/**
 * What `npm start`'s server answers itself for a path it would hand to
 * Next.js: a method a web-standard Request cannot carry (TRACE, PROPFIND…;
 * Next.js would fail building its request: a 500 with an error-level stack)
 * is 405 with `Allow`, and a malformed percent-escape under /api/ (Better
 * Auth's /api/auth/*) is the JSON 400 the API paths answer. Null: Next.js serves it.
 */
export function answerBeforeNext(req: IncomingMessage, url: URL): Response | null {
  const method = (req.method ?? 'GET').toUpperCase();
  const api = url.pathname.startsWith('/api/');
  if (!REQUEST_METHODS.has(method)) {
    const refused = errorResponse(
      new AppError('method_not_allowed', `Method ${method} is not allowed here`, { headers: { Allow: api ? 'GET, POST' : 'GET, HEAD, POST' } }),
    );
    refused.headers.set('X-Request-Id', requestIdOf(otherMethodRequest(req, url, method)));
    return refused;
  }
  if (api && hasMalformedEscape(url.pathname)) return malformedPathResponse(lightRequest(req, url, method, null, () => new AbortController().signal), url.pathname, false);
  return null;
}

/** Sends an answer built outside a handler (the socket stays as the request left it). */
export function sendResponse(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  return writeResponse(req, res, response, new ClientGone(res));
}

/**
 * A request Node's HTTP parser refuses (bytes not allowed in the request
 * line, a head over the size limit, a broken chunked body) never reaches a
 * handler: answer it in the spec's error shape with a request id, as every
 * other 400, instead of Node's bare `400 Bad Request`.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || (err.code === 'ECONNRESET')) return void socket.destroy();
    const message = err.code === 'HPE_HEADER_OVERFLOW' ? 'The request head is too large' : 'Malformed HTTP request';
    const body = JSON.stringify({ error: 'validation_error', message });
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

/** The API alone on a plain Node server (scripts/serve.ts, the test suites, benchmarks). */
export function createNodeServer(): Server {
  const server = createServer((req, res) => void handleApiRequest(req, res));
  server.keepAliveTimeout = 65_000;
  answerClientErrors(server);
  return server;
}
