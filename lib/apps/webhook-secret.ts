// An app's webhook secret (the HMAC key of inbound deliveries) and its
// rotation. After a rotation the previous secret stays valid for a grace
// period (24 h unless the caller asks otherwise; 0 ends it at once, for a
// leaked secret), so a game backend can switch without dropping deliveries.
// Kept as is in the database, not hashed: verifying an HMAC needs the key.
import { eq } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { apps, type AppRow } from '@/db/schema';
import { recordAudit } from '@/lib/audit';
import { AppError } from '@/lib/errors';
import { generateSecret } from './secrets';

export const DEFAULT_WEBHOOK_GRACE_MS = 24 * 60 * 60 * 1000;
export const MAX_WEBHOOK_GRACE_MS = 7 * 24 * 60 * 60 * 1000;

/** The secrets a delivery may be signed with at `now`: the current one, and the previous one during its grace period. */
export function webhookSecretsOf(app: Pick<AppRow, 'webhookSecret' | 'previousWebhookSecret' | 'previousWebhookSecretExpiresAt'>, now: number): string[] {
  const secrets = [app.webhookSecret];
  if (app.previousWebhookSecret && app.previousWebhookSecretExpiresAt !== null && now < app.previousWebhookSecretExpiresAt) {
    secrets.push(app.previousWebhookSecret);
  }
  return secrets;
}

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
export async function rotateWebhookSecret(
  { ctx, input }: { ctx: { actor: string }; input: { appId: string; graceMs?: number } },
  now = Date.now(),
): Promise<RotatedWebhookSecret> {
  const graceMs = input.graceMs ?? DEFAULT_WEBHOOK_GRACE_MS;
  if (!Number.isSafeInteger(graceMs) || graceMs < 0 || graceMs > MAX_WEBHOOK_GRACE_MS) {
    throw new AppError('validation_error', `grace period: must be 0 to ${MAX_WEBHOOK_GRACE_MS / 1000} seconds`);
  }
  const webhookSecret = generateSecret('whs');
  const previousSecretExpiresAt = graceMs > 0 ? now + graceMs : null;
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [current] = await tx.select().from(apps).where(eq(apps.id, input.appId)).for('update');
    if (!current) throw new AppError('app_not_found', `No app "${input.appId}"`);
    await tx
      .update(apps)
      .set({
        webhookSecret,
        previousWebhookSecret: previousSecretExpiresAt === null ? null : current.webhookSecret,
        previousWebhookSecretExpiresAt: previousSecretExpiresAt,
      })
      .where(eq(apps.id, input.appId));
    await recordAudit(
      tx,
      {
        actor: ctx.actor,
        action: 'app.rotate_webhook_secret',
        appId: input.appId,
        target: `app:${input.appId}`,
        // Never a secret in the audit log: when, and until when the old one works.
        after: { rotatedAt: now, previousSecretExpiresAt },
      },
      now,
    );
  });
  return { appId: input.appId, webhookSecret, previousSecretExpiresAt };
}
