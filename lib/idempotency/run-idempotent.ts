// Exactly-once writes under an idempotency key. The key-value store answers
// replays fast for 24 h (`hit`); the database is the truth: the key's row is
// inserted in the same transaction as the write, so a concurrent or later
// duplicate finds it (`db-hit`) and nothing is applied twice. A different
// request under a used key is refused (422). Failed requests store nothing,
// so a client may retry them with the same key.
//
// Lock order: the user's lock is taken BEFORE the key row. A webhook delivery
// locks all of its users (in one global order) and then writes their key
// rows; a single request that took its key row first and then waited for the
// user's lock would close a cycle with such a delivery (a deadlock).
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { idempotencyKeys } from '@/db/schema';
import { inUnitOfWork, type UnitOfWork } from '@/db/unit-of-work';
import { AppError, isUnavailableError } from '@/lib/errors';
import { getKv } from '@/lib/kv';
import { isCircuitOpen } from '@/lib/kv/breaker';
import { kvKey } from '@/lib/kv/keys';
import { logError } from '@/lib/log';
import { lockUser } from '@/lib/progress/records';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const MAX_KEY_LENGTH = 255;

export interface StoredResponse<T = unknown> {
  status: number;
  body: T;
}

/**
 * What the write answers. Steps that must follow it (publication, analytics)
 * are queued on the unit of work it is given, so they run only for the first
 * application and only if the transaction commits.
 */
export interface Applied<T> extends StoredResponse<T> {
  /**
   * Set when the write found that this very request was already applied under
   * another identity (a webhook delivery re-sent under a new id): the stored
   * answer is that of the original, and the caller sees a replay.
   */
  replay?: 'db-hit';
}

export type Outcome<T> = StoredResponse<T> & { replay: null | 'hit' | 'db-hit' };

export interface IdempotencyScope {
  appId: string;
  /** Whose key it is, locked before the key row is taken; null for an app-level key (a webhook delivery). */
  userId: string | null;
  /** The full key, already prefixed where the spec says so (`claim:`). */
  key: string | null;
  /** Identifies the request: same key with another hash is a misuse. */
  requestHash: string;
}

/** The 24 h response cache entry of (app, user, key). */
export const idempotencyCacheKey = (appId: string, userId: string, key: string) => kvKey('idem', appId, userId, key);
/** App-level keys are stored under the empty user id, which no user can have (user ids are 1+ characters). */
const storedUserId = (s: IdempotencyScope) => s.userId ?? '';
const cacheKey = (s: IdempotencyScope) => idempotencyCacheKey(s.appId, storedUserId(s), s.key ?? '');

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

/** Whether a key has a length checkKey accepts (1 to MAX_KEY_LENGTH characters). */
function keyLengthOk(key: string): boolean {
  return key.length > 0 && key.length <= MAX_KEY_LENGTH;
}

/** The key when checkKey would accept it, else null (a route's early read skips a key the handler will refuse). */
export function usableKey(key: string | null): string | null {
  return key !== null && keyLengthOk(key) ? key : null;
}

export function checkKey(key: string | null | undefined, code: 'validation_error' | 'invalid_event' = 'validation_error'): string | null {
  if (key === undefined || key === null) return null;
  if (!keyLengthOk(key)) {
    throw new AppError(code, `idempotency key: must be 1 to ${MAX_KEY_LENGTH} characters`);
  }
  return key;
}

export function idempotencyMismatch(): AppError {
  return new AppError('idempotency_key_reused', 'This idempotency key was used with a different request');
}

/**
 * The response is kept as a JSON string inside the jsonb column: jsonb reorders
 * object keys, and a replay must answer the original payload byte for byte.
 */
export function storedBody<T>(response: unknown): T {
  return (typeof response === 'string' ? JSON.parse(response) : response) as T;
}

/**
 * The 24 h cached answer of the scope's key, or null (no key, or not cached).
 * `prefetched`: the store's value, when the caller already read it (in the
 * same round trip as the token checks); undefined to read it here.
 */
export async function cachedOutcome<T>(scope: IdempotencyScope, prefetched?: string | null): Promise<Outcome<T> | null> {
  if (scope.key === null) return null;
  let cached: string | null;
  if (prefetched !== undefined) cached = prefetched;
  else {
    try {
      cached = await getKv().get(cacheKey(scope));
    } catch (err) {
      // Fail-open: the cache only saves a transaction; the key's row in the
      // database still makes the write exactly-once (docs/operations/README.md).
      if (!isUnavailableError(err)) throw err;
      if (!isCircuitOpen(err)) logError('idempotency cache read failed; the database decides', err);
      return null;
    }
  }
  if (cached === null) return null;
  const entry = JSON.parse(cached) as StoredResponse<T> & { hash: string };
  if (entry.hash !== scope.requestHash) throw idempotencyMismatch();
  return { status: entry.status, body: entry.body, replay: 'hit' };
}

/** Caches a committed answer for 24 h; a failure is logged (the database row still answers replays). */
export async function cacheOutcome(scope: IdempotencyScope, outcome: StoredResponse<unknown>): Promise<void> {
  if (scope.key === null) return;
  const entry = JSON.stringify({ hash: scope.requestHash, status: outcome.status, body: outcome.body });
  await getKv()
    .set(cacheKey(scope), entry, { ttlMs: IDEMPOTENCY_TTL_MS })
    .then(
      () => undefined,
      (err: unknown) => {
        if (!isCircuitOpen(err)) logError('idempotency cache write failed', err);
      },
    );
}

/**
 * Applies `apply` once per key. With `options.uow` it joins that unit of work
 * (the caller commits); otherwise it runs in a transaction of its own.
 */
export async function runIdempotent<T>(
  scope: IdempotencyScope,
  apply: (uow: UnitOfWork) => Promise<Applied<T>>,
  options: { uow?: UnitOfWork } = {},
): Promise<Outcome<T>> {
  const cached = await cachedOutcome<T>(scope);
  if (cached) return cached;

  return inUnitOfWork(options.uow, async (uow): Promise<Outcome<T>> => {
    const { tx } = uow;
    if (scope.userId !== null) await lockUser(tx, scope.appId, scope.userId);
    const where = () =>
      and(eq(idempotencyKeys.appId, scope.appId), eq(idempotencyKeys.userId, storedUserId(scope)), eq(idempotencyKeys.key, scope.key!));
    let outcome: Outcome<T> | null = null;
    if (scope.key !== null) {
      // Blocks behind a concurrent transaction holding the same key until it ends.
      const claimed = await tx
        .insert(idempotencyKeys)
        .values({ appId: scope.appId, userId: storedUserId(scope), key: scope.key, requestHash: scope.requestHash, status: 0, response: {}, createdAt: Date.now() })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      if (claimed.length === 0) {
        const [existing] = await tx.select().from(idempotencyKeys).where(where());
        if (existing.requestHash !== scope.requestHash) throw idempotencyMismatch();
        outcome = { status: existing.status, body: storedBody<T>(existing.response), replay: 'db-hit' };
      }
    }
    if (outcome === null) {
      const applied = await apply(uow);
      if (scope.key !== null) {
        await tx.update(idempotencyKeys).set({ status: applied.status, response: JSON.stringify(applied.body) }).where(where());
      }
      outcome = { status: applied.status, body: applied.body, replay: applied.replay ?? null };
    }
    // Only once committed: a cached answer for a write that rolled back would be a lie.
    const done = outcome;
    if (scope.key !== null) uow.afterCommit(() => cacheOutcome(scope, done));
    return outcome;
  });
}
