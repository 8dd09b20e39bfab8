// The one wrapper every /v1 and admin handler goes through: request id, CORS,
// authentication, rate limit, and errors turned into the spec's JSON body.
// Web-standard only (no next/* import), so a plain Node server can mount it.
import { AppError, isUnavailableError as isUnavailable } from '@/lib/errors';
import { bearerToken, verifyAccessTokenCached, type TokenClaims } from '@/lib/auth/jwt';
import { revocationAnd } from '@/lib/auth/revocation';
import type { Limiter } from '@/lib/ratelimit/types';
import { checkAdminRequest, identifyAdmin, type AdminIdentity } from '@/lib/auth/admin';
import type { Capability } from '@/lib/auth/roles';
import { BAD_TEXT, UNSTORABLE_TEXT } from './body';
import { withCors } from './cors';
import { errorResponse } from './respond';
import { requestIdOf } from './request-id';
import { rateLimitHeaders, rateLimitedError } from './rate-limit';
import { logError, logInfo } from '@/lib/log';
import { boot } from '@/lib/boot';
import { getConfig } from '@/lib/config';
import { clientIp } from './client-ip';
import { loggableUrl, noteApp } from './observe';
import { databaseOnDemand } from './service-context';
import { USER_BY_ID_SEGMENT } from '@/lib/contract/user-address';

type Params = Record<string, string>;
/** The second argument Next.js passes to route handlers; the Node servers pass the same, plus the peer's address. */
export interface RouteContext {
  /** Resolves to undefined for routes without dynamic segments (as Next.js passes it). */
  params: Promise<Params | undefined>;
  /**
   * The socket's remote address, set by our Node servers (never by a header,
   * so a client cannot choose it). Absent under Next.js route files.
   */
  remoteAddress?: string;
}
export type Handler = (req: Request, ctx: RouteContext) => Promise<Response>;
/** An admin handler, carrying the capability it requires. */
export type AdminHandler = Handler & { capability: Capability | 'authenticated' };

interface BaseContext {
  req: Request;
  url: URL;
  requestId: string;
  params: Params;
  /** The client's address for per-IP limits (lib/http/client-ip.ts). */
  clientIp: string;
}
export interface PublicContext extends BaseContext {
  auth: null;
}
export interface UserContext extends BaseContext {
  auth: TokenClaims;
}
export interface AdminContext extends BaseContext {
  admin: AdminIdentity;
}

export interface UserRouteOptions<P = undefined> {
  /** Accept the token in the `access_token` query parameter (streams only). */
  tokenInQuery?: boolean;
  /** Sliding-window limiter keyed by the token's jti. */
  limiter?: () => Limiter;
  /** A read sent with the token checks (same round trip); its result reaches the handler as `prefetched`. */
  prefetch?: (req: Request, auth: TokenClaims) => Promise<P> | undefined;
  /**
   * Key-value keys read in the token checks' own MGET (the same command):
   * their values (null: absent), in order, reach the handler as `stored`, or
   * undefined when the store was not read (unreachable): the handler then
   * reads what it needs itself.
   */
  storedKeys?: (req: Request, auth: TokenClaims) => string[];
}

function tokenOf(req: Request, tokenInQuery: boolean): string {
  const token = bearerToken(req, tokenInQuery);
  if (!token) throw new AppError('unauthorized', 'Missing bearer token');
  return token;
}

/** Status logged and counted for a request its client abandoned mid-upload (nginx's "client closed request"); never sent. */
export const CLIENT_CLOSED_REQUEST = 499;

function toErrorResponse(err: unknown, requestId: string, req: Request): Response {
  if (err instanceof AppError) return errorResponse(err);
  // By name: the error may come from another Next.js chunk's copy of lib/http/body.ts.
  if (err instanceof Error && err.name === 'ClientAbortError') {
    logInfo('client aborted its request body', { requestId, method: req.method, url: loggableUrl(req.url) });
    return new Response(null, { status: CLIENT_CLOSED_REQUEST });
  }
  if (isUnavailable(err)) {
    logError('dependency unavailable', err, { requestId, method: req.method, url: loggableUrl(req.url) });
    // Transient by nature (a connection refused, a Redis Cluster failing over): the client may send again shortly.
    return errorResponse(new AppError('unavailable', 'A dependency of the service is unavailable; retry later', { headers: { 'Retry-After': '1' } }));
  }
  logError('unhandled error', err, { requestId, method: req.method, url: loggableUrl(req.url) });
  return errorResponse(new AppError('internal_error', 'Unexpected error; quote the X-Request-Id when reporting it'));
}

function finish(res: Response, requestId: string, cors: boolean, extraHeaders: Headers | null): Response {
  // Responses built by fetch() or streams can have immutable headers; copy when needed.
  let out = res;
  try {
    out.headers.set('X-Request-Id', requestId);
  } catch {
    out = new Response(res.body, res);
    out.headers.set('X-Request-Id', requestId);
  }
  extraHeaders?.forEach((value, name) => out.headers.set(name, value));
  return cors ? withCors(out) : out;
}

async function run(
  req: Request,
  cors: boolean,
  body: (requestId: string, extra: Headers) => Promise<Response>,
  waitForBoot = true,
): Promise<Response> {
  const requestId = requestIdOf(req);
  const extra = new Headers();
  try {
    // Migrations and the denylist warm-up finish before any request is served.
    if (waitForBoot) await boot();
    return finish(await body(requestId, extra), requestId, cors, extra);
  } catch (err) {
    return finish(toErrorResponse(err, requestId, req), requestId, cors, extra);
  }
}

