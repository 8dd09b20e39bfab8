// Claiming a completed mission: completed → claimed, the reward written to the
// ledger and, for currency, the balance credited, all in one transaction.
// The status guard and the ledger's unique grant key make it exactly-once.
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Tx } from '@/db/client';
import { ledger } from '@/db/schema';
import { creditBalance } from '@/lib/balances/balances';
import type { Balance } from '@/lib/contract/balance';
import type { Catalog } from '@/lib/catalog/catalog';
import { AppError } from '@/lib/errors';
import { toMissionProgress } from '@/lib/missions/engine';
import type { MissionProgress } from '@/lib/contract/progress';
import { readRecords } from '@/lib/progress/records';
import type { SdkUpdate } from '@/lib/contract/updates';
import type { claimResponseSchema } from '@/lib/contract/v1';

/** The body of POST /v1/missions/:id/claim. */
export type ClaimResult = z.output<typeof claimResponseSchema>;

export async function claimMission(
  tx: Tx,
  input: { appId: string; userId: string; missionId: string; catalog: Catalog },
  now = Date.now(),
): Promise<{ result: ClaimResult; updates: SdkUpdate[]; seq: number }> {
  const { appId, userId, missionId } = input;
  const mission = input.catalog.missions.get(missionId);
  if (!mission) throw new AppError('mission_not_found', `No mission "${missionId}"`);

  // The caller holds the user's lock (lockUser); the claim bumps the user's
  // sequence number in the same statement that claims, so a concurrent
  // event's optimistic write sees the change, and the updates go out in order.
  const result = await tx.execute(sql`
    with s as (update user_sequences set seq = seq + 1 where app_id = ${appId} and user_id = ${userId} returning seq)
    update progress set status = 'claimed', updated_at = ${now} from s
    where progress.app_id = ${appId} and progress.user_id = ${userId} and progress.mission_id = ${missionId} and progress.status = 'completed'
    returning progress.cycle, progress.target_count, s.seq::text as seq`);
  const claimed = (result as unknown as { rows: Array<{ cycle: number; target_count: number; seq: string }> }).rows.map((r) => ({
    cycle: Number(r.cycle),
    targetCount: Number(r.target_count),
    seq: Number(r.seq),
  }))[0];
  if (!claimed) {
    const record = (await readRecords(tx, appId, userId, [missionId])).get(missionId) ?? null;
    // An archived mission exists only for users who have a record of it (as in GET /v1/missions/:id).
    if (mission.archived && record === null) throw new AppError('mission_not_found', `No mission "${missionId}"`);
    // As the user reads it: a claimed record of a window that is over reads as a fresh, active cycle.
    const status = toMissionProgress({ mission, record, locked: false, now })?.status;
    throw new AppError(
      'claim_not_ready',
      status === 'claimed' ? `Mission "${missionId}" is already claimed` : `Mission "${missionId}" is not completed`,
    );
  }

  const reward = mission.reward;
  const grantKey = `mission:${missionId}:cycle:${claimed.cycle}`;
  let balance: Balance | null = null;
  if (reward.kind === 'currency') {
    balance = await creditBalance(tx, { appId, userId, currency: reward.currency, amount: reward.amount, grantKey, missionId }, now);
  } else {
    await tx.insert(ledger).values({
      appId,
      userId,
      grantKey,
      kind: reward.kind,
      itemId: reward.kind === 'item' ? reward.itemId : null,
      quantity: reward.kind === 'item' ? reward.quantity : null,
      badgeId: reward.kind === 'badge' ? reward.badgeId : null,
      missionId,
      createdAt: now,
    });
  }

  // The spec's claim answer: claimed, progress 1, currentCount equal to targetCount.
  const progressView: MissionProgress = {
    userId,
    missionId,
    status: 'claimed',
    progress: 1,
    currentCount: claimed.targetCount,
    targetCount: claimed.targetCount,
    updatedAt: now,
  };
  const updates: SdkUpdate[] = [{ type: 'reward.granted', data: { userId, missionId, reward } }];
  if (balance) updates.push({ type: 'balance.changed', data: balance });
  return { result: { progress: progressView, balance, reward }, updates, seq: claimed.seq };
}
