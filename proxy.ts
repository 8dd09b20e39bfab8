// Runs before routing under Next.js (`next start`, serverless; the custom
// server of `npm start` does the /v1 and /api/admin part itself):
// - a CORS preflight for any /v1 path and method is answered here;
// - a path whose percent-escapes do not decode (also under Better Auth's
//   /api/auth) is a 400 validation_error here, before Next.js's router fails
//   on it with a bare 500; so is an API path with a `.`/`..` segment still
//   in it (lib/http/malformed-path.ts);
// - a signed-out visitor of an /admin page goes to the sign-in page, keeping
//   where they were going (the console layout checks the session itself;
//   this spares a round trip and remembers the destination).
// Responses of the handlers carry the CORS headers themselves (lib/http/handler.ts).
import { isPreflight, preflightResponse } from './lib/http/cors';
import { hasDotSegment, hasMalformedEscape, malformedPathResponse, rawPathOf } from './lib/http/malformed-path';
import { requestIdOf } from './lib/http/request-id';

const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?questline\.session_token=/;

function consolePage(request: Request, url: URL): Response | undefined {
  if (url.pathname === '/admin/sign-in' || SESSION_COOKIE.test(request.headers.get('cookie') ?? '')) return undefined;
  // Next.js wants an absolute Location here; it is this request's own origin.
  const signIn = new URL(`/admin/sign-in?next=${encodeURIComponent(url.pathname + url.search)}`, url);
  return new Response(null, { status: 307, headers: { Location: signIn.toString(), 'Cache-Control': 'no-store' } });
}

export function proxy(request: Request): Response | undefined {
  const url = new URL(request.url);
  // The raw path: the URL Next.js hands over keeps the escapes as sent.
  const pathname = url.pathname;
  if (pathname === '/admin' || pathname.startsWith('/admin/')) return consolePage(request, url);
  // CORS under /v1 only: not for /api/admin nor Better Auth's /api/auth.
  const cors = !pathname.startsWith('/api/');
  if (cors && isPreflight(request)) return preflightResponse(requestIdOf(request));
  if (hasMalformedEscape(pathname)) return malformedPathResponse(request, pathname, cors);
  const raw = rawPathOf(request.url);
  if (hasDotSegment(raw)) return malformedPathResponse(request, raw, cors, 'dot');
  return undefined;
}

export const config = { matcher: ['/v1/:path*', '/api/admin/:path*', '/api/auth/:path*', '/admin', '/admin/:path*'] };
