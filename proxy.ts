// CORS preflight for every /v1 route, answered before routing (so unknown
// paths and any method get a proper preflight too). Responses of the
// handlers carry the CORS headers themselves (lib/http/handler.ts).
import { isPreflight, preflightResponse } from './lib/http/cors';
import { requestIdOf } from './lib/http/request-id';

export function proxy(request: Request): Response | undefined {
  if (isPreflight(request)) return preflightResponse(requestIdOf(request));
  return undefined;
}

export const config = { matcher: '/v1/:path*' };
