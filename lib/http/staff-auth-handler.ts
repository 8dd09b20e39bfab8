// /api/auth/* – Better Auth's own routes (sign in, sign out, session, change
// password), web-standard, with a guard on e-mail sign-ins that slows guessing
// down without letting anyone lock a staff member out (docs/security.md,
// "Staff sign-in"). Every count lives in the shared store, so every instance
// sees them:
// - per (account, client): 10 failures per 15 minutes, then 429 for that
//   client and that account only;
// - a client that has not failed for the account within 24 h gets its attempt
//   through at once (its first failure marks it), whatever else that client
//   or anyone else tried: the owner's first attempt from a shared address;
// - every other attempt: per client across accounts (password spraying) 30
//   failures per 15 minutes, and per account across clients 20 per hour
//   (sliding windows).
// The body is parsed here, once, and Better Auth gets the very body that was
// counted: JSON or form fields, re-encoded as JSON; anything else is refused.
import { createHmac } from 'node:crypto';
import { boot } from '@/lib/boot';
import { getStaffAuth, wantsSecureCookies, type StaffAuth } from '@/lib/auth/staff-auth';
import { getConfig } from '@/lib/config';
import { AppError, isUnavailableError } from '@/lib/errors';
import { getKv } from '@/lib/kv';
import { kvKey } from '@/lib/kv/keys';
import { toStoredEmail } from '@/lib/staff/email';
import { logError, logInfo } from '@/lib/log';
import { outageLog } from '@/lib/log-outage';
import { signInAttemptsPerAccount, signInFailuresPerClient, signInFailuresPerPair, SIGN_IN_CLEAN_MS } from '@/lib/ratelimit/policies';
import { readRawBody } from './body';
import { clientIp, UNKNOWN_CLIENT } from './client-ip';
import { rateLimitedError } from './rate-limit';
import { requestIdOf } from './request-id';
import { errorResponse } from './respond';
import { loggableUrl } from './observe';

/** The media types Better Auth's /sign-in/email parses (better-call compares the type before any `;`). */
const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

/**
 * The sign-in body as Better Auth would read it, with the address as stored
 * (trimmed, lower-case, `…@localhost` → lib/staff/email.ts): JSON (a leading
 * byte-order mark skipped, as request.json() does) or form fields. Anything
 * Better Auth would also read but this does not count is refused here, 400.
 */
function parseSignIn(contentType: string | null, raw: string): { email: string; fields: Record<string, unknown> } {
  const type = (contentType ?? '').toLowerCase().split(';')[0].trim();
  let fields: unknown;
  if (type === JSON_TYPE) {
    try {
      fields = JSON.parse(raw.replace(/^\uFEFF/, ''));
    } catch {
      throw new AppError('validation_error', 'body: not valid JSON');
    }
  } else if (type === FORM_TYPE) {
    fields = Object.fromEntries(new URLSearchParams(raw));
  } else {
    throw new AppError('validation_error', `body: sign-in takes ${JSON_TYPE} (or ${FORM_TYPE}), not "${type || 'no Content-Type'}"`);
  }
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) throw new AppError('validation_error', 'body: must be an object');
  const { email } = fields as { email?: unknown };
  if (typeof email !== 'string' || email.trim() === '') throw new AppError('validation_error', 'email: required, a string');
  return { email: toStoredEmail(email), fields: { ...fields, email: toStoredEmail(email) } };
}

/** The account as logs and limiter keys name it: a keyed hash of the stored address (never the address). */
function accountTag(email: string): string {
  return createHmac('sha256', getConfig().staffAuthSecret).update(email).digest('hex').slice(0, 16);
}

/**
 * "This client has tried this account": set by its first attempt (atomically),
 * kept for SIGN_IN_CLEAN_MS after its last failure, removed by any answer that
 * is not a failure.
 */
const cleanKey = (account: string, client: string) => kvKey('signin-seen', account, client);

async function signInWithLimit(req: Request, auth: StaffAuth, remoteAddress: string | undefined, requestId: string): Promise<Response> {
  const { email, fields } = parseSignIn(req.headers.get('content-type'), await readRawBody(req));
  const account = accountTag(email);
  // The socket's address under our Node servers; behind TRUST_PROXY, the
  // proxy's X-Forwarded-For. A Next.js route without TRUST_PROXY knows no
  // client: every request is then the one client "unknown".
  const client = clientIp(req, remoteAddress, getConfig().trustProxy);
  const pairKey = `${account}:${client}`;
  const pair = await signInFailuresPerPair().peek(pairKey);
  if (pair.remaining <= 0) throw rateLimitedError({ ...pair, success: false });

  // A client's first attempt on an account within 24 h goes through (so nobody
  // else's guesses, not even those from its own address on other accounts,
  // can refuse it); claimed atomically, so a burst from one client gets one.
  // Every later attempt must be within the client's failures across accounts
  // (spraying) and shares the account's hourly budget.
  const kv = getKv();
  const marker = cleanKey(account, client);
  const fresh = await kv.set(marker, '1', { nx: true, ttlMs: SIGN_IN_CLEAN_MS });
  if (!fresh) {
    if (client !== UNKNOWN_CLIENT) {
      const spraying = await signInFailuresPerClient().peek(client);
      if (spraying.remaining <= 0) throw rateLimitedError({ ...spraying, success: false });
    }
    const lane = await signInAttemptsPerAccount().consume(account);
    if (!lane.success) throw rateLimitedError(lane);
  }

  const headers = new Headers(req.headers);
  headers.delete('content-length'); // the body is re-encoded
  headers.set('content-type', JSON_TYPE);
  const body = JSON.stringify(fields);
  let res: Response;
  try {
    res = await auth.handler(new Request(req.url, { method: 'POST', headers, body, signal: req.signal }));
  } catch (err) {
    // No answer (PostgreSQL away): not a failure of this client's.
    if (fresh) await kv.del(marker).catch(() => undefined);
    throw err;
  }
  if (res.status === 401) {
    // Counted after the check, atomically in the store; the per-account budget above bounds a burst.
    const counts = [signInFailuresPerPair().consume(pairKey)];
    if (client !== UNKNOWN_CLIENT) counts.push(signInFailuresPerClient().consume(client));
    await Promise.all(counts);
    if (!fresh) await kv.set(marker, '1', { ttlMs: SIGN_IN_CLEAN_MS }); // 24 h from the last failure
    logInfo('staff sign-in failed', { requestId, client, account });
  } else {
    // Signed in (it knows the password), or refused for another reason that
    // tells nothing about the password: its next attempt is a first one again.
    await kv.del(marker);
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

/** The route's handler; `ctx.remoteAddress` is the socket's address, given by our Node servers only. */
export async function handleStaffAuth(req: Request, ctx?: { remoteAddress?: string }): Promise<Response> {
  const requestId = requestIdOf(req);
  try {
    await boot();
    const auth = await getStaffAuth(wantsSecureCookies(req.headers, req.url));
    const signIn = isEmailSignIn(req);
    const res = signIn ? await signInWithLimit(req, auth, ctx?.remoteAddress, requestId) : await auth.handler(req);
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
          ? new AppError('unavailable', 'A dependency of the service is unavailable; retry later', { headers: { 'Retry-After': '1' } })
          : new AppError('internal_error', 'Unexpected error; quote the X-Request-Id when reporting it'),
    );
    res.headers.set('X-Request-Id', requestId);
    return res;
  }
}
