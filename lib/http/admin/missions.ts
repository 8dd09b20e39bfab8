// GET|POST /api/admin/apps/:appId/missions – list (filters: q, campaignId, status, eventName, window); create
// GET|PUT /api/admin/apps/:appId/missions/:missionId – one mission; replace it (with the version it was read at)
// POST /api/admin/apps/:appId/missions/:missionId/{duplicate,archive,unarchive}
// GET /api/admin/apps/:appId/event-names – suggestions for a mission's event name
import {
  createMission,
  duplicateMission,
  getMissionRecord,
  listMissionRecords,
  setMissionArchived,
  updateMission,
  type CatalogVerbContext,
} from '@/lib/catalog/mission-verbs';
import { missionArchiveSchema, missionDuplicateSchema, missionListQuerySchema } from '@/lib/contract/mission-admin';
import { recentEventNames } from '@/lib/services/events/recent-event-names';
import { z } from 'zod';
import { parseJsonText, readJsonBody, readRawBody } from '../body';
import { adminRoute, type AdminContext } from '../handler';
import { json } from '../respond';
import { parseWith, queryOf } from '../validate';
import { adminServiceContext } from '../service-context';

const verbContext = ({ admin }: AdminContext): CatalogVerbContext => ({ actor: admin.actor });

/** An optional JSON body: none (or blank) means `{}`. */
async function optionalBody(req: Request): Promise<unknown> {
  const raw = await readRawBody(req);
  return raw.trim() === '' ? {} : parseJsonText(raw);
}

export const getMissions = adminRoute('catalog.read', async ({ req, params }) => {
  const query = parseWith(missionListQuerySchema, queryOf(req), { prefix: 'query' });
  return json({ missions: await listMissionRecords(params.appId, query) });
});

export const postMission = adminRoute('catalog.write', async (ctx) => {
  const { value } = await readJsonBody(ctx.req);
  return json(await createMission({ ctx: verbContext(ctx), appId: ctx.params.appId, input: value }), { status: 201 });
});

export const getMission = adminRoute('catalog.read', async ({ params }) => json(await getMissionRecord(params.appId, params.missionId)));

/** The version beside the mission's fields; the fields themselves are checked by missionSchema. */
const versionedBody = z.looseObject({ version: z.number().int().positive() });

export const putMission = adminRoute('catalog.write', async (ctx) => {
  const { value } = await readJsonBody(ctx.req);
  const { version, ...mission } = parseWith(versionedBody, value);
  return json(await updateMission({ ctx: verbContext(ctx), appId: ctx.params.appId, id: ctx.params.missionId, input: { version, mission } }));
});

export const postDuplicateMission = adminRoute('catalog.write', async (ctx) => {
  const input = parseWith(missionDuplicateSchema, await optionalBody(ctx.req));
  return json(await duplicateMission({ ctx: verbContext(ctx), appId: ctx.params.appId, id: ctx.params.missionId, input }), { status: 201 });
});

const archiveRoute = (archived: boolean) =>
  adminRoute('catalog.write', async (ctx) => {
    const input = parseWith(missionArchiveSchema, await optionalBody(ctx.req));
    return json(await setMissionArchived({ ctx: verbContext(ctx), appId: ctx.params.appId, id: ctx.params.missionId, input: { ...input, archived } }));
  });

export const postArchiveMission = archiveRoute(true);
export const postUnarchiveMission = archiveRoute(false);

export const getEventNames = adminRoute('catalog.read', async (request) => {
  return json(await recentEventNames({ ctx: await adminServiceContext(request, request.params.appId) }));
});
