// The shared part of a staff reset or completion of one player's mission: the
// mission from the catalog (read before the transaction), the player's record
// under their lock, the new record written with the player's next change
// number, the audit row, and the stream update published after commit.
// A completion makes the mission's rewards claimable, so each currency reward is
// given by the staff member as a grant is: it counts against the support
// role's grant limits of its currency (403 grant_limit_exceeded past one,
// nothing written) and the audit row's `after.charged` holds it (admins: no
// limit, `overLimit: true` past one).
import { progress } from '@/db/schema';
import type { MissionActionResult } from '@/lib/contract/desk';
import { rewardsOf, type Mission } from '@/lib/contract/mission';
import { AppError } from '@/lib/errors';
import type { Outcome } from '@/lib/idempotency/run-idempotent';
import { toMissionProgress } from '@/lib/missions/engine';
import type { ProgressRecord } from '@/lib/missions/schema';
import { readRecords } from '@/lib/progress/records';
import { readAttributes, zoneOf } from '@/lib/users/attributes';
import type { ServiceContext } from '../context';
import { notify } from '../_shared/notify';
import { chargeGrantLimit } from '../_shared/grant-limit';
import { nextUserSeq, staffWrite } from '../_shared/staff-write';

export interface MissionActionInput {
  userId: string;
  missionId: string;
  reason: string;
  /** Act on a user the app has never seen (else 404 user_not_found). */
  createUser?: boolean;
  idempotencyKey: string | null;
}

/** `op` names the write (its idempotency row); `next` answers the player's new record. */
export async function missionAction({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: MissionActionInput & {
    op: 'mission_reset' | 'mission_complete';
    next: (mission: Mission, record: ProgressRecord | null, now: number, zone: string) => ProgressRecord;
  };
}): Promise<Outcome<MissionActionResult>> {
  const { appId } = ctx;
  const { userId, missionId, reason, op, next } = input;
  const catalog = await ctx.deps.catalog(appId);
  const mission = catalog.missions.get(missionId);
  if (!mission || mission.archived) throw new AppError('mission_not_found', `No mission "${missionId}"`);
  const unseenUser = input.createUser === true ? 'create' : 'refuse';
  return staffWrite(ctx, { userId, op, idempotencyKey: input.idempotencyKey, request: { missionId, reason }, unseenUser }, async (tx) => {
    const db = tx.uow.tx;
    const now = ctx.now();
    const record = (await readRecords(db, appId, userId, [missionId])).get(missionId) ?? null;
    // The player's own calendar (their timezone attribute) decides the window, as for their events.
    const zone = zoneOf(await readAttributes(db, appId, userId));
    const updated = next(mission, record, now, zone);
    // Every currency reward of the mission's bundle is charged (the audit's `charged` is the first, `alsoCharged` the others).
    const lines = updated.status === 'completed' ? rewardsOf(mission).flatMap((r) => (r.kind === 'currency' ? [{ currency: r.currency, amount: r.amount }] : [])) : [];
    const [charged = null, ...alsoCharged] = lines;
    let overLimit = false;
    for (const line of lines) if (await chargeGrantLimit(db, ctx, line.currency, line.amount, now)) overLimit = true;
    const { userId: _u, missionId: _m, state, ...rest } = updated;
    // A reset or forced completion drops a sum's, distinct's or streak's running state (null), unless the verb keeps one.
    const fields = { ...rest, state: state ?? null };
    await db
      .insert(progress)
      .values({ appId, userId, missionId, ...fields })
      .onConflictDoUpdate({ target: [progress.appId, progress.userId, progress.missionId], set: fields });
    const seq = await nextUserSeq(db, appId, userId);
    const view = toMissionProgress({ mission, record: updated, locked: false, now, zone })!;
    const type = updated.status === 'completed' ? 'mission.completed' : 'mission.progress';
    tx.uow.afterCommit(() => ctx.deps.publish(appId, userId, seq, [{ type, data: view }]));
    // Outbound webhooks: a staff completion is a completion (same transaction; nothing for an app without such an endpoint).
    if (type === 'mission.completed') await notify(tx, { appId, userId }, [{ type, data: view }], now);
    const shown = (r: ProgressRecord | null) => r && { status: r.status, currentCount: r.currentCount, cycle: r.cycle, windowStart: r.windowStart };
    return { body: { progress: view }, audit: { before: { missionId, record: shown(record) }, after: { missionId, record: shown(updated), reason, ...(charged ? { charged } : {}), ...(alsoCharged.length > 0 ? { alsoCharged } : {}), ...(overLimit ? { overLimit: true } : {}) } } };
  });
}
