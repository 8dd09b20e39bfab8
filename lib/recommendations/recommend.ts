// A user's recommendations: the candidates ranked by the model, or by the
// deterministic fallback when there is no model or it fails (never an error
// for an AI failure). Results are cached per user in the key-value store; a
// model call in flight is shared by concurrent requests for the same user on
// this instance; every fresh computation is pushed as a `recommendation`
// stream message. A first claim refreshes them in the background. The verb:
// lib/services/recommendations/get-recommendations.ts.
import { serviceNow } from '@/lib/clock';
import type { DbOrTx } from '@/db/client';
import { RECOMMENDATIONS_LIMIT } from '@/lib/contract/v1';
import { getCatalog } from '@/lib/catalog/catalog';
import { getKv } from '@/lib/kv';
import { isCircuitOpen } from '@/lib/kv/breaker';
import { kvKey } from '@/lib/kv/keys';
import { logError, logInfo, logWarn } from '@/lib/log';
import { processWide } from '@/lib/process-wide';
import { publishUpdates } from '@/lib/updates/publish';
import { listCandidates, rankFallback, type Candidate } from './candidates';
import { modelSettings } from './model';
import { rankWithModel, RecommendationFailure } from './rank-with-model';
import { readUserState } from '@/lib/progress/user-state';

export interface Recommendation {
  userId: string;
  missionIds: string[];
  reason: string;
  /** True when the ranking is the deterministic fallback (no model configured, or the model failed). */
  fallback: boolean;
  generatedAt: number;
}

const DEFAULT_LIMIT = RECOMMENDATIONS_LIMIT.default;
/** A model's ranking is kept 5 minutes; a fallback 30 s, so a passing model failure is retried soon. */
const CACHE_TTL_MS = 5 * 60_000;
const FALLBACK_CACHE_TTL_MS = 30_000;
/** The model sees at most this many candidates (the first of the fallback order): a bounded prompt. */
const MAX_PROMPT_CANDIDATES = 30;

export const FALLBACK_REASON = 'Rewards ready to claim first, then the missions closest to completion, then the newest.';
export const NOTHING_REASON = 'No mission can be progressed or claimed right now.';

/** Whose recommendations, and the database their state is read from. */
interface Whose {
  appId: string;
  userId: string;
  db: DbOrTx;
}

interface CacheEntry {
  limit: number;
  result: Recommendation;
}

/** The key of a user's cached recommendations (the claim route reads it with the token checks). */
export const recommendationCacheKey = (appId: string, userId: string) => kvKey('recs', appId, userId);
const cacheKey = (who: Whose) => recommendationCacheKey(who.appId, who.userId);

async function loadCandidates(who: Whose, now: number): Promise<Candidate[]> {
  const catalog = await getCatalog(who.appId);
  // Records and attributes in one statement, gathered with other users' reads of the same moment.
  const { records, attributes } = await readUserState(who.db, { appId: who.appId, userId: who.userId });
  // Audiences: a mission outside the user's audience is never a candidate (and a cached answer naming one is stale).
  return rankFallback(listCandidates(catalog, records, now, attributes));
}

/** The cached entry; `raw`: its text already read (null: none), so the store is not asked again. */
async function readCache(who: Whose, raw?: string | null): Promise<CacheEntry | null> {
  try {
    const text = raw === undefined ? await getKv().get(cacheKey(who)) : raw;
    return text === null ? null : (JSON.parse(text) as CacheEntry);
  } catch (err) {
    if (!isCircuitOpen(err)) logError('recommendation cache read failed', err, { appId: who.appId });
    return null;
  }
}

