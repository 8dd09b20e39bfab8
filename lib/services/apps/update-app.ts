// Changing an app's settings (its name, its signed webhook's limit): one
// transaction that locks the app's row, writes the change and its audit row
// (before and after, never a secret). Input already parsed with updateAppSchema.
import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { apps } from '@/db/schema';
import { toPublicApp } from '@/lib/apps/apps';
import { recordAudit } from '@/lib/audit';
import type { PublicApp, UpdateAppInput } from '@/lib/contract/app';
import { AppError } from '@/lib/errors';

export interface UpdateAppContext {
  /** Who changes it, as the audit log names them. */
  actor: string;
  now: number;
  /** The database; the verb opens its own transaction on it. */
  db: Db;
}

/** The settings of an app the audit log compares: only what this verb can change. */
const settingsOf = (app: PublicApp) => ({ name: app.name, webhookEventsPerMinute: app.webhookEventsPerMinute });

export async function updateApp({ ctx, input }: { ctx: UpdateAppContext; input: UpdateAppInput & { appId: string } }): Promise<PublicApp> {
  const { appId, ...change } = input;
  return ctx.db.transaction(async (tx) => {
    const [current] = await tx.select().from(apps).where(eq(apps.id, appId)).for('update');
    if (!current) throw new AppError('app_not_found', `No app "${appId}"`);
    const [updated] = await tx.update(apps).set(change).where(eq(apps.id, appId)).returning();
    const before = toPublicApp(current, ctx.now);
    const after = toPublicApp(updated, ctx.now);
    await recordAudit(tx, { actor: ctx.actor, action: 'app.update', appId, target: `app:${appId}`, before: settingsOf(before), after: settingsOf(after) }, ctx.now);
    return after;
  });
}
