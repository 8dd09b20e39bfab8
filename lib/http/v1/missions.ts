// GET /v1/missions – list missions with the caller's progress
// GET /v1/missions/:id – one mission and the caller's progress
// POST /v1/missions/:id/claim – claim the reward of a completed mission
import type { z } from 'zod';
import { getDb } from '@/db/client';
import { getCatalog } from '@/lib/catalog/catalog';
import { publicMission } from '@/lib/catalog/convert';
import type { MissionProgress } from '@/lib/contract/progress';
import { listMissionsQuerySchema, type missionDetailSchema, type missionListSchema } from '@/lib/contract/v1';
import { AppError } from '@/lib/errors';
import { checkKey } from '@/lib/idempotency/run-idempotent';
import { claimReward } from '@/lib/claims/claim-reward';
import { listMissionViews, viewMission } from '@/lib/missions/read-missions';
import { readRecords } from '@/lib/progress/records';
import { claimsLimiter } from '@/lib/ratelimit/policies';
import { userRoute } from '../handler';
import { idempotentJson, json } from '../respond';
import { parseWith, queryOf } from '../validate';
import { metrics } from '@/lib/metrics';

const encodeCursor = (id: string) => Buffer.from(`m:${id}`, 'utf8').toString('base64url');
function decodeCursor(cursor: string): string {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!text.startsWith('m:') || text.length < 3) throw new AppError('validation_error', 'cursor: not a cursor of this API');
  return text.slice(2);
}

export const listMissions = userRoute({}, async ({ req, auth }) => {
  const query = parseWith(listMissionsQuerySchema, queryOf(req));
  const catalog = await getCatalog(auth.appId);
  const { views, nextAfter } = await listMissionViews(await getDb(), catalog, auth.userId, {
    campaignId: query.campaignId,
    status: query.status,
    limit: query.limit,
    after: query.cursor ? decodeCursor(query.cursor) : null,
    includeExpired: query.include === 'expired',
  });
  const progress: Record<string, MissionProgress> = {};
  for (const v of views) if (v.progress) progress[v.mission.id] = v.progress;
  return json({
    missions: views.map((v) => publicMission(v.mission, v.locked)),
    progress,
    nextCursor: nextAfter === null ? null : encodeCursor(nextAfter),
  } satisfies z.output<typeof missionListSchema>);
});

export const getMission = userRoute({}, async ({ auth, params }) => {
  const catalog = await getCatalog(auth.appId);
  const mission = catalog.missions.get(params.id);
  const records = mission ? await readRecords(await getDb(), auth.appId, auth.userId) : null;
  // An archived mission is still readable by a user who has a record of it (it may be claimable).
  if (!mission || !records || (mission.archived && !records.has(mission.id))) {
    throw new AppError('mission_not_found', `No mission "${params.id}"`);
  }
  const view = viewMission(catalog, mission, records, Date.now());
  return json({ mission: publicMission(mission, view.locked), progress: view.progress } satisfies z.output<typeof missionDetailSchema>);
});

export const postClaim = userRoute({ limiter: claimsLimiter }, async ({ req, auth, params }) => {
  const idempotencyKey = checkKey(req.headers.get('idempotency-key'));
  const outcome = await claimReward({ ctx: { appId: auth.appId, userId: auth.userId }, input: { missionId: params.id, idempotencyKey } }).catch(
    (err: unknown) => {
      if (err instanceof AppError) metrics().claims.inc({ outcome: err.code });
      throw err;
    },
  );
  metrics().claims.inc({ outcome: outcome.replay === null ? 'granted' : 'replayed' });
  return idempotentJson(outcome);
});
