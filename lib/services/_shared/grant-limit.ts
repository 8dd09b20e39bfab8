// The support role's grant limits (lib/contract/app.ts grantLimitOf: per grant,
// and per staff member per UTC day) against one amount of a currency a staff
// member is about to give a player: a grant or correction, or a mission
// completion whose reward the player can then claim (the same currency, so
// the same limits; else reset + complete of a claimed mission is an unbounded
// grant). Past one: 403 grant_limit_exceeded for the support role; admins and
// the admin API key have no limit, the caller audits overLimit: true.
import { eq, sql } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { apps, staffGrantUsage } from '@/db/schema';
import { grantLimitOf } from '@/lib/contract/app';
import { AppError } from '@/lib/errors';
import { actorLabel, type ServiceContext } from '../context';

const DAY_MS = 86_400_000;

/**
 * Charges `size` of the currency to the actor in the caller's transaction: throws 403
 * grant_limit_exceeded for the support role past a limit; else records it (staff_grant_usage) and
 * answers true when an unbounded actor (admin, admin API key) is past one. The day's total is what the
 * actor gave of the currency in the app since 00:00 UTC, read from staff_grant_usage (no player id:
 * a player's erasure leaves it, so it cannot reset a support member's day) under a transaction lock of
 * (app, actor, currency) held to commit, so concurrent writes by the same staff member are counted
 * one after another.
 */
export async function chargeGrantLimit(db: Tx, ctx: ServiceContext, currency: string, size: number, now: number): Promise<boolean> {
  const overLimit = await checkGrantLimit(db, ctx, currency, size, now);
  await db.insert(staffGrantUsage).values({ appId: ctx.appId, actor: actorLabel(ctx.actor), currency, amount: size, at: now });
  return overLimit;
}

async function checkGrantLimit(db: Tx, ctx: ServiceContext, currency: string, size: number, now: number): Promise<boolean> {
  const actor = actorLabel(ctx.actor);
  const bounded = ctx.actor.role === 'support';
  const [app] = await db.select({ grantLimits: apps.grantLimits }).from(apps).where(eq(apps.id, ctx.appId));
  const { perGrant, perStaffPerDay } = grantLimitOf(app?.grantLimits ?? null, currency);
  if (perGrant === null && perStaffPerDay === null) return false;
  let remaining: number | null = null;
  if (perStaffPerDay !== null) {
    await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`grant-limit:${ctx.appId}:${actor}:${currency}`}, 0))`);
    // Only today's rows count; older ones are deleted by the retention job (lib/retention/retention.ts).
    const dayStart = now - (now % DAY_MS);
    const result = await db.execute(sql`select coalesce(sum(amount), 0)::text as used from staff_grant_usage
      where app_id = ${ctx.appId} and actor = ${actor} and currency = ${currency} and at >= ${dayStart}`);
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
