// The support role's grant limits (lib/contract/app.ts grantLimitOf: per grant,
// and per staff member per UTC day) against one amount of a currency a staff
// member is about to give a player: a grant or correction, or a mission
// completion whose reward the player can then claim (the same currency, so
// the same limits; else reset + complete of a claimed mission is an unbounded
// grant). Past one: 403 grant_limit_exceeded for the support role; admins and
// the admin API key have no limit, the caller audits overLimit: true.
import { eq, sql } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { apps } from '@/db/schema';
import { grantLimitOf } from '@/lib/contract/app';
import { AppError } from '@/lib/errors';
import { actorLabel, type ServiceContext } from '../context';

const DAY_MS = 86_400_000;

/**
 * Throws 403 grant_limit_exceeded for the support role past a limit; answers true when an unbounded
 * actor (admin, admin API key) is past one. The day's total is what the actor gave of the currency in
 * the app since 00:00 UTC: the sum of |change| of their user.grant audit rows and of the rewards their
 * user.mission_complete rows charged (`after.charged`), read under a transaction lock of (app, actor,
 * currency) held to commit, so concurrent writes by the same staff member are counted one after another.
 */
export async function checkGrantLimit(db: Tx, ctx: ServiceContext, currency: string, size: number, now: number): Promise<boolean> {
  const actor = actorLabel(ctx.actor);
  const bounded = ctx.actor.role === 'support';
  const [app] = await db.select({ grantLimits: apps.grantLimits }).from(apps).where(eq(apps.id, ctx.appId));
  const { perGrant, perStaffPerDay } = grantLimitOf(app?.grantLimits ?? null, currency);
  if (perGrant === null && perStaffPerDay === null) return false;
  let remaining: number | null = null;
  if (perStaffPerDay !== null) {
    await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`grant-limit:${ctx.appId}:${actor}:${currency}`}, 0))`);
    const dayStart = now - (now % DAY_MS);
    const result = await db.execute(sql`select coalesce(sum(case when action = 'user.grant' then abs((after->>'change')::bigint)
        else (after->'charged'->>'amount')::bigint end), 0)::text as used from audit_log
      where app_id = ${ctx.appId} and at >= ${dayStart} and actor = ${actor}
        and ((action = 'user.grant' and after->>'currency' = ${currency})
          or (action = 'user.mission_complete' and after->'charged'->>'currency' = ${currency}))`);
    const used = Number((result as unknown as { rows: Array<{ used: string }> }).rows[0].used);
    remaining = Math.max(0, perStaffPerDay - used);
  }
  const left = remaining === null ? '' : `; ${remaining} ${currency} left today (UTC)`;
  if (perGrant !== null && size > perGrant) {
    if (!bounded) return true;
    throw new AppError('grant_limit_exceeded', `Support may grant or correct at most ${perGrant} ${currency} at a time (asked ${size})${left}`, {
      extra: { limit: perGrant, ...(remaining === null ? {} : { remaining }) },
    });
  }
  if (perStaffPerDay !== null && remaining !== null && size > remaining) {
    if (!bounded) return true;
    throw new AppError('grant_limit_exceeded', `Support may grant or correct at most ${perStaffPerDay} ${currency} a day per staff member (asked ${size})${left}`, {
      extra: { limit: perStaffPerDay, remaining },
    });
  }
  return false;
}
