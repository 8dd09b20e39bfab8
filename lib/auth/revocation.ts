// The jti denylist and user-wide revocation. The key-value store answers the
// hot-path check; the database keeps every revocation so a restart of an
// in-process store (or a flushed Redis) is re-warmed at start-up.
import { gt } from 'drizzle-orm';
import { getDb, type DbOrTx } from '@/db/client';
import { recordAudit } from '@/lib/audit';
import { revokedTokens, userRevocations } from '@/db/schema';
import { getKv } from '@/lib/kv';
import { kvKey } from '@/lib/kv/keys';
import { TOKEN_TTL_SECONDS, type TokenClaims } from './jwt';

export const denyKey = (jti: string) => kvKey('deny', jti);
const userKey = (appId: string, userId: string) => kvKey('revoked-before', appId, userId);
const TOKEN_TTL_MS = TOKEN_TTL_SECONDS * 1000;

type Revocable = Pick<TokenClaims, 'jti' | 'appId' | 'userId' | 'exp'>;

async function storeTokenRevocation(db: DbOrTx, claims: Revocable, now: number): Promise<void> {
  await db
    .insert(revokedTokens)
    .values({ jti: claims.jti, appId: claims.appId, userId: claims.userId, expiresAt: claims.exp * 1000, revokedAt: now })
    .onConflictDoNothing();
}

async function cacheTokenRevocation(claims: Revocable, now: number): Promise<void> {
  const ttlMs = claims.exp * 1000 - now;
  if (ttlMs > 0) await getKv().set(denyKey(claims.jti), '1', { ttlMs });
}

async function storeUserRevocation(db: DbOrTx, appId: string, userId: string, now: number): Promise<void> {
  await db
    .insert(userRevocations)
    .values({ appId, userId, before: now })
    .onConflictDoUpdate({ target: [userRevocations.appId, userRevocations.userId], set: { before: now } });
}

async function cacheUserRevocation(appId: string, userId: string, now: number): Promise<void> {
  // A token issued before `now` lives at most one TTL longer.
  await getKv().set(userKey(appId, userId), String(now), { ttlMs: TOKEN_TTL_MS });
}

/** The holder of a token revokes it (POST /v1/auth/revoke). */
export async function revokeToken(claims: TokenClaims, now = Date.now()): Promise<void> {
  await storeTokenRevocation(await getDb(), claims, now);
  await cacheTokenRevocation(claims, now);
}

/**
 * Staff revoke one token by jti, or every token of a user issued before now,
 * with an audit row. A jti alone does not tell its expiry: it is kept for a
 * full token lifetime, which covers any token still valid.
 */
export async function revokeByStaff(
  input: { appId: string; jti: string } | { appId: string; userId: string },
  actor: string,
  now = Date.now(),
): Promise<void> {
  const db = await getDb();
  if ('jti' in input) {
    const claims: Revocable = { jti: input.jti, appId: input.appId, userId: '', exp: Math.ceil(now / 1000) + TOKEN_TTL_SECONDS };
    await db.transaction(async (tx) => {
      await storeTokenRevocation(tx, claims, now);
      await recordAudit(tx, { actor, action: 'token.revoke', appId: input.appId, target: `jti:${input.jti}`, after: { revokedAt: now } }, now);
    });
    await cacheTokenRevocation(claims, now);
  } else {
    await db.transaction(async (tx) => {
      await storeUserRevocation(tx, input.appId, input.userId, now);
      await recordAudit(tx, { actor, action: 'user.revoke_tokens', appId: input.appId, target: `user:${input.userId}`, after: { before: now } }, now);
    });
    await cacheUserRevocation(input.appId, input.userId, now);
  }
}

/**
 * Set (without expiry) once the store holds every revocation. A store that
 * lost it (Redis flushed or restarted empty, or evicting) is re-warmed from
 * the database before the answer is trusted, so a revoked token never comes
 * back to life.
 */
export const WARM_MARKER = 'revocations:warm';
let warming: Promise<unknown> | null = null;

export async function isRevoked(claims: TokenClaims): Promise<boolean> {
  const kv = getKv();
  const read = () =>
    Promise.all([kv.get(denyKey(claims.jti)), kv.get(userKey(claims.appId, claims.userId)), kv.get(WARM_MARKER)]);
  let [denied, before, warm] = await read();
  if (warm === null) {
    warming ??= warmRevocations().finally(() => (warming = null));
    await warming;
    [denied, before, warm] = await read();
  }
  if (denied !== null) return true;
  return before !== null && claims.issuedAtMs < Number(before);
}

/** Copies revocations that still matter from the database into the key-value store. */
export async function warmRevocations(now = Date.now()): Promise<number> {
  const db = await getDb();
  const kv = await getKv();
  const tokens = await db.select().from(revokedTokens).where(gt(revokedTokens.expiresAt, now));
  const users = await db.select().from(userRevocations).where(gt(userRevocations.before, now - TOKEN_TTL_MS));
  await Promise.all([
    ...tokens.map((t) => kv.set(denyKey(t.jti), '1', { ttlMs: t.expiresAt - now })),
    ...users.map((u) => kv.set(userKey(u.appId, u.userId), String(u.before), { ttlMs: u.before + TOKEN_TTL_MS - now })),
  ]);
  await kv.set(WARM_MARKER, String(now));
  return tokens.length + users.length;
}
