// The jti denylist, user-wide revocation and app secret rotation (which ends
// every token of the app issued before it). The key-value store answers the
// hot-path check in one round trip (MGET); the database keeps every
// revocation and rotation time, so a restart of an in-process store (or a
// flushed Redis) is re-warmed at start-up.
import { and, eq, gt } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { apps, revokedTokens, userRevocations } from '@/db/schema';
import { isUnavailableError } from '@/lib/errors';
import { getKv } from '@/lib/kv';
import { isCircuitOpen } from '@/lib/kv/breaker';
import { logError } from '@/lib/log';
import { kvKey } from '@/lib/kv/keys';
import { processWide } from '@/lib/process-wide';
import { TOKEN_TTL_SECONDS, type TokenClaims } from './jwt';

export const denyKey = (jti: string) => kvKey('deny', jti);
const userKey = (appId: string, userId: string) => kvKey('revoked-before', appId, userId);
const rotationKey = (appId: string) => kvKey('secret-rotated', appId);
const TOKEN_TTL_MS = TOKEN_TTL_SECONDS * 1000;

export type Revocable = Pick<TokenClaims, 'jti' | 'appId' | 'userId' | 'exp'>;

/** The token's revocation row (the truth the store is warmed from); the cache write follows with cacheTokenRevocation. */
export async function storeTokenRevocation(db: DbOrTx, claims: Revocable, now: number): Promise<void> {
  await db
    .insert(revokedTokens)
    .values({ jti: claims.jti, appId: claims.appId, userId: claims.userId, expiresAt: claims.exp * 1000, revokedAt: now })
    .onConflictDoNothing();
}

/**
 * A cache write that the store refused while unreachable. The database row is
 * written first and is the truth; the store is marked for a re-warm (by this
 * process, on its next check that finds the store back), so the revocation
 * reaches the store even if Redis kept its old contents (and its warm marker).
 */
async function cacheWrite(write: () => Promise<unknown>, what: string): Promise<void> {
  try {
    await write();
  } catch (err) {
    if (!isUnavailableError(err)) throw err;
    warming.stale = true;
    if (!isCircuitOpen(err)) logError(`revocation: ${what} not cached (key-value store unavailable); re-warm pending`, err);
  }
}

/** The key-value store's copy of a token's revocation, kept until the token would expire. */
export async function cacheTokenRevocation(claims: Revocable, now: number): Promise<void> {
  const ttlMs = claims.exp * 1000 - now;
  if (ttlMs > 0) await cacheWrite(() => getKv().set(denyKey(claims.jti), '1', { ttlMs }), 'token revocation');
}

async function storeUserRevocation(db: DbOrTx, appId: string, userId: string, now: number): Promise<void> {
  await db
    .insert(userRevocations)
    .values({ appId, userId, before: now })
    .onConflictDoUpdate({ target: [userRevocations.appId, userRevocations.userId], set: { before: now } });
}

async function cacheUserRevocation(appId: string, userId: string, now: number): Promise<void> {
  // A token issued before `now` lives at most one TTL longer.
  await cacheWrite(() => getKv().set(userKey(appId, userId), String(now), { ttlMs: TOKEN_TTL_MS }), 'user revocation');
}

/**
 * The app secret was rotated at `rotatedAt`: its tokens issued before end now.
 * Tokens live one TTL at most, so the key does too. Called after the rotation
 * committed (lib/services/apps/rotate-app-secret.ts); the database row is the truth for re-warming.
 */
export async function cacheSecretRotation(appId: string, rotatedAt: number, now = Date.now()): Promise<void> {
  const ttlMs = rotatedAt + TOKEN_TTL_MS - now;
  if (ttlMs > 0) await cacheWrite(() => getKv().set(rotationKey(appId), String(rotatedAt), { ttlMs }), 'secret rotation');
}

/**
 * One token revoked by jti, written in the caller's transaction (staff,
 * lib/services/auth/revoke-tokens.ts); the answer is the cache write to run
 * once it has committed. A jti alone does not tell its expiry: it is kept for
 * a full token lifetime, which covers any token still valid.
 */
export async function revokeJtiInTransaction(tx: DbOrTx, appId: string, jti: string, now: number): Promise<() => Promise<void>> {
  const claims: Revocable = { jti, appId, userId: '', exp: Math.ceil(now / 1000) + TOKEN_TTL_SECONDS };
  await storeTokenRevocation(tx, claims, now);
  return () => cacheTokenRevocation(claims, now);
}

/**
 * Every token of the user issued before `now` is revoked, written in the
 * caller's transaction (a data erasure); the answer is the cache write to run
 * once it has committed.
 */
export async function revokeUserInTransaction(tx: DbOrTx, appId: string, userId: string, now: number): Promise<() => Promise<void>> {
  await storeUserRevocation(tx, appId, userId, now);
  return () => cacheUserRevocation(appId, userId, now);
}

/**
 * Set (without expiry) once the store holds every revocation. A store that
 * lost it (Redis flushed or restarted empty, or evicting) is re-warmed from
 * the database before the answer is trusted, so a revoked token never comes
 * back to life.
 */
export const WARM_MARKER = 'revocations:warm';
// One re-warm at a time per process, whichever Next.js chunk checks a token;
// `stale`: a revocation could not be cached, re-warm once the store answers.
const warming = processWide('revocation.warming', () => ({ pending: null as Promise<unknown> | null, stale: false }));

