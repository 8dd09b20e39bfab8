// Before routing: the CORS preflight of every /v1 route (so unknown paths and
// any method get a proper preflight too; the handlers add CORS headers to
// their own responses, lib/http/handler.ts), and a quick redirect of signed-out
// visitors of /admin pages to the sign-in page, keeping where they were going.
// The console layout checks the session itself; this only spares a round trip
// and remembers the destination.
import { isPreflight, preflightResponse } from './lib/http/cors';
import { requestIdOf } from './lib/http/request-id';

const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?questline\.session_token=/;

export function proxy(request: Request): Response | undefined {
  const url = new URL(request.url);
  if (url.pathname.startsWith('/v1/')) return isPreflight(request) ? preflightResponse(requestIdOf(request)) : undefined;
  if (url.pathname === '/admin/sign-in' || SESSION_COOKIE.test(request.headers.get('cookie') ?? '')) return undefined;
  // Next.js wants an absolute Location here; it is this request's own origin.
  const signIn = new URL(`/admin/sign-in?next=${encodeURIComponent(url.pathname + url.search)}`, url);
  return new Response(null, { status: 307, headers: { Location: signIn.toString(), 'Cache-Control': 'no-store' } });
}

export const config = { matcher: ['/v1/:path*', '/admin', '/admin/:path*'] };
