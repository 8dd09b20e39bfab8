// Changing an app's settings (its name, its signed webhook's limit, its grant limits, the two-person rule): one
// transaction that locks the app's row, writes the change and its audit row
// (before and after, never a secret). Input already parsed with updateAppSchema.
import { eq } from 'drizzle-orm';
import { apps } from '@/db/schema';
import { toPublicApp } from '@/lib/apps/apps';
import { recordAudit } from '@/lib/audit';
import type { PublicApp, UpdateAppInput } from '@/lib/contract/app';
import { AppError } from '@/lib/errors';
import { actorLabel, withTransaction, type ServiceContext } from '../context';

/** The settings of an app the audit log compares: only what this verb can change. */
const settingsOf = (app: PublicApp) => ({ name: app.name, webhookEventsPerMinute: app.webhookEventsPerMinute, grantLimits: app.grantLimits, requireApproval: app.requireApproval });

export async function updateApp({ ctx, input }: { ctx: ServiceContext; input: UpdateAppInput }): Promise<PublicApp> {
  const { appId } = ctx;
  const now = ctx.now();
  return withTransaction(ctx, async ({ deps: { db: tx } }) => {
    const [current] = await tx.select().from(apps).where(eq(apps.id, appId)).for('update');
    if (!current) throw new AppError('app_not_found', `No app "${appId}"`);
    const [updated] = await tx.update(apps).set(input).where(eq(apps.id, appId)).returning();
    const before = toPublicApp(current, now);
    const after = toPublicApp(updated, now);
    await recordAudit(tx, { actor: actorLabel(ctx.actor), action: 'app.update', appId, target: `app:${appId}`, before: settingsOf(before), after: settingsOf(after) }, now);
    return after;
  });
}
