// POST /api/admin/apps – create an app; its secrets are shown this once
// GET /api/admin/apps – list apps (never their secrets)
// PUT|GET /api/admin/apps/:appId/catalog – missions-as-code import and export
// PATCH /api/admin/apps/:appId – change an app's name or webhook limit (below)
// POST /api/admin/apps/:appId/rotate-secret, POST /api/admin/apps/:appId/revocations (below)
import { z } from 'zod';
import { createApp, getApp, listApps, rotateAppSecret } from '@/lib/apps/apps';
import { revokeByStaff } from '@/lib/auth/revocation';
import { exportCatalog, putCatalog } from '@/lib/catalog/put-catalog';
import { AppError } from '@/lib/errors';
import { createAppSchema, updateAppSchema } from '@/lib/contract/app';
import { updateApp } from '@/lib/services/apps/update-app';
import { adminServiceContext } from '../service-context';
import { readJsonBody } from '../body';
import { adminRoute } from '../handler';
import { json } from '../respond';
import { parseWith } from '../validate';

export const postApp = adminRoute('apps.manage', async ({ req, admin }) => {
  const { value } = await readJsonBody(req);
  const input = parseWith(createAppSchema, value);
  return json(await createApp(input, admin.actor), { status: 201 });
});

export const getApps = adminRoute('apps.read', async () => json({ apps: await listApps() }));

async function requireApp(appId: string): Promise<void> {
  if (!(await getApp(appId))) throw new AppError('app_not_found', `No app "${appId}"`);
}

export const putAppCatalog = adminRoute('catalog.write', async ({ req, params, admin }) => {
  await requireApp(params.appId);
  // 64 KiB like every body (docs/api.md, "Limits"); a larger catalog goes in several PUTs (upsert by id).
  const { value } = await readJsonBody(req);
  return json(await putCatalog(params.appId, value, admin.actor));
});

export const getAppCatalog = adminRoute('catalog.read', async ({ params }) => {
  await requireApp(params.appId);
  return json(await exportCatalog(params.appId));
});

// PATCH /api/admin/apps/:appId – the app's settings: name, webhookEventsPerMinute (null: the default); audited
export const patchApp = adminRoute('apps.manage', async (request) => {
  const { value } = await readJsonBody(request.req);
  const input = parseWith(updateAppSchema, value);
  return json({ app: await updateApp({ ctx: await adminServiceContext(request, request.params.appId), input }) });
});

// POST /api/admin/apps/:appId/rotate-secret – a new app secret; the old one stops working at once
export const postRotateSecret = adminRoute('apps.manage', async ({ params, admin }) => {
  const appSecret = await rotateAppSecret(params.appId, admin.actor);
  return json({ appId: params.appId, appSecret });
});

export const revocationSchema = z.union([
  z.object({ jti: z.string().min(1).max(128) }).strict(),
  z.object({ userId: z.string().min(1).max(256) }).strict(),
]);

// POST /api/admin/apps/:appId/revocations – revoke one token ({jti}) or all of a user's tokens so far ({userId})
export const postRevocation = adminRoute('players.revoke', async ({ req, params, admin }) => {
  await requireApp(params.appId);
  const { value } = await readJsonBody(req);
  const input = parseWith(revocationSchema, value);
  await revokeByStaff({ appId: params.appId, ...input }, admin.actor);
  return json({ revoked: true, ...input });
});
