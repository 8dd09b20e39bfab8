// Runs before routing for /v1 and /api/admin under Next.js (`next start`,
// serverless; the custom server of `npm start` does the same itself):
// - a CORS preflight for any /v1 path and method is answered here;
// - a path whose percent-escapes do not decode is a 400 validation_error
//   here, before Next.js's router fails on it with a bare 500.
// Responses of the handlers carry the CORS headers themselves (lib/http/handler.ts).
import { isPreflight, preflightResponse } from './lib/http/cors';
import { hasMalformedEscape, malformedPathResponse } from './lib/http/malformed-path';
import { requestIdOf } from './lib/http/request-id';

export function proxy(request: Request): Response | undefined {
  const cors = !new URL(request.url).pathname.startsWith('/api/admin');
  if (cors && isPreflight(request)) return preflightResponse(requestIdOf(request));
  // The raw path: the URL Next.js hands over keeps the escapes as sent.
  const pathname = new URL(request.url).pathname;
  if (hasMalformedEscape(pathname)) return malformedPathResponse(request, pathname, cors);
  return undefined;
}

export const config = { matcher: ['/v1/:path*', '/api/admin/:path*'] };
