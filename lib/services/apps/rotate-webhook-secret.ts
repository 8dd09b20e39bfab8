// An app's webhook secret rotation. After a rotation the previous secret stays
// valid for a grace period (24 h unless the caller asks otherwise; 0 ends it at
// once, for a leaked secret), so a game backend can switch without dropping
// deliveries. One transaction with its audit row.
import { eq } from 'drizzle-orm';
import { apps } from '@/db/schema';
import { generateSecret } from '@/lib/apps/secrets';
import { DEFAULT_WEBHOOK_GRACE_MS, MAX_WEBHOOK_GRACE_MS } from '@/lib/apps/webhook-secret';
import { recordAudit } from '@/lib/audit';
import { AppError } from '@/lib/errors';
import { actorLabel, withTransaction, type ServiceContext } from '../context';

export interface RotatedWebhookSecret {
  appId: string;
  webhookSecret: string;
  /** Until when (Unix ms) the previous secret is still accepted; null when it ended at once. */
  previousSecretExpiresAt: number | null;
}

/**
 * A new webhook secret. The one it replaces stays valid for `graceMs`. A
 * secret older than that (from an earlier rotation) ends now: at most two
 * secrets are valid at any time.
 */
export async function rotateWebhookSecret({ ctx, input }: { ctx: ServiceContext; input: { graceMs?: number } }): Promise<RotatedWebhookSecret> {
  const { appId } = ctx;
  // The service clock (the wall clock in production, so the grace period ends in real time; the test clock route moves it).
  const now = ctx.now();
  const graceMs = input.graceMs ?? DEFAULT_WEBHOOK_GRACE_MS;
  if (!Number.isSafeInteger(graceMs) || graceMs < 0 || graceMs > MAX_WEBHOOK_GRACE_MS) {
    throw new AppError('validation_error', `grace period: must be 0 to ${MAX_WEBHOOK_GRACE_MS / 1000} seconds`);
  }
  const webhookSecret = generateSecret('whs');
  const previousSecretExpiresAt = graceMs > 0 ? now + graceMs : null;
  await withTransaction(ctx, async ({ deps: { db: tx } }) => {
    const [current] = await tx.select().from(apps).where(eq(apps.id, appId)).for('update');
    if (!current) throw new AppError('app_not_found', `No app "${appId}"`);
    await tx
      .update(apps)
      .set({
        webhookSecret,
        previousWebhookSecret: previousSecretExpiresAt === null ? null : current.webhookSecret,
        previousWebhookSecretExpiresAt: previousSecretExpiresAt,
      })
      .where(eq(apps.id, appId));
    await recordAudit(
      tx,
      {
        actor: actorLabel(ctx.actor),
        action: 'app.rotate_webhook_secret',
        appId: appId,
        target: `app:${appId}`,
        // Never a secret in the audit log: when, and until when the old one works.
        after: { rotatedAt: now, previousSecretExpiresAt },
      },
      now,
    );
  });
  return { appId, webhookSecret, previousSecretExpiresAt };
}
