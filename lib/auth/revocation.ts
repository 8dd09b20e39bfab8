// The jti denylist and user-wide revocation. The key-value store answers the
// hot-path check; the database keeps every revocation so a restart of an
// in-process store (or a flushed Redis) is re-warmed at start-up.
import { gt } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { revokedTokens, userRevocations } from '@/db/schema';
import { getKv } from '@/lib/kv';
import { TOKEN_TTL_SECONDS, type TokenClaims } from './jwt';

const denyKey = (jti: string) => `deny:${jti}`;
const userKey = (appId: string, userId: string) => `revoked-before:${appId}:${userId}`;
const TOKEN_TTL_MS = TOKEN_TTL_SECONDS * 1000;

export async function revokeToken(claims: TokenClaims, now = Date.now()): Promise<void> {
  const expiresAt = claims.exp * 1000;
  const db = await getDb();
  await db
    .insert(revokedTokens)
    .values({ jti: claims.jti, appId: claims.appId, userId: claims.userId, expiresAt, revokedAt: now })
    .onConflictDoNothing();
  const ttlMs = expiresAt - now;
  if (ttlMs > 0) await (await getKv()).set(denyKey(claims.jti), '1', { ttlMs });
}

/** Revokes every token of the user issued before `now`. */
export async function revokeUserTokens(appId: string, userId: string, now = Date.now()): Promise<void> {
  const db = await getDb();
  await db
    .insert(userRevocations)
    .values({ appId, userId, before: now })
    .onConflictDoUpdate({ target: [userRevocations.appId, userRevocations.userId], set: { before: now } });
  // A token issued before `now` lives at most one TTL longer.
  await (await getKv()).set(userKey(appId, userId), String(now), { ttlMs: TOKEN_TTL_MS });
}

export async function isRevoked(claims: TokenClaims): Promise<boolean> {
  const kv = await getKv();
  const [denied, before] = await Promise.all([kv.get(denyKey(claims.jti)), kv.get(userKey(claims.appId, claims.userId))]);
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
  return tokens.length + users.length;
}
