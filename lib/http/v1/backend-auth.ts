// Authenticates the game backend on the endpoints only it may call (POST
// /v1/balance/spend), by either of:
//   - the app secret: `Authorization: Basic base64(appId:appSecret)`, checked
//     as POST /v1/auth/token checks it, with the same brute-force guard
//     (checkAppSecretGuarded, shared with the token request);
//   - the webhook signature: X-App-Id, X-Webhook-Timestamp and
//     X-Webhook-Signature = v1=HMAC-SHA256(webhook secret, `${timestamp}.${raw body}`),
//     as POST /v1/webhook/incoming checks it (lib/webhook/verify-signature.ts).
// A player's Bearer token is refused (401 unauthorized): it never spends.
import { serviceNow } from '@/lib/clock';
import { checkAppSecret } from '@/lib/apps/apps';
import { AppError } from '@/lib/errors';
import { kvKey } from '@/lib/kv/keys';
import { tokenFailuresLimiter } from '@/lib/ratelimit/policies';
import { checkSignedHeaders, verifySignature } from '@/lib/webhook/verify-signature';
import { rateLimitedError } from '../rate-limit';
import { systemServiceContext } from '../service-context';

/**
 * Whether `appSecret` is the app's secret, under the brute-force guard: only
 * failures count (consume() counts atomically, so concurrent wrong guesses
 * cannot overshoot), per (app, client address); past the cap even a right
 * secret is refused (429). Throws 401 invalid_credentials on a wrong secret.
 */
export async function checkAppSecretGuarded(appId: string, appSecret: string, clientIp: string, requestId: string): Promise<void> {
  const limiter = tokenFailuresLimiter();
  // Encoded parts: an app id with a `:` cannot reach another (app, address) pair's count.
  const failureKey = kvKey('app-ip', appId, clientIp);
  if (!(await checkAppSecret((await systemServiceContext(requestId)).deps.db, appId, appSecret))) {
    const counted = await limiter.consume(failureKey);
    if (!counted.success) throw rateLimitedError(counted);
    throw new AppError('invalid_credentials', 'Unknown app or wrong secret');
  }
  const state = await limiter.peek(failureKey);
  if (state.remaining <= 0) throw rateLimitedError({ ...state, success: false });
}

const HOW = 'authenticate as the game backend: Authorization: Basic base64(appId:appSecret), or the webhook signature headers (X-App-Id, X-Webhook-Timestamp, X-Webhook-Signature)';

/** How the backend authenticated: `signed` requests must also carry the idempotency key inside the signed body. */
export interface BackendCaller {
  appId: string;
  scheme: 'app-secret' | 'signature';
}

/** The app of a request made by its backend, or a 401 (a 429 past the app secret's guard). `raw`: the body's bytes, as signed. */
export async function authenticateBackend(req: Request, raw: Uint8Array, clientIp: string, requestId: string): Promise<BackendCaller> {
  const authorization = req.headers.get('authorization')?.trim() ?? '';
  const scheme = authorization.split(/\s+/, 1)[0]?.toLowerCase() ?? '';
  if (scheme === 'bearer') throw new AppError('unauthorized', `A player token cannot spend: ${HOW}`);
  if (scheme === 'basic') {
    let decoded: string;
    try {
      decoded = Buffer.from(authorization.slice(5).trim(), 'base64').toString('utf8');
    } catch {
      decoded = '';
    }
    const colon = decoded.indexOf(':');
    if (colon <= 0 || colon === decoded.length - 1) throw new AppError('invalid_credentials', 'Authorization: Basic must be base64(appId:appSecret)');
    const appId = decoded.slice(0, colon);
    await checkAppSecretGuarded(appId, decoded.slice(colon + 1), clientIp, requestId);
    return { appId, scheme: 'app-secret' };
  }
  if (authorization !== '') throw new AppError('unauthorized', `Unsupported Authorization scheme: ${HOW}`);
  if (req.headers.get('x-webhook-signature') === null) throw new AppError('unauthorized', `No credentials: ${HOW}`);
  const headers = checkSignedHeaders(
    { appId: req.headers.get('x-app-id'), timestamp: req.headers.get('x-webhook-timestamp'), signature: req.headers.get('x-webhook-signature') },
    Date.now(),
  );
  const { appId } = await verifySignature((await systemServiceContext(requestId)).deps.db, headers, raw, serviceNow());
  return { appId, scheme: 'signature' };
}
