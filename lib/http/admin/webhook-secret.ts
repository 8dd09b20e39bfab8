// POST /api/admin/apps/:appId/rotate-webhook-secret – a new webhook secret; the previous one
// stays valid for `gracePeriodSeconds` (default 86400; 0 ends it at once, for a leaked secret)
import { z } from 'zod';
import { DEFAULT_WEBHOOK_GRACE_MS, MAX_WEBHOOK_GRACE_MS } from '@/lib/apps/webhook-secret';
import { rotateWebhookSecret } from '@/lib/services/apps/rotate-webhook-secret';
import { parseJsonText, readRawBody } from '../body';
import { adminRoute } from '../handler';
import { json } from '../respond';
import { parseWith } from '../validate';
import { adminServiceContext } from '../service-context';

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

export const postRotateWebhookSecret = adminRoute('apps.manage', async (request) => {
  const { req, params } = request;
  // The body is optional: none means the default grace period.
  const raw = await readRawBody(req);
  const input = parseWith(rotateWebhookSecretSchema, raw.trim() === '' ? {} : parseJsonText(raw));
  const ctx = await adminServiceContext(request, params.appId);
  return json(await rotateWebhookSecret({ ctx, input: { graceMs: input.gracePeriodSeconds * 1000 } }));
});