/** Path parameters and query values reach the database: refuse what PostgreSQL cannot store (400, not a 500). */
function checkStorable(url: URL, params: Params): void {
  for (const [name, value] of Object.entries(params)) {
    if (UNSTORABLE_TEXT.test(value)) throw new AppError('validation_error', `path parameter ${name}: ${BAD_TEXT}`);
  }
  for (const [name, value] of url.searchParams) {
    if (UNSTORABLE_TEXT.test(value)) throw new AppError('validation_error', `${name}: ${BAD_TEXT}`);
  }
}

/** Next.js passes no params (undefined) to routes without dynamic segments. */
async function paramsOf(ctx: RouteContext | undefined): Promise<Params> {
  return (await ctx?.params) ?? {};
}

function base(req: Request, requestId: string, params: Params, routeCtx: RouteContext | undefined): BaseContext {
  const url = new URL(req.url);
  checkStorable(url, params);
  return { req, url, requestId, params, clientIp: clientIp(req, routeCtx?.remoteAddress, getConfig().trustProxy) };
}

/**
 * An endpoint that takes no token (the token endpoint, the OpenAPI documents);
 * `cors: false` outside /v1; `boot: false` answers before start-up has
 * finished (health and readiness).
 */
export function publicRoute(fn: (ctx: PublicContext) => Promise<Response>, options: { cors?: boolean; boot?: boolean } = {}): Handler {
  return (req, routeCtx) =>
    run(
      req,
      options.cors ?? true,
      async (requestId) => fn({ ...base(req, requestId, await paramsOf(routeCtx), routeCtx), auth: null }),
      options.boot ?? true,
    );
}

/**
 * A /v1 endpoint behind a bearer JWT. The token's signature is checked from a
 * short-lived cache (lib/auth/jwt.ts); then the revocation read (one MGET,
 * which also reads the route's `storedKeys`: the idempotency answer cache, a
 * claim's cached recommendations),
 * the rate-limit script and the route's `prefetch` read are sent to the
 * key-value store together: one round trip.
 * A revoked token is refused even when the limiter or the read answered.
 */
export function userRoute<P = undefined>(
  options: UserRouteOptions<P>,
  fn: (ctx: UserContext & { prefetched: P | undefined; stored: (string | null)[] | undefined }) => Promise<Response>,
): Handler {
  return (req, routeCtx) =>
    run(req, true, async (requestId, extra) => {
      const auth = await verifyAccessTokenCached(tokenOf(req, options.tokenInQuery ?? false));
      noteApp(req, auth.appId);
      const [{ revoked, values: stored }, limited, prefetched] = await Promise.all([
        revocationAnd(auth, databaseOnDemand, options.storedKeys?.(req, auth) ?? []),
        options.limiter ? options.limiter().consume(auth.jti).then((r) => ({ ok: r }), (err: unknown) => ({ err })) : null,
        // A failed read is no answer: the route reads again (and fails open) itself.
        options.prefetch ? Promise.resolve(options.prefetch(req, auth)).catch(() => undefined) : undefined,
      ]);
      if (revoked !== null) throw new AppError('unauthorized', revoked);
      if (limited) {
        if ('err' in limited) throw limited.err;
        const result = limited.ok;
        if (!result.success) {
          const err = rateLimitedError(result);
          Object.entries(err.headers).forEach(([k, v]) => extra.set(k, v));
          throw err;
        }
        rateLimitHeaders(result).forEach((value, name) => extra.set(name, value));
      }
      return fn({ ...base(req, requestId, await paramsOf(routeCtx), routeCtx), auth, prefetched, stored });
    });
}

/**
 * The user an admin path names: its `:userId` segment, or, when that segment
 * is `by-id`, the `userId` query parameter (the one way to name `.` and `..`,
 * which no path segment can carry: lib/contract/user-address.ts). A query
 * `userId` beside any other segment names the user twice: 400.
 */
function addressedUser(url: URL, params: Params): Params {
  if (params.userId === undefined) return params;
  const named = url.searchParams.get('userId');
  if (named === null) return params;
  if (params.userId === USER_BY_ID_SEGMENT) return { ...params, userId: named };
  throw new AppError('validation_error', `userId: given in the path and in the query; name a user in the query after the segment ${USER_BY_ID_SEGMENT} (…/users/${USER_BY_ID_SEGMENT}?userId=…)`);
}

/**
 * An admin endpoint: ADMIN_API_KEY bearer (admin rights) or a staff session
 * whose role has `capability` (lib/auth/roles.ts); 401 signed out, 403 when
 * the role falls short or a cookie write comes from another origin. No CORS.
 * `authenticated`: any signed-in staff member (for "who am I").
 */
export function adminRoute(capability: Capability | 'authenticated', fn: (ctx: AdminContext) => Promise<Response>): AdminHandler {
  const handler: Handler = (req, routeCtx) =>
    run(req, false, async (requestId) => {
      const admin = capability === 'authenticated' ? await identifyAdmin(req) : await checkAdminRequest(req, capability);
      const params = await paramsOf(routeCtx);
      if (params.appId) noteApp(req, params.appId);
      const context = base(req, requestId, params, routeCtx);
      return fn({ ...context, params: addressedUser(context.url, params), admin });
    });
  // Tagged so a test can check every admin route against the role map.
  return Object.assign(handler, { capability });
}

/** Answers every method with the spec's error shape (405, or 404 for unknown routes). */
export function errorRoute(code: 'not_found' | 'method_not_allowed', cors = true, allow?: string): Handler {
  return (req) =>
    run(req, cors, async () => {
      const message = code === 'not_found' ? `No route ${new URL(req.url).pathname}` : `Method ${req.method} is not allowed here`;
      throw new AppError(code, message, allow ? { headers: { Allow: allow } } : {});
    });
}