/** The database, asked for only when needed: a re-warm or a check while the store is unreachable. */
type DatabaseOf = () => Promise<DbOrTx>;

function rewarm(database: DatabaseOf): Promise<unknown> {
  // Joining a warm-up already under way leaves `stale` set: that one may have
  // read the database before the revocation that set it, so the next check
  // warms again.
  if (!warming.pending) {
    warming.stale = false;
    warming.pending = database()
      .then((db) => warmRevocations(db))
      .catch((err: unknown) => {
        warming.stale = true;
        throw err;
      })
      .finally(() => (warming.pending = null));
  }
  return warming.pending;
}

/**
 * Why the token no longer counts (the 401's message), or null while it does.
 * `database` is resolved only when the store lost its contents or is unreachable.
 */
async function revocationOf(claims: TokenClaims, database: DatabaseOf): Promise<string | null> {
  return (await revocationAnd(claims, database, [])).revoked;
}

/**
 * revocationOf, with `keys` read in the same MGET (a route's `storedKeys`:
 * one command, not one more per request). `values` holds their values in order,
 * or is undefined when the answer came from the database (the store
 * unreachable): the caller then reads them itself.
 */
export async function revocationAnd(
  claims: TokenClaims,
  database: DatabaseOf,
  keys: readonly string[],
): Promise<{ revoked: string | null; values: (string | null)[] | undefined }> {
  try {
    return await revocationFromStore(claims, database, keys);
  } catch (err) {
    // Fail-safe, neither open nor closed: with the store unreachable the
    // answer comes from the database, which holds every revocation (three
    // indexed reads per request while the outage lasts). If the database is
    // down too, the request answers 503.
    if (!isUnavailableError(err)) throw err;
    return { revoked: await revocationFromDatabase(await database(), claims), values: undefined };
  }
}

async function revocationFromStore(
  claims: TokenClaims,
  database: DatabaseOf,
  keys: readonly string[],
): Promise<{ revoked: string | null; values: (string | null)[] }> {
  const kv = getKv();
  // One round trip: the jti, the user-wide cut-off, the app's last secret rotation, the marker, and the caller's keys.
  const read = () => kv.mget([denyKey(claims.jti), userKey(claims.appId, claims.userId), rotationKey(claims.appId), WARM_MARKER, ...keys]);
  let [denied, before, rotated, warm, ...values] = await read();
  // The store answers: re-warm it if it lost its contents (no marker) or missed a revocation while unreachable.
  if (warm === null || warming.stale) {
    await rewarm(database);
    [denied, before, rotated, warm, ...values] = await read();
  }
  const revoked = verdict(claims, denied !== null, before === null ? null : Number(before), rotated === null ? null : Number(rotated));
  return { revoked, values };
}

function verdict(claims: TokenClaims, denied: boolean, before: number | null, rotated: number | null): string | null {
  if (denied) return 'Token revoked';
  if (before !== null && claims.issuedAtMs < before) return 'Token revoked';
  if (rotated !== null && claims.issuedAtMs < rotated) return 'Token issued before the app secret was rotated';
  return null;
}

/** The same answer from the database alone (the key-value store is unreachable). */
async function revocationFromDatabase(db: DbOrTx, claims: TokenClaims): Promise<string | null> {
  const [[token], [user], [app]] = await Promise.all([
    db.select({ jti: revokedTokens.jti }).from(revokedTokens).where(eq(revokedTokens.jti, claims.jti)).limit(1),
    db
      .select({ before: userRevocations.before })
      .from(userRevocations)
      .where(and(eq(userRevocations.appId, claims.appId), eq(userRevocations.userId, claims.userId)))
      .limit(1),
    db.select({ rotatedAt: apps.secretRotatedAt }).from(apps).where(eq(apps.id, claims.appId)).limit(1),
  ]);
  return verdict(claims, token !== undefined, user?.before ?? null, app?.rotatedAt ?? null);
}

export async function isRevoked(claims: TokenClaims, database: DatabaseOf): Promise<boolean> {
  return (await revocationOf(claims, database)) !== null;
}

/** Copies revocations and secret rotations that still matter from the database into the key-value store. */
export async function warmRevocations(db: DbOrTx, now = Date.now()): Promise<number> {
  const kv = await getKv();
  const tokens = await db.select().from(revokedTokens).where(gt(revokedTokens.expiresAt, now));
  const users = await db.select().from(userRevocations).where(gt(userRevocations.before, now - TOKEN_TTL_MS));
  const rotations = await db
    .select({ id: apps.id, rotatedAt: apps.secretRotatedAt })
    .from(apps)
    .where(gt(apps.secretRotatedAt, now - TOKEN_TTL_MS));
  await Promise.all([
    ...tokens.map((t) => kv.set(denyKey(t.jti), '1', { ttlMs: t.expiresAt - now })),
    ...users.map((u) => kv.set(userKey(u.appId, u.userId), String(u.before), { ttlMs: u.before + TOKEN_TTL_MS - now })),
    ...rotations.map((r) => kv.set(rotationKey(r.id), String(r.rotatedAt), { ttlMs: Math.max(1, r.rotatedAt + TOKEN_TTL_MS - now) })),
  ]);
  await kv.set(WARM_MARKER, String(now));
  return tokens.length + users.length + rotations.length;
}
