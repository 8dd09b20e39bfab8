// GET|POST /api/admin/apps/:appId/missions – list (filters: q, campaignId, status, eventName, window); create
// GET|PUT /api/admin/apps/:appId/missions/:missionId – one mission; replace it (with the version it was read at)
// POST /api/admin/apps/:appId/missions/:missionId/{duplicate,archive,unarchive}
// GET /api/admin/apps/:appId/event-names – suggestions for a mission's event name
// GET /api/admin/apps/:appId/event-payload-fields?name= – the payload fields (with examples) recent events of a name carried
import { missionArchiveSchema, missionDuplicateSchema, missionListQuerySchema, payloadFieldsQuerySchema } from '@/lib/contract/mission-admin';
import { missionSchema } from '@/lib/contract/mission';
import { createMission } from '@/lib/services/missions/create-mission';
import { duplicateMission } from '@/lib/services/missions/duplicate-mission';
import { getMissionRecord } from '@/lib/services/missions/get-mission-record';
import { listMissionRecords } from '@/lib/services/missions/list-mission-records';
import { setMissionArchived } from '@/lib/services/missions/set-mission-archived';
import { updateMission } from '@/lib/services/missions/update-mission';
import { recentEventNames } from '@/lib/services/events/recent-event-names';
import { recentPayloadFields } from '@/lib/services/events/recent-payload-fields';
import { z } from 'zod';
import { parseJsonText, readJsonBody, readRawBody } from '../body';
import { adminRoute, type AdminContext } from '../handler';
import { json } from '../respond';
import { parseWith, queryOf } from '../validate';
import { adminServiceContext } from '../service-context';

// Built where the app check always came: after the parse of the request, except a new mission's fields, checked after it.
const appContext = (req: AdminContext) => adminServiceContext(req, req.params.appId);

/** An optional JSON body: none (or blank) means `{}`. */
async function optionalBody(req: Request): Promise<unknown> {
  const raw = await readRawBody(req);
  return raw.trim() === '' ? {} : parseJsonText(raw);
}

export const getMissions = adminRoute('catalog.read', async (request) => {
  const query = parseWith(missionListQuerySchema, queryOf(request.req), { prefix: 'query' });
  return json({ missions: await listMissionRecords({ ctx: await appContext(request), input: query }) });
});

export const postMission = adminRoute('catalog.write', async (ctx) => {
  const { value } = await readJsonBody(ctx.req);
  // The app is checked before the mission's fields (a bad body for an unknown app answers 404).
  const serviceCtx = await appContext(ctx);
  return json(await createMission({ ctx: serviceCtx, input: parseWith(missionSchema, value) }), { status: 201 });
});

export const getMission = adminRoute('catalog.read', async (req) => json(await getMissionRecord({ ctx: await appContext(req), input: { id: req.params.missionId } })));

/** The version beside the mission's fields; the fields themselves are checked by missionSchema. */
const versionedBody = z.looseObject({ version: z.number().int().positive() });

export const putMission = adminRoute('catalog.write', async (ctx) => {
  const { value } = await readJsonBody(ctx.req);
  const { version, ...fields } = parseWith(versionedBody, value);
  const id = ctx.params.missionId;
  // The body's id may be left out: the path names the mission.
  const mission = parseWith(missionSchema, { ...fields, id: fields.id ?? id });
  return json(await updateMission({ ctx: await appContext(ctx), input: { id, version, mission } }));
});

export const postDuplicateMission = adminRoute('catalog.write', async (ctx) => {
  const input = parseWith(missionDuplicateSchema, await optionalBody(ctx.req));
  return json(await duplicateMission({ ctx: await appContext(ctx), input: { id: ctx.params.missionId, copy: input } }), { status: 201 });
});

const archiveRoute = (archived: boolean) =>
  adminRoute('catalog.write', async (ctx) => {
    const input = parseWith(missionArchiveSchema, await optionalBody(ctx.req));
    return json(await setMissionArchived({ ctx: await appContext(ctx), input: { ...input, id: ctx.params.missionId, archived } }));
  });

export const postArchiveMission = archiveRoute(true);
export const postUnarchiveMission = archiveRoute(false);

export const getEventNames = adminRoute('catalog.read', async (request) => {
  return json(await recentEventNames({ ctx: await appContext(request) }));
});

export const getPayloadFields = adminRoute('catalog.read', async (req) => {
  const input = parseWith(payloadFieldsQuerySchema, queryOf(req.req), { prefix: 'query' });
  const ctx = await appContext(req);
  return json(await recentPayloadFields({ ctx, input }));
});
