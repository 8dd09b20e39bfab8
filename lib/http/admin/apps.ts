// POST /api/admin/apps – create an app; its secrets are shown this once
// GET /api/admin/apps – list apps (never their secrets)
// PUT|GET /api/admin/apps/:appId/catalog – missions-as-code import and export
// PATCH /api/admin/apps/:appId – change an app's name or webhook limit (below)
// POST /api/admin/apps/:appId/rotate-secret, POST /api/admin/apps/:appId/revocations (below)
import { z } from 'zod';
import { createApp } from '@/lib/services/apps/create-app';
import { listApps } from '@/lib/services/apps/list-apps';
import { rotateAppSecret } from '@/lib/services/apps/rotate-app-secret';
import { exportCatalog } from '@/lib/services/catalog/export-catalog';
import { parseCatalogImport, putCatalog } from '@/lib/services/catalog/put-catalog';
import { createAppSchema, updateAppSchema } from '@/lib/contract/app';
import { updateApp } from '@/lib/services/apps/update-app';
import { revokeTokens } from '@/lib/services/auth/revoke-tokens';
import { adminServiceContext, staffServiceContext } from '../service-context';
import { readJsonBody } from '../body';
import { adminRoute, type AdminContext } from '../handler';
import { json } from '../respond';
import { parseWith } from '../validate';

export const postApp = adminRoute('apps.manage', async (request) => {
  const { value } = await readJsonBody(request.req);
  const input = parseWith(createAppSchema, value);
  const ctx = await staffServiceContext(request);
  return json(await createApp({ ctx, input }), { status: 201 });
});

export const getApps = adminRoute('apps.read', async (request) => json({ apps: await listApps({ ctx: await staffServiceContext(request) }) }));

/** 404 app_not_found unless the app exists (adminServiceContext checks it). */
const requireApp = (request: AdminContext) => adminServiceContext(request, request.params.appId);

export const putAppCatalog = adminRoute('catalog.write', async (request) => {
  const ctx = await requireApp(request);
  // 64 KiB like every body (docs/api.md, "Limits"); a larger catalog goes in several PUTs (upsert by id).
  const { value } = await readJsonBody(request.req);
  return json(await putCatalog({ ctx, input: parseCatalogImport(value) }));
});

export const getAppCatalog = adminRoute('catalog.read', async (request) => {
  return json(await exportCatalog({ ctx: await requireApp(request) }));
});

// PATCH /api/admin/apps/:appId – the app's settings: name, webhookEventsPerMinute (null: the default); audited
export const patchApp = adminRoute('apps.manage', async (request) => {
  const { value } = await readJsonBody(request.req);
  const input = parseWith(updateAppSchema, value);
  return json({ app: await updateApp({ ctx: await adminServiceContext(request, request.params.appId), input }) });
});

// POST /api/admin/apps/:appId/rotate-secret – a new app secret; the old one stops working at once
export const postRotateSecret = adminRoute('apps.manage', async (request) => {
  const { params } = request;
  const appSecret = await rotateAppSecret({ ctx: await staffServiceContext(request), input: { appId: params.appId } });
  return json({ appId: params.appId, appSecret });
});

export const revocationSchema = z.union([
  z.object({ jti: z.string().min(1).max(128) }).strict(),
  z.object({ userId: z.string().min(1).max(256) }).strict(),
]);

// POST /api/admin/apps/:appId/revocations – revoke one token ({jti}) or all of a user's tokens so far ({userId})
export const postRevocation = adminRoute('players.revoke', async (request) => {
  const ctx = await requireApp(request);
  const { value } = await readJsonBody(request.req);
  const input = parseWith(revocationSchema, value);
  await revokeTokens({ ctx, input });
  return json({ revoked: true, ...input });
});
