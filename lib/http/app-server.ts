// The HTTP server of `npm start` (scripts/server.ts): it owns the socket.
// /v1, /api/admin and /api/auth go straight to their web-standard handlers
// (lib/http/node-server.ts): no Next.js per-request overhead, and the peer's
// address reaches them (the staff sign-in guard counts per client). A method
// or path Next.js would fail on is answered here (answerBeforeNext).
// Everything else (pages, the console, static files) goes to Next.js, mounted
// with its custom-server API.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { getConfig } from '@/lib/config';
import { logError } from '@/lib/log';
import { clientAddress } from './client-ip';
import { answerBeforeNext, answerClientErrors, handleApiRequest, isApiPath, requestUrl, sendResponse } from './node-server';
import { loggableUrl } from './observe';

/** What `next({ dev: false }).getRequestHandler()` answers. */
export type NextRequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export function createAppServer(nextHandler: NextRequestHandler): Server {
  const { trustProxy } = getConfig();
  const server = createServer((req, res) => {
    const url = requestUrl(req);
    if (isApiPath(url.pathname)) return void handleApiRequest(req, res);
    const early = answerBeforeNext(req, url);
    if (early) return void sendResponse(req, res, early);
    // Code behind Next.js that wants the client reads it from
    // X-Forwarded-For: give it the address this server trusts,
    // never the one a client wrote (see lib/http/client-ip.ts).
    req.headers['x-forwarded-for'] = clientAddress(req.headers['x-forwarded-for'] as string | undefined, req.socket.remoteAddress, trustProxy);
    nextHandler(req, res).catch((err: unknown) => {
      logError('next.js request failed', err, { method: req.method, url: loggableUrl(requestUrl(req).href) });
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Internal Server Error');
    });
  });
  server.keepAliveTimeout = 65_000;
  answerClientErrors(server);
  return server;
}
