// POST /api/admin/apps/:appId/rotate-webhook-secret – a new webhook secret; the previous one
// stays valid for `gracePeriodSeconds` (default 86400; 0 ends it at once, for a leaked secret)
import { z } from 'zod';
import { DEFAULT_WEBHOOK_GRACE_MS, MAX_WEBHOOK_GRACE_MS, rotateWebhookSecret } from '@/lib/apps/webhook-secret';
import { parseJsonText, readRawBody } from '../body';
import { adminRoute } from '../handler';
import { json } from '../respond';
import { parseWith } from '../validate';

export const rotateWebhookSecretSchema = z
  .object({
    gracePeriodSeconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_WEBHOOK_GRACE_MS / 1000)
      .default(DEFAULT_WEBHOOK_GRACE_MS / 1000),
  })
  .strict();

export const postRotateWebhookSecret = adminRoute(async ({ req, params, admin }) => {
  // The body is optional: none means the default grace period.
  const raw = await readRawBody(req);
  const input = parseWith(rotateWebhookSecretSchema, raw.trim() === '' ? {} : parseJsonText(raw));
  return json(
    await rotateWebhookSecret({ ctx: { actor: admin.actor }, input: { appId: params.appId, graceMs: input.gracePeriodSeconds * 1000 } }),
  );
});
