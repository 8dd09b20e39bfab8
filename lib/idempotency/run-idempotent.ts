// Exactly-once writes under an idempotency key. The key-value store answers
// replays fast for 24 h (`hit`); the database is the truth: the key's row is
// inserted in the same transaction as the write, so a concurrent or later
// duplicate finds it (`db-hit`) and nothing is applied twice. A different
// request under a used key is refused (422). Failed requests store nothing,
// so a client may retry them with the same key.
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { getDb, type Tx } from '@/db/client';
import { idempotencyKeys } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { getKv } from '@/lib/kv';
import { kvKey } from '@/lib/kv/keys';
import { logError } from '@/lib/log';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const MAX_KEY_LENGTH = 255;

export interface StoredResponse<T = unknown> {
  status: number;
  body: T;
}

export interface Applied<T> extends StoredResponse<T> {
  /**
   * Runs last inside the transaction, only for the first application, while
   * the writer's locks are held (broadcasts: so one user's updates are
   * published in commit order). Failures are logged, never fatal.
   */
  beforeCommit?: () => Promise<void>;
  /** Runs after commit, only for the first application (analytics). */
  afterCommit?: () => Promise<void>;
}

export type Outcome<T> = StoredResponse<T> & { replay: null | 'hit' | 'db-hit' };

interface Scope {
  appId: string;
  userId: string;
  /** The full key, already prefixed where the spec says so (`claim:`). */
  key: string | null;
  /** Identifies the request: same key with another hash is a misuse. */
  requestHash: string;
}

/** The 24 h response cache entry of (app, user, key). */
export const idempotencyCacheKey = (appId: string, userId: string, key: string) => kvKey('idem', appId, userId, key);
const cacheKey = (s: Scope) => idempotencyCacheKey(s.appId, s.userId, s.key ?? '');

/** A stable hash of a JSON value (object keys sorted). */
export function hashRequest(value: unknown): string {
  const canonical = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(canonical);
    if (v && typeof v === 'object') {
      return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])]));
    }
    return v;
  };
  return createHash('sha256').update(JSON.stringify(canonical(value))).digest('hex');
}

export function checkKey(key: string | null | undefined, code: 'validation_error' | 'invalid_event' = 'validation_error'): string | null {
  if (key === undefined || key === null) return null;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new AppError(code, `idempotency key: must be 1 to ${MAX_KEY_LENGTH} characters`);
  }
  return key;
}

function mismatch(): AppError {
  return new AppError('idempotency_key_reused', 'This idempotency key was used with a different request');
}

/**
 * The response is kept as a JSON string inside the jsonb column: jsonb reorders
 * object keys, and a replay must answer the original payload byte for byte.
 */
function storedBody<T>(response: unknown): T {
  return (typeof response === 'string' ? JSON.parse(response) : response) as T;
}

export async function runIdempotent<T>(scope: Scope, apply: (tx: Tx) => Promise<Applied<T>>): Promise<Outcome<T>> {
  const kv = await getKv();
  if (scope.key !== null) {
    const cached = await kv.get(cacheKey(scope));
    if (cached !== null) {
      const entry = JSON.parse(cached) as StoredResponse<T> & { hash: string };
      if (entry.hash !== scope.requestHash) throw mismatch();
      return { status: entry.status, body: entry.body, replay: 'hit' };
    }
  }

  const db = await getDb();
  let afterCommit: Applied<T>['afterCommit'];
  const outcome = await db.transaction(async (tx): Promise<Outcome<T>> => {
    if (scope.key !== null) {
      // Blocks behind a concurrent transaction holding the same key until it ends.
      const claimed = await tx
        .insert(idempotencyKeys)
        .values({ appId: scope.appId, userId: scope.userId, key: scope.key, requestHash: scope.requestHash, status: 0, response: {}, createdAt: Date.now() })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      if (claimed.length === 0) {
        const [existing] = await tx
          .select()
          .from(idempotencyKeys)
          .where(and(eq(idempotencyKeys.appId, scope.appId), eq(idempotencyKeys.userId, scope.userId), eq(idempotencyKeys.key, scope.key)));
        if (existing.requestHash !== scope.requestHash) throw mismatch();
        return { status: existing.status, body: storedBody<T>(existing.response), replay: 'db-hit' };
      }
    }
    const applied = await apply(tx);
    afterCommit = applied.afterCommit;
    if (scope.key !== null) {
      await tx
        .update(idempotencyKeys)
        .set({ status: applied.status, response: JSON.stringify(applied.body) })
        .where(and(eq(idempotencyKeys.appId, scope.appId), eq(idempotencyKeys.userId, scope.userId), eq(idempotencyKeys.key, scope.key)));
    }
    if (applied.beforeCommit) {
      try {
        await applied.beforeCommit();
      } catch (err) {
        logError('before-commit step failed', err, { appId: scope.appId, userId: scope.userId });
      }
    }
    return { status: applied.status, body: applied.body, replay: null };
  });

  if (outcome.replay === null && afterCommit) {
    try {
      await afterCommit();
    } catch (err) {
      logError('after-commit step failed', err, { appId: scope.appId, userId: scope.userId });
    }
  }
  if (scope.key !== null) {
    const entry = JSON.stringify({ hash: scope.requestHash, status: outcome.status, body: outcome.body });
    await kv.set(cacheKey(scope), entry, { ttlMs: IDEMPOTENCY_TTL_MS }).catch((err: unknown) => logError('idempotency cache write failed', err));
  }
  return outcome;
}
