// claimReward: a mission's reward claimed, the one path of
// POST /v1/missions/:id/claim. The idempotency cache (24 h answers in the key-value store), then the claim
// itself: one statement (claimMission: the user's sequence number, status
// guard, balance, ledger, rollups and the key row with the answer), and after
// commit, side by side: the stream updates in the user's change order, the
// cached answer and a background refresh of the recommendations. The
// statement and the refusal: lib/claims/claim-mission.ts.
import { claimMission, claimRefusal, type ClaimResult } from '@/lib/claims/claim-mission';
import { readStoredAnswer } from '@/lib/events/write-event';
import { AppError } from '@/lib/errors';
import { cacheOutcome, cachedOutcome, idempotencyMismatch, storedBody, type Outcome } from '@/lib/idempotency/run-idempotent';
import { refreshRecommendationsInBackground } from '@/lib/recommendations/recommend';
import { publishInOrder } from '@/lib/updates/publish';
import { hasAudience, inAudience } from '@/lib/missions/audience';
import { readAttributes } from '@/lib/users/attributes';
import type { ServiceContext } from '../context';

export interface ClaimRewardInput {
  /** The claiming user (the token's subject). */
  userId: string;
  missionId: string;
  /** The caller's Idempotency-Key, without namespace; null for none. */
  idempotencyKey: string | null;
  /** The key's cached answer when the caller already read it with the token checks (null: not cached); undefined: read it here. */
  cachedAnswer?: string | null;
  /** The user's cached recommendations entry, read with the token checks (null: none); undefined: the refresh reads it. */
  cachedRecommendations?: string | null;
}

/** The stored (namespaced) key of a claim's Idempotency-Key. */
export const claimKey = (idempotencyKey: string) => `claim:${idempotencyKey}`;

/** Claims lost to a concurrent change of the same key before giving up. */
const MAX_ATTEMPTS = 5;

/** The claim is one statement of its own on ctx.deps.db (the process's database, never a caller's transaction). */
export async function claimReward({ ctx, input }: { ctx: ServiceContext; input: ClaimRewardInput }): Promise<Outcome<ClaimResult>> {
  const { appId } = ctx;
  const { missionId, userId } = input;
  const catalog = ctx.catalog ?? (await ctx.deps.catalog(appId));
  const key = input.idempotencyKey === null ? null : claimKey(input.idempotencyKey);
  const scope = { appId, userId, key, requestHash: `claim:${missionId}` };
  const cached = await cachedOutcome<ClaimResult>(scope, input.cachedAnswer);
  if (cached) return cached;
  const { db } = ctx.deps;
  // Audiences: a mission outside the caller's audience (or its campaign's) does
  // not exist for them, even when completed earlier (docs/api.md, "Audiences").
  // The attributes are read only for a mission that has an audience.
  const mission = catalog.missions.get(missionId);
  const campaign = mission?.campaignId ? (catalog.campaigns.get(mission.campaignId) ?? null) : null;
  if (mission && hasAudience(mission, campaign) && !inAudience(mission, campaign, await readAttributes(db, appId, userId))) {
    throw new AppError('mission_not_found', `No mission "${missionId}"`);
  }

  /** The stored answer of the key, when its row exists (a replay, or a misuse of the key: 422). */
  const replay = async (): Promise<Outcome<ClaimResult> | null> => {
    if (key === null) return null;
    const stored = await readStoredAnswer(db, { appId, userId }, key);
    if (!stored) return null;
    if (stored.hash !== scope.requestHash) throw idempotencyMismatch();
    return { status: stored.status, body: storedBody<ClaimResult>(stored.response), replay: 'db-hit' };
  };

  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const now = ctx.now();
    const written = await claimMission(db, { appId, userId, missionId, catalog, key, requestHash: scope.requestHash }, now);
    if (written.kind === 'key-taken') {
      const answer = await replay();
      if (answer) return answer;
      continue; // The key's holder rolled back in between: claim again.
    }
    if (written.kind === 'not-claimed') {
      // A sequence number taken by a claim that lost its race is published empty, so later changes need not wait for it.
      const published = written.seq === null ? null : publishInOrder(appId, userId, written.seq, []);
      // The key decides first (a replay of a claim that was granted), then why the mission cannot be claimed.
      const [answer] = await Promise.all([replay(), published]);
      if (answer) return answer;
      throw await claimRefusal(db, { appId, userId, missionId, catalog }, now);
    }
    const outcome: Outcome<ClaimResult> = { status: 200, body: written.result, replay: null };
    // After commit, side by side: the stream updates in the user's order, the cached answer.
    await Promise.all([publishInOrder(appId, userId, written.seq, written.updates), cacheOutcome(scope, outcome)]);
    // A first claim changes what is worth recommending: refresh in the background (pushes a `recommendation`).
    refreshRecommendationsInBackground(db, { appId, userId }, input.cachedRecommendations);
    return outcome;
  }
  throw new AppError('unavailable', 'Too many concurrent uses of this idempotency key; retry later');
}
