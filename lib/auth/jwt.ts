// Access tokens: HS256 JWTs with sub (user), app, jti and a one-hour expiry.
// Verification pins the algorithm and requires exp, jti, sub and app.
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { getConfig } from '@/lib/config';
import { AppError } from '@/lib/errors';
import { processWide } from '@/lib/process-wide';

export const TOKEN_TTL_SECONDS = 3600;

export interface TokenClaims {
  appId: string;
  userId: string;
  jti: string;
  /** Expiry, Unix seconds. */
  exp: number;
  /** Issued at, Unix ms (the `iat_ms` claim), for user-wide revocation. */
  issuedAtMs: number;
}

export interface IssuedToken {
  accessToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  expiresAt: number;
}

/** A signed token of `userId` in `appId` (its verb: lib/services/auth/issue-access-token.ts); `now` on the wall clock, which verification reads. */
export async function signAccessToken(appId: string, userId: string, now = Date.now()): Promise<IssuedToken> {
  const iat = Math.floor(now / 1000);
  const exp = iat + TOKEN_TTL_SECONDS;
  const accessToken = await new SignJWT({ app: appId, iat_ms: now })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setJti(randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(getConfig().jwtSecret);
  return { accessToken, tokenType: 'Bearer', expiresIn: TOKEN_TTL_SECONDS, expiresAt: exp * 1000 };
}

const HS256_HEADERS = new Set(['{"alg":"HS256","typ":"JWT"}', '{"typ":"JWT","alg":"HS256"}', '{"alg":"HS256"}']);

/**
 * The common case checked synchronously with node:crypto (no WebCrypto job
 * per token): a plain HS256 header, a signature equal to the one computed
 * over the exact bytes, unexpired, no `nbf`, and the claims in their types.
 * Anything else answers null and goes through jose, which gives the exact
 * verdict and error (so this path never accepts what jose would refuse).
 */
function verifyHs256Fast(token: string, secret: Uint8Array): TokenClaims | null {
  const first = token.indexOf('.');
  const second = token.indexOf('.', first + 1);
  if (first <= 0 || second <= first + 1 || token.indexOf('.', second + 1) !== -1) return null;
  const header = Buffer.from(token.slice(0, first), 'base64url').toString('utf8');
  if (!HS256_HEADERS.has(header) || Buffer.from(header, 'utf8').toString('base64url') !== token.slice(0, first)) return null;
  const expected = createHmac('sha256', secret).update(token.slice(0, second)).digest('base64url');
  const given = token.slice(second + 1);
  if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected))) return null;
  const payloadPart = token.slice(first + 1, second);
  if (!/^[A-Za-z0-9_-]+$/.test(payloadPart)) return null;
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(Buffer.from(payloadPart, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return null;
  const { sub, jti, exp, app, iat, nbf } = payload;
  const now = Math.floor(Date.now() / 1000);
  if (typeof exp !== 'number' || !(exp > now) || nbf !== undefined || (iat !== undefined && typeof iat !== 'number')) return null;
  if (typeof sub !== 'string' || !sub || typeof jti !== 'string' || !jti || typeof app !== 'string' || !app) return null;
  if (payload.iss !== undefined || payload.aud !== undefined) return null;
  const iatMs = typeof payload.iat_ms === 'number' ? payload.iat_ms : ((iat as number | undefined) ?? 0) * 1000;
  return { appId: app, userId: sub, jti, exp, issuedAtMs: iatMs };
}

/** Checks signature, algorithm and claims; throws 401 unauthorized. Does not look at the denylist. */
async function verifyAccessToken(token: string): Promise<TokenClaims> {
  const fast = verifyHs256Fast(token, getConfig().jwtSecret);
  if (fast) return fast;
  try {
    const { payload } = await jwtVerify(token, getConfig().jwtSecret, {
      algorithms: ['HS256'],
      requiredClaims: ['exp', 'jti', 'sub', 'app'],
    });
    const { sub, jti, exp, app } = payload;
    if (typeof sub !== 'string' || !sub || typeof jti !== 'string' || !jti || typeof app !== 'string' || !app || typeof exp !== 'number') {
      throw new AppError('unauthorized', 'Token claims are malformed');
    }
    const iatMs = typeof payload.iat_ms === 'number' ? payload.iat_ms : (payload.iat ?? 0) * 1000;
    return { appId: app, userId: sub, jti, exp, issuedAtMs: iatMs };
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof joseErrors.JWTExpired) throw new AppError('unauthorized', 'Token expired');
    throw new AppError('unauthorized', 'Invalid token');
  }
}

/** Reads the bearer token from the Authorization header (or, for streams, a query parameter). */
export function bearerToken(req: Request, allowQueryParam = false): string | null {
  const header = req.headers.get('authorization');
  if (header) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match ? match[1] : null;
  }
  if (allowQueryParam) return new URL(req.url).searchParams.get('access_token');
  return null;
}

/** Verified tokens, so a client's every request does not pay the HMAC and claim checks again. */
const VERIFIED_TTL_MS = 5 * 60_000;
const VERIFIED_MAX = 50_000;
const VERIFIED_EVICT = VERIFIED_MAX / 8;
const verified = processWide('jwt.verified', () => ({ secret: null as unknown, tokens: new Map<string, { claims: TokenClaims; until: number }>() }));

/**
 * verifyAccessToken with a short-lived cache of successes (5 min, never past
 * the token's expiry; dropped when the secret changes). Revocation is not
 * cached: the caller checks it on every request.
 */
export async function verifyAccessTokenCached(token: string, now = Date.now()): Promise<TokenClaims> {
  const secret = getConfig().jwtSecret;
  if (verified.secret !== secret) {
    verified.tokens.clear();
    verified.secret = secret;
  }
  const hit = verified.tokens.get(token);
  if (hit && hit.until > now) return hit.claims;
  const claims = await verifyAccessToken(token);
  if (verified.tokens.size >= VERIFIED_MAX) {
    // Oldest first (a Map keeps insertion order, and every entry lives at most
    // VERIFIED_TTL_MS, so the expired ones are among the oldest), an eighth at
    // a time: a full cache costs one short sweep per VERIFIED_MAX / 8 new
    // tokens. (It used to walk every entry on every insert once full, an O(n)
    // cost per new token when more players than VERIFIED_MAX are active.)
    let drop = VERIFIED_EVICT;
    for (const t of verified.tokens.keys()) {
      if (drop-- <= 0) break;
      verified.tokens.delete(t);
    }
  }
  verified.tokens.set(token, { claims, until: Math.min(now + VERIFIED_TTL_MS, claims.exp * 1000) });
  return claims;
}
