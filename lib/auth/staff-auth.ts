// Staff accounts and sessions: Better Auth (e-mail and password) on the
// service's own database through its drizzle adapter, PGlite included.
// Sessions live in the database (no cookie cache), so a role change or a
// removal takes effect on the very next request.
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import type { Db } from '@/db/client';
import { processDb } from '@/lib/process-db';
import { staff, staffAccount, staffSession, staffVerification } from '@/db/schema';
import { getConfig } from '@/lib/config';
import { processWide } from '@/lib/process-wide';
import { logError, logInfo, logWarn } from '@/lib/log';
import { STAFF_ROLES } from '@/lib/auth/roles';
import { STAFF_PASSWORD_MAX, STAFF_PASSWORD_MIN } from '@/lib/contract/staff';
import { requestHost } from './same-origin';

/** Better Auth's routes are mounted here (app/api/auth/[...all]/route.ts). */
const STAFF_AUTH_PATH = '/api/auth';
const COOKIE_PREFIX = 'questline';

async function createStaffAuth(db: Db, secureCookies: boolean) {
  const config = getConfig();
  return betterAuth({
    appName: 'Questline',
    // Unset: each request's own origin (Host header), so the embedded default
    // works on any address without configuration.
    baseURL: config.publicUrl ?? undefined,
    basePath: STAFF_AUTH_PATH,
    secret: config.staffAuthSecret,
    database: drizzleAdapter(db, { provider: 'pg', schema: { staff, staffSession, staffAccount, staffVerification } }),
    user: {
      modelName: 'staff',
      additionalFields: {
        // input: false: no Better Auth endpoint can set it; only the admin API does.
        role: { type: [...STAFF_ROLES], required: true, defaultValue: 'support', input: false },
      },
    },
    session: { modelName: 'staffSession' },
    account: { modelName: 'staffAccount' },
    verification: { modelName: 'staffVerification' },
    emailAndPassword: {
      enabled: true,
      // Admins create staff accounts (POST /api/admin/staff); nobody signs themselves up.
      disableSignUp: true,
      minPasswordLength: STAFF_PASSWORD_MIN,
      maxPasswordLength: STAFF_PASSWORD_MAX,
    },
    // Endpoints the console does not use: no e-mail is ever sent, accounts are
    // removed by an admin, and an address changes only through an admin.
    disabledPaths: [
      '/sign-up/email',
      '/delete-user',
      '/change-email',
      '/update-user',
      '/request-password-reset',
      '/reset-password',
      '/send-verification-email',
      '/verify-email',
    ],
    // Failed sign-ins are limited per address and per client by our own limiter
    // (lib/http/staff-auth-handler.ts), shared across instances through Redis.
    rateLimit: { enabled: false },
    // Writes carrying a session cookie must come from a page of this very host
    // (or a configured origin); Better Auth refuses the others (CSRF).
    trustedOrigins: (request?: Request) => sameHostOrigins(request, config.trustedOrigins),
    advanced: { useSecureCookies: secureCookies, cookiePrefix: COOKIE_PREFIX },
    telemetry: { enabled: false },
    logger: { level: 'warn', log: logBetterAuth },
    // Its API errors too: by default it prints their message to the console,
    // past our logger's redaction, echoing what the client sent (a Content-Type).
    onAPIError: { onError: logBetterAuthError },
  });
}

/**
 * An error Better Auth answered: a refusal (4xx) is one info line with its
 * status and code, never its message (which can quote the request); a
 * failure (5xx, or not an API error) is an error line, redacted as every line.
 */
function logBetterAuthError(error: unknown): void {
  const api = error as { name?: unknown; statusCode?: unknown; body?: { code?: unknown } } | null;
  if (api?.name === 'APIError' && typeof api.statusCode === 'number' && api.statusCode < 500) {
    logInfo('staff auth: request refused', { status: api.statusCode, code: typeof api.body?.code === 'string' ? api.body.code : undefined });
    return;
  }
  logError('staff auth: request failed', error);
}

/**
 * What Better Auth reports at error level about a request it refuses, not a
 * failure of ours: a foreign `Origin` (anyone can send one, on every
 * request), a callback URL off this host, a cross-site navigation sign-in.
 */
const CLIENT_REFUSAL = /^(Invalid (?:origin|callbackURL|redirectURL|errorCallbackURL|newUserCallbackURL)|Blocked cross-site navigation login attempt)/;
/** Per kind of refusal and instance, one warn line per this time at most; the ones between are counted into the next. */
export const REFUSAL_LOG_EVERY_MS = 60_000;
const refusalLog = processWide('staff-auth.refusal-log', () => new Map<string, { loggedAt: number; unlogged: number }>());

function logRefusal(kind: string, message: string): void {
  const now = Date.now();
  const last = refusalLog.get(kind);
  if (last && now - last.loggedAt < REFUSAL_LOG_EVERY_MS) {
    last.unlogged += 1;
    return;
  }
  // The message quotes what the client sent (the Origin): cut, and redacted as every line.
  const detail = message.length > 200 ? `${message.slice(0, 200)}…` : message;
  logWarn('staff auth: request refused by Better Auth', { refusal: kind, detail, ...(last ? { unloggedSinceLast: last.unlogged } : {}) });
  refusalLog.set(kind, { loggedAt: now, unlogged: 0 });
}

/**
 * Better Auth's warnings and errors as our one-line JSON logs (one `level`
 * each), minus the expected "Base URL is not set"; a refused request is a
 * rate-bounded warning, not an error.
 */
export function logBetterAuth(level: 'debug' | 'info' | 'warn' | 'error', message: string, ...args: unknown[]): void {
  if (level === 'debug' || level === 'info' || /Base URL is not set/.test(message)) return;
  const refusal = CLIENT_REFUSAL.exec(message);
  if (refusal) logRefusal(refusal[1], message);
  else if (level === 'error') logError(`staff auth: ${message}`, args[0] ?? message);
  else logWarn(`staff auth: ${message}`);
}

export type StaffAuth = Awaited<ReturnType<typeof createStaffAuth>>;

function sameHostOrigins(request: Request | undefined, extra: string[]): string[] {
  const host = request ? requestHost(request.headers) : null;
  return host ? [`https://${host}`, `http://${host}`, ...extra] : extra;
}

/**
 * Cookies are `Secure` when the browser reached us over HTTPS: BETTER_AUTH_URL
 * says https, or the request (or the TLS-terminating proxy's
 * X-Forwarded-Proto) does. Plain HTTP on a LAN address still signs in.
 */
export function wantsSecureCookies(headers: Headers, url?: string): boolean {
  const configured = getConfig().publicUrl;
  if (configured) return configured.startsWith('https://');
  if (url?.startsWith('https://')) return true;
  return headers.get('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';
}

// One instance per cookie flavour (the `__Secure-` prefix changes the cookie's
// name) and per open database (tests close and reopen it), process-wide:
// Next.js bundles route handlers and pages into chunks that would otherwise
// build their own.
const instances = () => processWide('staffAuth', () => new WeakMap<Db, Map<boolean, Promise<StaffAuth>>>());

export async function getStaffAuth(secureCookies: boolean): Promise<StaffAuth> {
  const db = await processDb();
  const perDb = instances();
  let byFlavour = perDb.get(db);
  if (!byFlavour) perDb.set(db, (byFlavour = new Map()));
  let auth = byFlavour.get(secureCookies);
  if (!auth) {
    auth = createStaffAuth(db, secureCookies);
    auth.catch(() => byFlavour.delete(secureCookies));
    byFlavour.set(secureCookies, auth);
  }
  return auth;
}
