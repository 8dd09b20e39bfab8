// An app's webhook secrets (the HMAC keys of inbound deliveries): which ones a
// delivery may be signed with, and the bounds of a rotation's grace period
// (the rotation itself: lib/services/apps/rotate-webhook-secret.ts).
// Kept as is in the database, not hashed: verifying an HMAC needs the key.
import type { AppRow } from '@/db/schema';

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
