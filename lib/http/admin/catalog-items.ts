// GET|POST /api/admin/apps/:appId/themes – list theme presets; create one
// GET|PUT|DELETE /api/admin/apps/:appId/themes/:themeId – one preset; replace it (with the version read); delete it
// GET|POST /api/admin/apps/:appId/campaigns – list campaigns; create one
// GET|PUT|DELETE /api/admin/apps/:appId/campaigns/:campaignId – one campaign; replace it (with the version read); delete it
import { createCampaign, deleteCampaign, updateCampaign } from '@/lib/catalog/campaigns';
import { createTheme, deleteTheme, getTheme, listThemes, updateTheme, type CatalogVerbContext } from '@/lib/catalog/themes';
import { createCampaignSchema, deleteQuerySchema, updateCampaignSchema, updateThemeSchema } from '@/lib/contract/catalog-admin';
import { themePresetSchema } from '@/lib/contract/theme';
import { AppError } from '@/lib/errors';
import { getCampaign, listCampaigns } from '@/lib/services/campaigns/read-campaigns';
import { readJsonBody } from '../body';
import { adminRoute, type AdminContext } from '../handler';
import { json } from '../respond';
import { adminServiceContext } from '../service-context';
import { parseWith, queryOf } from '../validate';

const verbContext = ({ admin }: AdminContext): CatalogVerbContext => ({ actor: admin.actor });

/** The path names the item; a body id, when sent, must agree. */
function sameId(bodyId: string | undefined, pathId: string): string {
  if (bodyId !== undefined && bodyId !== pathId) throw new AppError('validation_error', `id: "${bodyId}" differs from the path's "${pathId}"`);
  return pathId;
}

export const getThemes = adminRoute('catalog.read', async ({ params }) => json({ themes: await listThemes(params.appId) }));

export const getThemeItem = adminRoute('catalog.read', async ({ params }) => json({ theme: await getTheme(params.appId, params.themeId) }));

export const postTheme = adminRoute('catalog.write', async (ctx) => {
  const { value } = await readJsonBody(ctx.req);
  const theme = parseWith(themePresetSchema, value);
  return json({ theme: await createTheme({ ctx: verbContext(ctx), input: { appId: ctx.params.appId, theme } }) }, { status: 201 });
});

export const putTheme = adminRoute('catalog.write', async (ctx) => {
  const { value } = await readJsonBody(ctx.req);
  const { version, id, ...fields } = parseWith(updateThemeSchema, value);
  const theme = { ...fields, id: sameId(id, ctx.params.themeId) };
  return json({ theme: await updateTheme({ ctx: verbContext(ctx), input: { appId: ctx.params.appId, theme, version } }) });
});

export const deleteThemeItem = adminRoute('catalog.write', async (ctx) => {
  const { version } = parseWith(deleteQuerySchema, queryOf(ctx.req));
  await deleteTheme({ ctx: verbContext(ctx), input: { appId: ctx.params.appId, id: ctx.params.themeId, version } });
  return new Response(null, { status: 204 });
});

export const getCampaigns = adminRoute('catalog.read', async (req) => {
  const ctx = await adminServiceContext(req, req.params.appId);
  return json({ campaigns: await listCampaigns({ ctx }) });
});

export const getCampaignItem = adminRoute('catalog.read', async (req) => {
  const ctx = await adminServiceContext(req, req.params.appId);
  return json({ campaign: await getCampaign({ ctx, input: { campaignId: req.params.campaignId } }) });
});

export const postCampaign = adminRoute('catalog.write', async (ctx) => {
  const { value } = await readJsonBody(ctx.req);
  const campaign = parseWith(createCampaignSchema, value);
  return json({ campaign: await createCampaign({ ctx: verbContext(ctx), input: { appId: ctx.params.appId, campaign } }) }, { status: 201 });
});

export const putCampaign = adminRoute('catalog.write', async (ctx) => {
  const { value } = await readJsonBody(ctx.req);
  const { version, id, ...fields } = parseWith(updateCampaignSchema, value);
  const campaign = { ...fields, id: sameId(id, ctx.params.campaignId) };
  return json({ campaign: await updateCampaign({ ctx: verbContext(ctx), input: { appId: ctx.params.appId, campaign, version } }) });
});

export const deleteCampaignItem = adminRoute('catalog.write', async (ctx) => {
  const { version } = parseWith(deleteQuerySchema, queryOf(ctx.req));
  await deleteCampaign({ ctx: verbContext(ctx), input: { appId: ctx.params.appId, id: ctx.params.campaignId, version } });
  return new Response(null, { status: 204 });
});
