// GET|POST /api/admin/apps/:appId/themes – list theme presets; create one
// GET|PUT|DELETE /api/admin/apps/:appId/themes/:themeId – one preset; replace it (with the version read); delete it
// GET|POST /api/admin/apps/:appId/campaigns – list campaigns; create one
// GET|PUT|DELETE /api/admin/apps/:appId/campaigns/:campaignId – one campaign; replace it (with the version read); delete it
import { createCampaignSchema, deleteQuerySchema, updateCampaignSchema, updateThemeSchema } from '@/lib/contract/catalog-admin';
import { themePresetSchema } from '@/lib/contract/theme';
import { AppError } from '@/lib/errors';
import { createCampaign } from '@/lib/services/campaigns/create-campaign';
import { deleteCampaign } from '@/lib/services/campaigns/delete-campaign';
import { getCampaign, listCampaigns } from '@/lib/services/campaigns/read-campaigns';
import { updateCampaign } from '@/lib/services/campaigns/update-campaign';
import { createTheme } from '@/lib/services/themes/create-theme';
import { deleteTheme } from '@/lib/services/themes/delete-theme';
import { getTheme } from '@/lib/services/themes/get-theme';
import { listThemes } from '@/lib/services/themes/list-themes';
import { updateTheme } from '@/lib/services/themes/update-theme';
import { readJsonBody } from '../body';
import { adminRoute, type AdminContext } from '../handler';
import { json } from '../respond';
import { adminServiceContext } from '../service-context';
import { parseWith, queryOf } from '../validate';

// The context is built after the request is parsed: a bad body answers 400 before an unknown app's 404.
const appContext = (req: AdminContext) => adminServiceContext(req, req.params.appId);

/** The path names the item; a body id, when sent, must agree. */
function sameId(bodyId: string | undefined, pathId: string): string {
  if (bodyId !== undefined && bodyId !== pathId) throw new AppError('validation_error', `id: "${bodyId}" differs from the path's "${pathId}"`);
  return pathId;
}

export const getThemes = adminRoute('catalog.read', async (req) => json({ themes: await listThemes({ ctx: await appContext(req) }) }));

export const getThemeItem = adminRoute('catalog.read', async (req) => json({ theme: await getTheme({ ctx: await appContext(req), input: { id: req.params.themeId } }) }));

export const postTheme = adminRoute('catalog.write', async (ctx) => {
  const { value } = await readJsonBody(ctx.req);
  const theme = parseWith(themePresetSchema, value);
  return json({ theme: await createTheme({ ctx: await appContext(ctx), input: { theme } }) }, { status: 201 });
});

export const putTheme = adminRoute('catalog.write', async (ctx) => {
  const { value } = await readJsonBody(ctx.req);
  const { version, id, ...fields } = parseWith(updateThemeSchema, value);
  const theme = { ...fields, id: sameId(id, ctx.params.themeId) };
  return json({ theme: await updateTheme({ ctx: await appContext(ctx), input: { theme, version } }) });
});

export const deleteThemeItem = adminRoute('catalog.write', async (ctx) => {
  const { version } = parseWith(deleteQuerySchema, queryOf(ctx.req));
  await deleteTheme({ ctx: await appContext(ctx), input: { id: ctx.params.themeId, version } });
  return new Response(null, { status: 204 });
});

export const getCampaigns = adminRoute('catalog.read', async (req) => {
  const ctx = await appContext(req);
  return json({ campaigns: await listCampaigns({ ctx }) });
});

export const getCampaignItem = adminRoute('catalog.read', async (req) => {
  const ctx = await appContext(req);
  return json({ campaign: await getCampaign({ ctx, input: { campaignId: req.params.campaignId } }) });
});

export const postCampaign = adminRoute('catalog.write', async (ctx) => {
  const { value } = await readJsonBody(ctx.req);
  const campaign = parseWith(createCampaignSchema, value);
  return json({ campaign: await createCampaign({ ctx: await appContext(ctx), input: { campaign } }) }, { status: 201 });
});

export const putCampaign = adminRoute('catalog.write', async (ctx) => {
  const { value } = await readJsonBody(ctx.req);
  const { version, id, ...fields } = parseWith(updateCampaignSchema, value);
  const campaign = { ...fields, id: sameId(id, ctx.params.campaignId) };
  return json({ campaign: await updateCampaign({ ctx: await appContext(ctx), input: { campaign, version } }) });
});

export const deleteCampaignItem = adminRoute('catalog.write', async (ctx) => {
  const { version } = parseWith(deleteQuerySchema, queryOf(ctx.req));
  await deleteCampaign({ ctx: await appContext(ctx), input: { id: ctx.params.campaignId, version } });
  return new Response(null, { status: 204 });
});
