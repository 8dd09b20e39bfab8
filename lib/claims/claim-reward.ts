// Claiming a mission's reward: the one path of POST /v1/missions/:id/claim.
// Idempotency under the claim's key, the user's lock, the claim itself
// (claimMission: status guard, ledger, balance, the user's sequence number),
// and after commit, side by side: the stream updates in the user's change
// order, the cached answer and a background refresh of the recommendations;
// the dashboard's rollups are written in the claim's transaction. Callers see only `{ ctx, input }` → the answer.
import { claimRollups, writeRollups } from '@/lib/analytics/rollups';
import { getCatalog, type Catalog } from '@/lib/catalog/catalog';
import { runIdempotent, type Outcome } from '@/lib/idempotency/run-idempotent';
import { refreshRecommendationsInBackground } from '@/lib/recommendations/recommend';
import { publishInOrder } from '@/lib/updates/publish';
import { claimMission, type ClaimResult } from './claim-mission';

export type { ClaimResult } from './claim-mission';

export interface ClaimContext {
  appId: string;
  /** The claiming user (the token's subject). */
  userId: string;
  catalog?: Catalog;
}

export interface ClaimRewardInput {
  missionId: string;
  /** The caller's Idempotency-Key, without namespace; null for none. */
  idempotencyKey: string | null;
}

export async function claimReward({ ctx, input }: { ctx: ClaimContext; input: ClaimRewardInput }): Promise<Outcome<ClaimResult>> {
  const { appId, userId } = ctx;
  const { missionId } = input;
  const catalog = ctx.catalog ?? (await getCatalog(appId));
  return runIdempotent<ClaimResult>(
    { appId, userId, key: input.idempotencyKey === null ? null : `claim:${input.idempotencyKey}`, requestHash: `claim:${missionId}` },
    async (uow) => {
      const { result, updates, seq } = await claimMission(uow.tx, { appId, userId, missionId, catalog });
      uow.afterCommit(() => publishInOrder(appId, userId, seq, updates));
      // The dashboard's counts, in the claim's transaction (a replay never gets here).
      await writeRollups(uow.tx, { appId, userId, at: result.progress.updatedAt, deltas: claimRollups(missionId, result.reward) });
      // A first claim changes what is worth recommending: refresh in the background (pushes a `recommendation`).
      uow.afterCommit(async () => refreshRecommendationsInBackground({ ctx: { appId, userId } }));
      return { status: 200, body: result };
    },
  );
}