async function compute(who: Whose, limit: number): Promise<Recommendation> {
  const now = serviceNow();
  const candidates = await loadCandidates(who, now);
  const shortlist = candidates.slice(0, MAX_PROMPT_CANDIDATES);
  const { model, timeoutMs } = modelSettings();
  const fallback = (): Pick<Recommendation, 'missionIds' | 'reason' | 'fallback'> => ({
    missionIds: shortlist.slice(0, limit).map((c) => c.mission.id),
    reason: FALLBACK_REASON,
    fallback: true,
  });

  let ranked: Pick<Recommendation, 'missionIds' | 'reason' | 'fallback'>;
  if (shortlist.length === 0) {
    ranked = { missionIds: [], reason: NOTHING_REASON, fallback: model === null };
  } else if (model === null) {
    logInfo('recommendations: fallback', { appId: who.appId, reason: 'no_model' });
    ranked = fallback();
  } else {
    try {
      ranked = { ...(await rankWithModel({ model, timeoutMs, candidates: shortlist, limit, now })), fallback: false };
    } catch (err) {
      const failure = err instanceof RecommendationFailure ? err : new RecommendationFailure('api_error', String(err), { cause: err });
      logWarn('recommendations: fallback', { appId: who.appId, reason: failure.kind, detail: failure.message });
      ranked = fallback();
    }
  }

  const result: Recommendation = { userId: who.userId, ...ranked, generatedAt: Date.now() };
  const entry: CacheEntry = { limit, result };
  await getKv()
    .set(cacheKey(who), JSON.stringify(entry), { ttlMs: result.fallback ? FALLBACK_CACHE_TTL_MS : CACHE_TTL_MS })
    .catch((err: unknown) => {
      if (!isCircuitOpen(err)) logError('recommendation cache write failed', err, { appId: who.appId });
    });
  await publishUpdates(who.appId, who.userId, [
    { type: 'recommendation', data: { userId: who.userId, missionIds: result.missionIds, reason: result.reason } },
  ]);
  return result;
}

// One computation per (app, user, limit) at a time on this instance, shared by its callers.
type Flights = Map<string, Promise<Recommendation>>;
function flights(): Flights {
  return processWide<Flights>('recommendations.flights', () => new Map());
}

/**
 * Joins the computation in flight, or starts one. `fresh` waits for one that
 * started earlier (it may have read the user's state before a claim) and
 * starts anew, unless another fresh one has started meanwhile.
 */
async function shared(who: Whose, limit: number, fresh: boolean): Promise<Recommendation> {
  const all = flights();
  const key = JSON.stringify([who.appId, who.userId, limit]);
  const before = all.get(key);
  if (before && !fresh) return before;
  if (before && fresh) {
    await before.catch(() => undefined);
    const after = all.get(key);
    if (after && after !== before) return after;
  }
  const flight: Promise<Recommendation> = compute(who, limit).finally(() => {
    if (all.get(key) === flight) all.delete(key);
  });
  all.set(key, flight);
  return flight;
}

/** GET /v1/recommendations: the cached answer while it is fresh and still names only candidates, else a new one. */
export async function currentRecommendations(db: DbOrTx, user: { appId: string; userId: string }, limit: number): Promise<Recommendation> {
  const who: Whose = { ...user, db };
  const cached = await readCache(who);
  if (cached && cached.limit === limit) {
    const current = new Set((await loadCandidates(who, serviceNow())).map((c) => c.mission.id));
    // A claimed or expired mission drops out: such an answer is stale however young it is.
    if (cached.result.missionIds.every((id) => current.has(id))) return cached.result;
  }
  return shared(who, limit, false);
}

/**
 * Recomputes (with the limit last asked for) and pushes the result; for the background refresh and tests.
 * `cached`: the cache entry's text when the caller read it already (the claim route, with the token checks).
 */
async function refreshRecommendations({ who, cached }: { who: Whose; cached?: string | null }): Promise<Recommendation> {
  const entry = await readCache(who, cached);
  return shared(who, entry?.limit ?? DEFAULT_LIMIT, true);
}

/**
 * Starts refreshRecommendations without waiting for it (after a claim commits); failures are logged.
 */
export function refreshRecommendationsInBackground(db: DbOrTx, user: { appId: string; userId: string }, cached?: string | null): void {
  void refreshRecommendations({ who: { ...user, db }, cached }).catch((err: unknown) =>
    logError('recommendation refresh failed', err, { appId: user.appId }),
  );
}
