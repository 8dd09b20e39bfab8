// /api/auth/* – Better Auth's own routes (sign in, sign out, session, change
// password), web-standard, behind a limit on failed sign-ins: per e-mail
// address, and per client where the client is known (TRUST_PROXY), counted in
// the shared store so every instance sees them. Past either cap a sign-in is
// refused (429) even with the right password.
import { boot } from '@/lib/boot';
import { getStaffAuth, wantsSecureCookies, type StaffAuth } from '@/lib/auth/staff-auth';
import { getConfig } from '@/lib/config';
import { AppError, isUnavailableError } from '@/lib/errors';
import { toStoredEmail } from '@/lib/staff/email';
import { logError } from '@/lib/log';
import { outageLog } from '@/lib/log-outage';
import { signInFailuresPerClient, signInFailuresPerEmail } from '@/lib/ratelimit/policies';
import type { Limiter, LimitResult } from '@/lib/ratelimit/types';
import { readRawBody } from './body';
import { clientIp, UNKNOWN_CLIENT } from './client-ip';
import { rateLimitedError } from './rate-limit';
import { requestIdOf } from './request-id';
import { errorResponse } from './respond';
import { loggableUrl } from './observe';

/** The body's address as stored (`…@localhost` → lib/staff/email.ts), and the body to forward. */
function parseSignIn(raw: string): { email: string | null; body: string } {
  try {
    const body = JSON.parse(raw) as { email?: unknown };
    if (typeof body.email !== 'string') return { email: null, body: raw };
    const email = toStoredEmail(body.email);
    return { email, body: email === body.email ? raw : JSON.stringify({ ...body, email }) };
  } catch {
    return { email: null, body: raw };
  }
}

function refused(results: LimitResult[]): LimitResult | null {
  return results.find((r) => r.remaining <= 0) ?? null;
}

async function signInWithLimit(req: Request, auth: StaffAuth): Promise<Response> {
  const { email, body } = parseSignIn(await readRawBody(req));
  // Better Auth answers a malformed body itself; only a named account is counted.
  const keys: [Limiter, string][] = [];
  if (email) keys.push([signInFailuresPerEmail(), email]);
  // Next.js serves this route and hands it no socket address: the client is
  // known only behind TRUST_PROXY. An unknown client is not one shared bucket
  // (30 failures from anyone would lock everyone out); the per-address cap holds.
  const client = clientIp(req, undefined, getConfig().trustProxy);
  if (client !== UNKNOWN_CLIENT) keys.push([signInFailuresPerClient(), client]);
  const over = refused(await Promise.all(keys.map(([limiter, key]) => limiter.peek(key))));
  if (over) throw rateLimitedError({ ...over, success: false });

  const headers = new Headers(req.headers);
  headers.delete('content-length'); // the body may have been rewritten
  const res = await auth.handler(new Request(req.url, { method: 'POST', headers, body, signal: req.signal }));
  if (res.status === 401) {
    // Counted after the check, atomically in the store: concurrent guesses cannot overshoot.
    await Promise.all(keys.map(([limiter, key]) => limiter.consume(key)));
  }
  return res;
}

// Sign-in fails closed while Redis (its failure limits) or PostgreSQL is
// away: every attempt answers 503, but the log has one line when that begins
// and one when a sign-in is answered again, not one per attempt.
const signInOutage = outageLog('staff.signIn', 'staff sign-in');

function isEmailSignIn(req: Request): boolean {
  return req.method === 'POST' && new URL(req.url).pathname.replace(/\/+$/, '').endsWith('/sign-in/email');
}

export async function handleStaffAuth(req: Request): Promise<Response> {
  const requestId = requestIdOf(req);
  try {
    await boot();
    const auth = await getStaffAuth(wantsSecureCookies(req.headers, req.url));
    const signIn = isEmailSignIn(req);
    const res = signIn ? await signInWithLimit(req, auth) : await auth.handler(req);
    // Answered (a wrong password is an answer too): Redis and PostgreSQL both took part.
    if (signIn && res.status < 500) signInOutage.recovered({ requestId });
    const out = new Response(res.body, res);
    out.headers.set('X-Request-Id', requestId);
    out.headers.set('Cache-Control', 'no-store');
    return out;
  } catch (err) {
    // PostgreSQL or Redis (the sign-in failure limits fail closed) unreachable: 503, not 500.
    const unavailable = !(err instanceof AppError) && isUnavailableError(err);
    const fields = { requestId, method: req.method, url: loggableUrl(req.url) };
    if (unavailable && isEmailSignIn(req)) signInOutage.failed(err, fields);
    else if (!(err instanceof AppError)) logError('staff auth failure', err, fields);
    const res = errorResponse(
      err instanceof AppError
        ? err
        : unavailable
          ? new AppError('unavailable', 'A dependency of the service is unavailable; retry later')
          : new AppError('internal_error', 'Unexpected error; quote the X-Request-Id when reporting it'),
    );
    res.headers.set('X-Request-Id', requestId);
    return res;
  }
}
